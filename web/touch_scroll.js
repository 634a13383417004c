// Scrolling the terminal with one finger, with momentum: the content follows the finger,
// and after a flick it glides on and slows down (friction per millisecond), the way a
// phone scrolls everything else. xterm.js has no touch scrolling of its own, and the
// browser's is turned off over the terminal (style.css: touch-action: none) so that its
// pinch zoom and page panning do not fight ours (pinch_zoom.js owns two fingers).
//
// Where a swipe goes, in order:
// - a watching window shown at the driver's size and larger than the container
//   (terminal_view.js, "readable" watching): the container pans over that screen, both
//   ways; vertically the scrollback continues above it, as one long page;
// - the driving window, when the program asked for mouse reports that include the wheel
//   (xterm.js's mouseTrackingMode vt200, drag or any: a pager, a TUI with mouse support):
//   wheel reports, one per line of travel, as a wheel would send them;
// - otherwise the scrollback, in the normal screen.
// Invariant: nothing else is ever sent. In the alternate screen (a full-screen program)
// without mouse reporting there is no scrollback, and a swipe does nothing: turning it
// into arrow keys (what xterm.js does for a wheel there) would move a cursor, page a
// menu, or scroll an agent's input history without the person having asked for a key.
// A tap (no travel beyond SLOP_PX) is left alone: it still clicks, focuses, selects.
const SLOP_PX = 8; // travel before a touch counts as a scroll, not a tap
const SAMPLE_MS = 100; // the flick's speed is measured over the last this-many ms
const MIN_FLING = 0.15; // px/ms: slower than this at lift-off, no glide
const MAX_FLING = 6; // px/ms: a cap, so that one jittery sample cannot throw the screen
const STOP_SPEED = 0.02; // px/ms: the glide ends below this
const FRICTION = 0.996; // speed kept per millisecond of glide (about 1.6 s from a fast flick)
const WHEEL_MODES = new Set(['vt200', 'drag', 'any']); // x10 reports presses only

