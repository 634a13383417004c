// Activity: what the daemon says each session is doing (the `activity` of every row of
// `sessions`, worked out from the rhythm of its output) shown where a person looks.
// - on the tabs (tab_bar.js sets data-activity, style.css draws it): a light travelling
//   round the tab while `working`; a flash, then a steady mark once `finished` (a dot)
//   or `waiting` (a diamond): shapes, not only colours;
// - in the browser's own tab: the title counts the sessions finished or waiting, and the
//   favicon (drawn on a canvas) carries a bar along its bottom while something works and
//   a dot in its top corner while something waits;
// - a chime (one soft WebAudio note, no audio file) when the daemon says nobody came
//   back to a finished session, unless muted by the bell (remembered in localStorage).
// Touching the attached session (a key, a click, a scroll) or arriving at it sends
// `seen`, which clears finished/waiting for every window.
import { button, icon } from './tab_bar.js';

const MUTE_KEY = 'wharf.muted';
const BELL = 'M8 2.5a3.5 3.5 0 0 0-3.5 3.5v2.5L3 11h10l-1.5-2.5V6A3.5 3.5 0 0 0 8 2.5zM6.5 13a1.5 1.5 0 0 0 3 0';
const SLASH = 'M2.5 2.5l11 11';

export function createActivity({ onSeen, terminalEl }) {
  let sessions = [];
  let attachedId = null;
  let sessionName = null;
  let lastSeenSent = new Map(); // id -> the activity we already said we saw
  let lastOn = null; // the session this window was last attached to (kept across drops)

  // ---- the bell ---------------------------------------------------------------------
  let muted = false;
  try { muted = localStorage.getItem(MUTE_KEY) === '1'; } catch { /* storage refused */ }
  const bell = button('tab-bell', '', '');
  function drawBell() {
    bell.replaceChildren(icon(BELL));
    if (muted) bell.firstChild.append(Object.assign(icon(SLASH).firstChild));
    const label = muted ? 'Chime muted (unmute)' : 'Chime on (mute)';
    bell.setAttribute('aria-label', label);
    bell.setAttribute('aria-pressed', String(muted));
    bell.title = muted ? 'The chime is muted: click to hear when a session finishes'
      : 'A chime plays when a finished session goes unseen: click to mute';
    bell.classList.toggle('muted', muted);
  }
  bell.addEventListener('click', () => {
    muted = !muted;
    try { localStorage.setItem(MUTE_KEY, muted ? '1' : '0'); } catch { /* storage refused */ }
    drawBell();
    if (!muted) unlockAudio();
  });
  drawBell();

  // ---- sound ------------------------------------------------------------------------
  let audio = null;
  function unlockAudio() {
    try {
      audio ??= new AudioContext();
      if (audio.state === 'suspended') audio.resume().catch(() => {});
    } catch { audio = null; }
  }
  // Browsers only let a page make sound after a gesture: any key or click unlocks it.
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, unlockAudio, { capture: true, once: true });

  let chimes = 0;
  let silenced = 0;
  function chime() {
    if (muted) {
      silenced++;
      document.documentElement.dataset.chimesMuted = String(silenced);
      return false;
    }
    unlockAudio();
    if (!audio) return false;
    const now = audio.currentTime;
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.12, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 1.2);
    gain.connect(audio.destination);
    // Two soft partials a fifth apart: a bell-like ping rather than a beep.
    for (const [freq, level] of [[880, 1], [1320, 0.35]]) {
      const osc = audio.createOscillator();
      const g = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      g.gain.value = level;
      osc.connect(g).connect(gain);
      osc.start(now);
      osc.stop(now + 1.25);
    }
    chimes++;
    document.documentElement.dataset.chimes = String(chimes); // for tests and curious people
    return true;
  }

  // ---- seen -------------------------------------------------------------------------
  function lit(session) { return session?.activity === 'finished' || session?.activity === 'waiting'; }
  function touch() {
    const session = sessions.find((s) => s.id === attachedId);
    if (!lit(session)) return;
    if (lastSeenSent.get(session.id) === session.activity) return; // said so; the list will catch up
    lastSeenSent.set(session.id, session.activity);
    onSeen(session.id);
  }
  // The terminal (and whatever else sits under it, like a composer): a key, a click, a scroll.
  for (const type of ['keydown', 'pointerdown', 'wheel']) {
    document.addEventListener(type, (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('#tabs, .confirm, .launcher, #curtain')) return;
      if (type !== 'keydown' && terminalEl && !terminalEl.contains(target) && !target?.closest('#composer, .composer')) return;
      touch();
    }, { capture: true, passive: true });
  }

  // ---- favicon ----------------------------------------------------------------------
  const link = document.querySelector('link[rel="icon"]') ?? document.head.appendChild(Object.assign(document.createElement('link'), { rel: 'icon' }));
  const originalIcon = link.href;
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  let sweep = 0;
  let sweepTimer = 0;
  let iconState = '';

  function drawIcon(working, waiting) {
    const state = `${working}/${waiting}/${working ? sweep : 0}`;
    if (state === iconState) return;
    iconState = state;
    if (!working && !waiting) {
      link.type = 'image/svg+xml';
      link.href = originalIcon;
      document.documentElement.dataset.favicon = 'plain';
      return;
    }
    const c = canvas.getContext('2d');
    c.clearRect(0, 0, 32, 32);
    roundRect(c, 0, 0, 32, 32, 6);
    c.fillStyle = '#0e1116';
    c.fill();
    // The prompt of the regular icon, so the tab is still recognisably wharf's.
    c.strokeStyle = '#61afef';
    c.lineWidth = 3;
    c.lineCap = 'round';
    c.lineJoin = 'round';
    c.beginPath();
    c.moveTo(7, 8); c.lineTo(13, 13); c.lineTo(7, 18);
    c.stroke();
    c.strokeStyle = '#d6dae0';
    c.beginPath();
    c.moveTo(16, 18); c.lineTo(24, 18);
    c.stroke();
    if (working) { // a white bar along the bottom with a lit segment sweeping along it
      c.fillStyle = 'rgba(255,255,255,0.35)';
      c.fillRect(2, 26, 28, 4);
      c.fillStyle = '#ffffff';
      c.fillRect(2 + ((sweep * 4) % 21), 26, 7, 4);
    }
    if (waiting) { // a green dot in the top right corner
      c.fillStyle = '#0e1116';
      c.beginPath(); c.arc(25, 7, 7, 0, Math.PI * 2); c.fill();
      c.fillStyle = '#7ee787';
      c.beginPath(); c.arc(25, 7, 5, 0, Math.PI * 2); c.fill();
    }
    link.type = 'image/png';
    link.href = canvas.toDataURL('image/png');
    document.documentElement.dataset.favicon = [working ? 'working' : '', waiting ? 'waiting' : ''].filter(Boolean).join(' ');
  }

  function refresh() {
    const working = sessions.some((s) => s.activity === 'working');
    const waiting = sessions.filter(lit).length;
    // Keep the sweep moving while something works, slowly: 4 frames a second.
    if (working && !sweepTimer) sweepTimer = setInterval(() => { sweep++; refresh(); }, 250);
    if (!working && sweepTimer) { clearInterval(sweepTimer); sweepTimer = 0; sweep = 0; }
    drawIcon(working, waiting > 0);
    const base = sessionName ? `${sessionName} — wharf` : 'wharf';
    document.title = waiting > 0 ? `(${waiting}) ${base}` : base;
  }

  return {
    bell,
    // The settings' chime switch (settings.js keeps the choice in the same key).
    setMuted(on) {
      if (muted === on) return;
      muted = on;
      drawBell();
    },
    update(state) {
      // Arriving: on a session other than the one this window was last on. Coming back
      // to the same one after a dropped socket is not the person arriving anywhere.
      const arrived = state.attachedId != null && state.attachedId !== lastOn;
      if (state.attachedId != null) lastOn = state.attachedId;
      sessions = Array.isArray(state.sessions) ? state.sessions : [];
      attachedId = state.attachedId ?? null;
      sessionName = sessions.find((s) => s.id === attachedId)?.name ?? null;
      // Forget what we said about sessions that are dark again (or gone).
      for (const [id, said] of lastSeenSent) {
        if (sessions.find((s) => s.id === id)?.activity !== said) lastSeenSent.delete(id);
      }
      refresh();
      // Arriving at a lit session is looking at it. Being on it when it lights up is
      // not: the tab flashes for whoever is watching, and only a touch puts it out.
      if (arrived && state.online) touch();
    },
    chime,
  };
}

function roundRect(c, x, y, w, h, r) {
  c.beginPath();
  c.moveTo(x + r, y);
  c.arcTo(x + w, y, x + w, y + h, r);
  c.arcTo(x + w, y + h, x, y + h, r);
  c.arcTo(x, y + h, x, y, r);
  c.arcTo(x, y, x + w, y, r);
  c.closePath();
}
