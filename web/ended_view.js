// What an ended session leaves: a session whose program failed (a status other than 0,
// a signal, a lost host) keeps its tab, dimmed, until someone closes it; the daemon
// keeps the record and its last screen (`ended` in the `sessions` message, see
// docs/protocol.md). This module is the banner over the terminal while this window shows
// one: what ended, how, and after how long, with a Close button. A failed start (ended
// within FAILED_START_MS of starting) says so prominently: "claude exited with status 1
// after 2 s: see its last screen". The screen itself is the terminal's: the one the
// window was watching when the program ended, or the daemon's text of it
// (connection.js writes it, read-only: nothing typed goes anywhere).
export const FAILED_START_MS = 10000;

export function createEndedView(el, { onClose, focusTerminal }) {
  el.hidden = true;
  el.setAttribute('role', 'region');
  el.setAttribute('aria-label', 'Ended session');
  const text = document.createElement('p');
  text.className = 'ended-text';
  text.setAttribute('role', 'status');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'ended-close';
  close.textContent = 'Close';
  let shown = null;
  close.addEventListener('click', () => { if (shown) onClose(shown.id); focusTerminal(); });
  el.append(text, close);
  el.addEventListener('mousedown', (event) => { if (event.target !== close) event.preventDefault(); });
  // The terminal starts below the banner (style.css: --ended-h).
  new ResizeObserver(() => {
    document.documentElement.style.setProperty('--ended-h', el.hidden ? '0px' : `${el.offsetHeight}px`);
  }).observe(el);

  return {
    // `ended`: { id, name, program, created, ended, code, signal, crashed }.
    show(ended) {
      shown = ended;
      const failedStart = isFailedStart(ended);
      el.classList.toggle('failed-start', failedStart);
      text.textContent = describeEnded(ended);
      close.setAttribute('aria-label', `Close ${ended.name}`);
      el.hidden = false;
      document.documentElement.style.setProperty('--ended-h', `${el.offsetHeight}px`);
    },
    hide() {
      shown = null;
      el.hidden = true;
      document.documentElement.style.setProperty('--ended-h', '0px');
    },
    shownId: () => shown?.id ?? null,
  };
}

export function isFailedStart({ created, ended }) {
  return Number.isFinite(created) && Number.isFinite(ended) && ended - created < FAILED_START_MS;
}

// "claude exited with status 1 after 2 s: see its last screen"
export function describeEnded(e) {
  const who = e.program || e.name;
  const how = e.crashed ? 'stopped unexpectedly (its host went away)'
    : e.signal ? `was killed by ${e.signal}`
      : `exited with status ${e.code ?? '?'}`;
  const after = Number.isFinite(e.created) && Number.isFinite(e.ended) ? ` after ${duration(e.ended - e.created)}` : '';
  const tail = isFailedStart(e) ? ': see its last screen' : '. Its last screen is below.';
  return `${who} ${how}${after}${tail}`;
}

export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}
