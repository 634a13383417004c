// Dragging a tab along the bar to reorder the sessions, with a mouse, a pen or a finger.
//
// A press becomes a drag in one of two ways; from then on every pointer is treated alike:
// - mouse and pen: the press moves a few pixels along the bar;
// - finger: the press holds still for HOLD_MS. Anything else stays the browser's: a swipe
//   scrolls the bar (the tabs' touch-action is pan-x) and a tap is a click.
// The lifted tab follows the pointer and the others make room, so the gap is where it
// will land; letting go sends that order. Near either end of a list that scrolls, the
// list scrolls under the tab, so a place out of view can be reached.
//
// Invariants:
// - one press at a time; every way out of it (drop, pointercancel, Escape) goes through
//   finish(), which removes every listener, the lifted look and the transform;
// - while a press is in flight (a tab lifted, a finger still deciding, or a plain click)
//   the bar's children are only moved here, never rebuilt: the tab bar asks holdsBar()
//   and keeps lists for later;
// - a cancel (pointercancel, Escape, or letting go far above or below the bar) puts back
//   the order of the pickup and sends nothing. While the pointer is that far away the bar
//   already shows that order, so what a release will do is always on screen.
const MOUSE_THRESHOLD_PX = 4; // a mouse or pen press that moves this far along the bar drags
const HOLD_MS = 350; // a finger held this long on a tab picks it up...
const HOLD_SLOP_PX = 8; // ...if it strays no further than this meanwhile (else it scrolls)
const AWAY_PX = 96; // a pointer this far above or below the bar cancels the drag on release
const EDGE_PX = 32; // a pointer this close to an end of the list scrolls it...
const EDGE_SPEED_PX = 12; // ...by up to this much per frame

