// The curtain: when this window can do nothing at all, one overlay covers the page and
// says why, instead of each control going dead on its own (a dead page that still looks
// alive is worse than one that says it is dead). Three reasons:
// - the daemon is gone: GET /api/status gets no answer;
// - this URL's key is spent: the daemon answers 401 (it was restarted with a new key);
//   the current link comes from `wharf open` on the machine;
// - the daemon is stopping: it said `stopping`; that is a wait, shown as one, and the
//   closing socket turns it into "stopped". A daemon that says it keeps its sessions
//   (`wharf restart`, --keep-sessions) is restarting: the page waits and reconnects.
// A dropped socket makes the page inert at once (nothing can be clicked or typed into a
// session that is not there), but the curtain only falls after a 3 s grace, so a wifi
// blip or a quick restart heals without one. connection.js keeps reconnecting with
// backoff throughout; the first greeting lifts the curtain.
import { keyHeaders } from './credentials.js';

const GRACE_MS = 3000;
const PROBE_TIMEOUT_MS = 4000;

export function createCurtain(el, { key, inert = [] }) {
  el.hidden = true;
  el.setAttribute('role', 'alertdialog');
  el.setAttribute('aria-modal', 'true');
  const card = document.createElement('div');
  card.className = 'curtain-card';
  const title = document.createElement('h2');
  title.id = 'curtain-title';
  const text = document.createElement('p');
  text.id = 'curtain-text';
  const detail = document.createElement('p');
  detail.className = 'curtain-detail';
  card.append(title, text, detail);
  el.append(card);
  el.setAttribute('aria-labelledby', title.id);
  el.setAttribute('aria-describedby', text.id);

  let state = 'up'; // up | down | restarting | stopping | stopped
  let graceTimer = 0;
  let probing = false;

  function setInert(on) {
    document.body.classList.toggle('inert', on);
    for (const target of inert) if (target) target.inert = on;
  }

  function show(reason, heading, body, extra = '') {
    el.dataset.reason = reason;
    title.textContent = heading;
    withCode(text, body);
    withCode(detail, extra);
    detail.hidden = !extra;
    el.hidden = false;
  }

  // What is true after a stop: a new `wharf serve` mints a new key, so this address
  // opens nothing any more; the page keeps asking and, once a daemon answers, says
  // that its link has expired (the probe's 401) instead of coming back.
  function showStopped() {
    show('stopped', 'wharf has stopped', 'Its sessions have ended.',
      'Start it again on the machine (`wharf serve`) and open the address it prints (`wharf open` shows it again). This page keeps checking, but a new start comes with a new key: it cannot reopen by itself.');
  }

  // A paired browser (no key in its address) whose device cookie no longer opens wharf.
  function showUnpaired() {
    show('device', 'This device is no longer paired',
      'It was revoked on the machine (wharf devices revoke), or its pairing was lost.',
      'Pair it again: run `wharf pair` on the machine and open the link it prints, or open the full address `wharf open` prints.');
  }

  // Asks the daemon whether it is there and whether our key still opens it.
  async function probe() {
    if (probing || state === 'up') return;
    probing = true;
    let answer = 'gone';
    try {
      const res = await fetch('/api/status', {
        headers: keyHeaders(key), cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      answer = res.status === 401 ? 'spent' : res.ok ? 'there' : 'gone';
    } catch { /* no answer */ }
    probing = false;
    if (state === 'up') return;
    if (answer === 'spent' && !key) {
      showUnpaired();
    } else if (answer === 'spent') {
      show('key', 'This link has expired',
        'wharf was restarted, and the key in this address belongs to the run before.',
        'Run `wharf open` on the machine for the current link.');
    } else if (state === 'stopping' || state === 'stopped') {
      state = 'stopped';
      showStopped();
    } else if (answer === 'gone') {
      show('gone', 'wharf is not answering', 'The daemon on this address is gone (stopped, or the machine is asleep). This page keeps trying and comes back by itself.');
    } else {
      show('reconnecting', 'Reconnecting…', 'wharf answers, but this window has not got back in yet. It keeps trying.');
    }
  }

  return {
    // The socket dropped (or never opened).
    down() {
      setInert(true);
      if (state === 'stopping') {
        state = 'stopped';
        showStopped();
        return;
      }
      if (state === 'stopped') { probe(); return; }
      // A restart keeps saying so through the grace: the daemon is expected back.
      if (state === 'up' || state === 'restarting') {
        state = 'down';
        clearTimeout(graceTimer);
        graceTimer = setTimeout(() => { graceTimer = 0; probe(); }, GRACE_MS);
        return;
      }
      if (!graceTimer) probe(); // each failed retry after the grace asks again
    },
    // Greeted by the daemon: whatever the curtain said is over.
    up() {
      state = 'up';
      clearTimeout(graceTimer);
      graceTimer = 0;
      el.hidden = true;
      delete el.dataset.reason;
      setInert(false);
    },
    // The daemon said it is stopping: a wait, shown at once. A daemon that keeps its
    // sessions (a restart, an upgrade) is coming back: this window reconnects to them.
    stopping(sessionsKept = false) {
      clearTimeout(graceTimer);
      graceTimer = 0;
      setInert(true);
      if (sessionsKept) {
        state = 'restarting';
        show('restarting', 'wharf is restarting', 'Its sessions keep running. This page reconnects to them by itself.');
        return;
      }
      state = 'stopping';
      show('stopping', 'wharf is stopping', 'Every session is being ended.');
    },
    // The key in this address was replaced on the machine (`wharf key rotate`).
    keyRotated() {
      state = 'stopped';
      clearTimeout(graceTimer);
      graceTimer = 0;
      setInert(true);
      show('key', 'This link has expired',
        'The key in this address was replaced on the machine (wharf key rotate).',
        'Run `wharf open` on the machine for the current link.');
    },
    // This device was revoked while the page was open (`wharf devices revoke`).
    deviceRevoked() {
      state = 'stopped';
      clearTimeout(graceTimer);
      graceTimer = 0;
      setInert(true);
      showUnpaired();
    },
    // The page cannot go on for a reason of its own (no key in the URL).
    fatal(heading, body) {
      state = 'stopped';
      setInert(true);
      show('fatal', heading, body);
    },
    isShown: () => !el.hidden,
  };
}

// Text with `code spans` (the commands to run) shown as code, never as raw backticks.
function withCode(el, value) {
  el.replaceChildren(...String(value).split('`').map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const code = document.createElement('code');
    code.textContent = part;
    return code;
  }));
}
