// Whether a person is looking at this window: the page is visible, the window has the
// focus, and someone touched it (a key, a click, a scroll, a tap) within IDLE_MS. The
// daemon sends no notification for the session such a window shows (docs/protocol.md,
// `looking`), so someone who walked away from a focused desktop tab still hears from
// their phone. Told on every change and again on every (re)connect.

const IDLE_MS = 3 * 60 * 1000;

export function installLooking({ send }) {
  let lastTouch = performance.now();
  let said = null;
  let idleTimer = 0;

  function now() {
    return document.visibilityState === 'visible' && document.hasFocus()
      && performance.now() - lastTouch < IDLE_MS;
  }
  function tell(force = false) {
    const looking = now();
    document.documentElement.dataset.looking = String(looking);
    if (!force && looking === said) return;
    if (send(looking)) said = looking;
    else said = null; // not connected: the next connect tells
  }
  function armIdle() {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => tell(), IDLE_MS + 50);
  }
  for (const type of ['keydown', 'pointerdown', 'wheel', 'touchstart']) {
    document.addEventListener(type, () => {
      lastTouch = performance.now();
      armIdle();
      if (said !== true) tell();
    }, { capture: true, passive: true });
  }
  document.addEventListener('visibilitychange', () => tell());
  window.addEventListener('focus', () => tell());
  window.addEventListener('blur', () => tell());
  armIdle();
  return {
    connected() { tell(true); },
  };
}