// `list` holds the tabs and nothing else. `canStart()` says whether a press may become a
// drag; `onEnd({ lifted, order })` follows every press that held the bar, with the new
// order when a drop changed it, else null.
export function createTabDrag(list, { canStart, onEnd }) {
  let press = null; // the press in flight, see start()

  // A lifted finger moves the tab, not the bar: its touchmoves are cancelled, so this
  // listener cannot be passive, and it sits on the list so that the browser waits for
  // the page before scrolling there and nowhere else.
  list.addEventListener('touchmove', (event) => {
    if (press?.lifted) event.preventDefault();
  }, { passive: false });
  // A long press is the pickup, not a request for the browser's menu (Android opens it).
  list.addEventListener('contextmenu', (event) => {
    if (press?.touch) event.preventDefault();
  });

  function start(event, tab) {
    if (press || event.button !== 0 || !canStart()) return;
    if (event.target.closest('.tab-close, input')) return;
    const touch = event.pointerType === 'touch';
    press = {
      tab, touch, pointerId: event.pointerId, target: event.target,
      startX: event.clientX, startY: event.clientY, x: event.clientX, y: event.clientY,
      lifted: false, before: null, originX: 0, holdTimer: 0, edgeFrame: 0,
    };
    if (touch) press.holdTimer = setTimeout(lift, HOLD_MS);
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onRelease);
    window.addEventListener('pointercancel', onRelease);
    window.addEventListener('keydown', onKey, true);
  }

  function onMove(event) {
    if (event.pointerId !== press.pointerId) return;
    press.x = event.clientX;
    press.y = event.clientY;
    if (!press.lifted) {
      const dx = press.x - press.startX;
      if (press.touch) {
        // Moving before the hold is over is a swipe: the browser scrolls, the tab stays.
        if (Math.hypot(dx, press.y - press.startY) > HOLD_SLOP_PX) finish({ cancelled: true });
        return;
      }
      if (Math.abs(dx) < MOUSE_THRESHOLD_PX) return;
      lift();
    }
    follow();
  }

  function onRelease(event) {
    if (event.pointerId !== press.pointerId) return;
    finish({ cancelled: event.type === 'pointercancel' || isAway(event.clientY) });
  }

  function onKey(event) {
    if (event.key !== 'Escape' || !press.lifted) return;
    event.preventDefault();
    event.stopPropagation();
    finish({ cancelled: true });
  }

  function lift() {
    const { tab } = press;
    press.lifted = true;
    press.before = order();
    press.originX = press.startX;
    tab.classList.add('dragging');
    list.classList.add('dragging');
    try { tab.setPointerCapture(press.pointerId); } catch { /* the pointer is gone already */ }
    if (press.touch) {
      swallowTouchRelease(press.target);
      // The small tick a phone gives on a pickup (only allowed once the page was used).
      if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(10);
    }
  }

  // Puts the lifted tab under the pointer, in the slot among the others' midpoints.
  function follow() {
    const { tab, x } = press;
    const away = isAway(press.y);
    tab.classList.toggle('away', away);
    if (away) {
      if (order().join() !== press.before.join()) keepOnScreen(() => arrange(press.before));
      tab.style.transform = ''; // back in its old place: what letting go here leaves
      return;
    }
    const others = [...list.children].filter((t) => t !== tab);
    let index = 0;
    for (const other of others) {
      const box = other.getBoundingClientRect();
      if (x > box.left + box.width / 2) index++;
    }
    if (index !== [...list.children].indexOf(tab)) keepOnScreen(() => list.insertBefore(tab, others[index] ?? null));
    // Kept inside the list: a tab dragged past either end stops at it.
    const min = -tab.offsetLeft + list.scrollLeft;
    const max = list.clientWidth + list.scrollLeft - tab.offsetLeft - tab.offsetWidth;
    const dx = Math.min(Math.max(x - press.originX, min), Math.max(min, max));
    tab.style.transform = `translateX(${dx}px)`;
    if (!press.edgeFrame && edgeDepth() !== 0) press.edgeFrame = requestAnimationFrame(scrollAtEdge);
  }

  // How far into the scrolling zone at either end the pointer is (negative: the left).
  function edgeDepth() {
    const box = list.getBoundingClientRect();
    if (press.x < box.left + EDGE_PX) return press.x - (box.left + EDGE_PX);
    if (press.x > box.right - EDGE_PX) return press.x - (box.right - EDGE_PX);
    return 0;
  }

  // One frame of scrolling, faster deeper into the zone; stops at the list's end.
  function scrollAtEdge() {
    press.edgeFrame = 0;
    const depth = edgeDepth();
    if (depth === 0 || isAway(press.y)) return;
    const scrolledBefore = list.scrollLeft;
    list.scrollLeft += Math.sign(depth) * Math.ceil(Math.min(1, Math.abs(depth) / EDGE_PX) * EDGE_SPEED_PX);
    const scrolled = list.scrollLeft - scrolledBefore;
    if (scrolled === 0) return;
    press.originX -= scrolled; // the tab's slot went with the list; the tab stays put
    follow();
  }

  // Moves the lifted tab's slot without moving the tab on screen.
  function keepOnScreen(change) {
    const left = press.tab.offsetLeft;
    change();
    press.originX += press.tab.offsetLeft - left;
  }

  function isAway(y) {
    const box = list.getBoundingClientRect();
    return y < box.top - AWAY_PX || y > box.bottom + AWAY_PX;
  }

  // The finger's release after a pickup is not a tap: cancelling its touchend keeps the
  // browser from making a click of it. Pointer events come first, so this outlives the
  // press. On the touch's own target: touch events go there even once the drop has
  // rebuilt the bar, when the target's path no longer reaches the list or the window.
  function swallowTouchRelease(target) {
    const once = (event) => {
      if (event.type === 'touchend') event.preventDefault();
      target.removeEventListener('touchend', once);
      target.removeEventListener('touchcancel', once);
    };
    target.addEventListener('touchend', once, { passive: false });
    target.addEventListener('touchcancel', once);
  }

  function finish({ cancelled }) {
    const { tab, lifted, before } = press;
    clearTimeout(press.holdTimer);
    cancelAnimationFrame(press.edgeFrame);
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onRelease);
    window.removeEventListener('pointercancel', onRelease);
    window.removeEventListener('keydown', onKey, true);
    press = null;
    if (!lifted) {
      onEnd({ lifted: false, order: null }); // the lists held back meanwhile
      return;
    }
    if (cancelled) arrange(before);
    tab.classList.remove('dragging', 'away');
    list.classList.remove('dragging');
    tab.style.transform = '';
    const after = order();
    onEnd({ lifted: true, order: !cancelled && after.join() !== before.join() ? after : null });
  }

  function order() {
    return [...list.children].map((t) => Number(t.dataset.session));
  }

  function arrange(ids) {
    for (const id of ids) list.append(list.querySelector(`.tab[data-session="${id}"]`));
  }

  return {
    start,
    // True while the bar must hold still: a tab is lifted, or a finger may yet lift one.
    // (A plain press too: a bar rebuilt between a button's down and up would lose the
    // click, or the second click of a double-click, to the tab it replaced.)
    holdsBar: () => press !== null,
  };
}