// view: the terminal view (term, watching()); container: the element the terminal fills.
export function installTouchScroll(view, container) {
  const term = view.term;
  let gesture = null; // { id, x, y, lastX, lastY, scrolling, samples: [{t, x, y}] }
  let fling = 0; // requestAnimationFrame id of the glide, 0 when none
  let carryY = 0; // px of vertical travel not yet worth a whole line
  let lastWheelAt = null; // the point wheel reports say the pointer is at

  const cellHeight = () => {
    const screen = term.element?.querySelector('.xterm-screen');
    if (!screen || !term.rows) return 16;
    // On screen, after any scaling (a watcher's screen shrunk to fit).
    const shown = screen.getBoundingClientRect().height || screen.offsetHeight;
    return Math.max(1, shown / term.rows);
  };
  const wheelWanted = () => !view.watching() && WHEEL_MODES.has(term.modes.mouseTrackingMode);
  const hasScrollback = () => term.buffer.active.type === 'normal' && term.buffer.active.baseY > 0;

  // Lines of scrollback for `dy` px (positive: towards the newest). Returns the px it
  // could not use (at either end), so that a pan can take them.
  function scrollLines(dy) {
    if (!hasScrollback()) return dy;
    carryY += dy;
    const cell = cellHeight();
    let lines = Math.trunc(carryY / cell);
    if (lines === 0) return 0;
    const buffer = term.buffer.active;
    const room = lines < 0 ? -buffer.viewportY : buffer.baseY - buffer.viewportY;
    const clamped = lines < 0 ? Math.max(lines, room) : Math.min(lines, room);
    carryY -= lines * cell;
    if (clamped !== 0) term.scrollLines(clamped);
    const unused = (lines - clamped) * cell;
    if (unused !== 0) carryY = 0; // at the end: nothing owed any more
    return unused;
  }

  function sendWheel(dy) {
    carryY += dy;
    const cell = cellHeight();
    const lines = Math.trunc(carryY / cell);
    carryY -= lines * cell;
    const target = term.element?.querySelector('.xterm-screen');
    if (!target || !lastWheelAt) return true;
    for (let i = 0; i < Math.abs(lines); i++) {
      // One line per event, as a mouse wheel's notch: xterm.js turns each into one report
      // at the finger's cell (the program's own mouse protocol and encoding).
      target.dispatchEvent(new WheelEvent('wheel', {
        deltaY: Math.sign(lines), deltaMode: WheelEvent.DOM_DELTA_LINE,
        clientX: lastWheelAt.x, clientY: lastWheelAt.y, bubbles: true, cancelable: true,
      }));
    }
    return true;
  }

  const panRoom = () => ({
    x: container.scrollWidth - container.clientWidth,
    y: container.scrollHeight - container.clientHeight,
  });

  // Moves the content by (dx, dy) px (positive: towards the right and the newest).
  // Returns whether anything moved, so a glide stops at the ends.
  function scrollBy(dx, dy) {
    let moved = false;
    const room = panRoom();
    if (dx && room.x > 0) {
      const before = container.scrollLeft;
      container.scrollLeft = Math.max(0, Math.min(room.x, before + dx));
      moved = container.scrollLeft !== before;
    }
    if (!dy) return moved;
    if (wheelWanted()) return sendWheel(dy) || moved;
    if (dy < 0) {
      // Up: the panned screen first, then the scrollback above it.
      const before = container.scrollTop;
      if (room.y > 0) container.scrollTop = Math.max(0, before + dy);
      const used = container.scrollTop - before;
      const rest = scrollLines(dy - used);
      return moved || used !== 0 || rest !== dy - used;
    }
    // Down: the scrollback back to the live screen first, then the panned screen.
    const rest = scrollLines(dy);
    let used = 0;
    if (rest > 0 && room.y > 0) {
      const before = container.scrollTop;
      container.scrollTop = Math.min(room.y, before + rest);
      used = container.scrollTop - before;
    }
    return moved || rest !== dy || used !== 0;
  }

  // data-gliding on the container says a glide is under way (tests wait for its end).
  function stopFling() {
    if (fling) cancelAnimationFrame(fling);
    fling = 0;
    delete container.dataset.gliding;
  }

  function glide(vx, vy) {
    let last = performance.now();
    container.dataset.gliding = '1';
    const step = (now) => {
      const dt = Math.min(64, now - last); // a frame late (a busy phone) is not a leap
      last = now;
      const moved = scrollBy(vx * dt, vy * dt);
      const keep = FRICTION ** dt;
      vx *= keep;
      vy *= keep;
      if (!moved || Math.hypot(vx, vy) < STOP_SPEED) {
        stopFling();
        return;
      }
      fling = requestAnimationFrame(step);
    };
    fling = requestAnimationFrame(step);
  }

  container.addEventListener('touchstart', (event) => {
    stopFling();
    if (event.touches.length !== 1) { gesture = null; return; } // two fingers: a pinch
    const t = event.touches[0];
    gesture = { id: t.identifier, x: t.clientX, y: t.clientY, lastX: t.clientX, lastY: t.clientY,
      scrolling: false, samples: [{ t: event.timeStamp, x: t.clientX, y: t.clientY }] };
    carryY = 0;
  }, { passive: true });

  container.addEventListener('touchmove', (event) => {
    if (!gesture || event.touches.length !== 1) return;
    const t = [...event.touches].find((x) => x.identifier === gesture.id);
    if (!t) return;
    if (!gesture.scrolling) {
      if (Math.hypot(t.clientX - gesture.x, t.clientY - gesture.y) < SLOP_PX) return;
      gesture.scrolling = true;
      term.clearSelection?.(); // a scroll is not the start of a selection
    }
    if (event.cancelable) event.preventDefault();
    lastWheelAt = { x: t.clientX, y: t.clientY };
    scrollBy(gesture.lastX - t.clientX, gesture.lastY - t.clientY);
    gesture.lastX = t.clientX;
    gesture.lastY = t.clientY;
    gesture.samples.push({ t: event.timeStamp, x: t.clientX, y: t.clientY });
    while (gesture.samples.length > 2 && event.timeStamp - gesture.samples[0].t > SAMPLE_MS) gesture.samples.shift();
  }, { passive: false });

  const end = (event) => {
    const g = gesture;
    if (!g || [...event.touches].some((x) => x.identifier === g.id)) return;
    gesture = null;
    if (!g.scrolling || event.type === 'touchcancel') return;
    const first = g.samples[0];
    const last = g.samples[g.samples.length - 1];
    const dt = last.t - first.t;
    // A finger that stopped before lifting has no speed left to glide with.
    if (dt <= 0 || event.timeStamp - last.t > SAMPLE_MS) return;
    let vx = (first.x - last.x) / dt;
    let vy = (first.y - last.y) / dt;
    const speed = Math.hypot(vx, vy);
    if (speed < MIN_FLING) return;
    if (speed > MAX_FLING) { vx *= MAX_FLING / speed; vy *= MAX_FLING / speed; }
    glide(vx, vy);
  };
  container.addEventListener('touchend', end);
  container.addEventListener('touchcancel', end);

  return {
    gliding: () => fling !== 0,
    stop: stopFling,
  };
}
