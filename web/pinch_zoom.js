// Two-finger pinch on the terminal changes its font size, 8 to 32 px: the same setting as
// the settings dialog's font size, kept per browser (settings.js). While the fingers
// move, the screen is only scaled (a preview, no reflow, nothing sent) and a badge says
// the size it will be; when they lift, the size is set once. The terminal then refits,
// and the session's PTY follows only if this window drives (connection.js sends the new
// size from terminal_view.js's onFitted; a watcher never sends one).
//
// The browser's own pinch zoom of the page is turned off over the terminal
// (style.css: touch-action: none on #terminal, and the pinch's touchmoves are cancelled
// here, for browsers that zoom anyway); elsewhere on the page it stays available.
export const FONT_MIN = 8;
export const FONT_MAX = 32;

// The size a pinch from `start` px at finger spread ratio `ratio` gives.
export function pinchedSize(start, ratio, min = FONT_MIN, max = FONT_MAX) {
  if (!Number.isFinite(ratio) || ratio <= 0) return start;
  return Math.max(min, Math.min(max, Math.round(start * ratio)));
}

// view: the terminal view; fontSize(): the size now; commit(size): set it (settings.js).
export function installPinchZoom(view, container, { fontSize, commit }) {
  const term = view.term;
  let pinch = null; // { spread, start, size, screen }
  const badge = document.createElement('div');
  badge.className = 'pinch-badge';
  badge.setAttribute('role', 'status');
  badge.setAttribute('aria-live', 'polite');
  badge.hidden = true;
  container.append(badge);

  const spread = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);

  function preview() {
    const scale = pinch.size / pinch.start;
    pinch.screen.style.transform = scale === 1 ? '' : `scale(${scale})`;
    badge.textContent = `Font size ${pinch.size} px`;
    badge.hidden = false;
  }

  function finish(keep) {
    const p = pinch;
    pinch = null;
    if (!p) return;
    p.screen.style.transform = '';
    p.screen.style.transformOrigin = '';
    badge.hidden = true;
    if (keep && p.size !== p.start) commit(p.size);
  }

  container.addEventListener('touchstart', (event) => {
    if (event.touches.length !== 2) { if (event.touches.length > 2) finish(false); return; }
    const screen = term.element?.querySelector('.xterm-screen');
    const distance = spread(event.touches);
    if (!screen || distance < 1) return;
    // The preview grows from the left edge of the cursor's row: the text reflows from the
    // left when the size is set, and the cursor's line (a prompt, an agent's input box) is
    // where the eye is; zooming about the fingers would show a place the result is not.
    const row = term.rows ? (term.buffer.active.cursorY + 0.5) * (screen.offsetHeight / term.rows) : 0;
    screen.style.transformOrigin = `0px ${row}px`;
    const start = fontSize();
    pinch = { spread: distance, start, size: start, screen };
    if (event.cancelable) event.preventDefault();
  }, { passive: false });

  container.addEventListener('touchmove', (event) => {
    if (!pinch || event.touches.length !== 2) return;
    if (event.cancelable) event.preventDefault(); // no page zoom, no scroll
    const size = pinchedSize(pinch.start, spread(event.touches) / pinch.spread);
    if (size === pinch.size) return;
    pinch.size = size;
    preview();
  }, { passive: false });

  const end = (event) => { if (pinch && event.touches.length < 2) finish(event.type === 'touchend'); };
  container.addEventListener('touchend', end);
  container.addEventListener('touchcancel', end);
  // Safari's own gesture events zoom the page unless cancelled.
  for (const type of ['gesturestart', 'gesturechange']) {
    container.addEventListener(type, (event) => event.preventDefault(), { passive: false });
  }

  return { pinching: () => pinch !== null };
}
