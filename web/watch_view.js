// Watching on a phone: a bar at the top of the composer while this window watches a
// session another window drives. A watcher shows the session at the driver's size
// (terminal_view.js), because the same output laid out at another width would wrap
// differently; a desktop's 200 columns scaled down to a phone's width are a blur. So on
// a touch device the watcher keeps the font size the person chose and pans over the
// driver's screen with a finger (touch_scroll.js), starting where the cursor is; the bar
// says whose size it is, switches to the whole screen scaled to fit ("Fit screen"), and
// offers Take over, which makes this window the driver: the session takes the phone's
// size and everything reflows to it (the desktop then watches).
//
// The choice (fit or pan) is kept per browser (localStorage). Pinching changes the font
// size either way (pinch_zoom.js); in pan mode that is the size one reads at.
const FIT_KEY = 'wharf.watchFit';

export function storedWatchFit(fallback) {
  try {
    const v = localStorage.getItem(FIT_KEY);
    return v === 'fit' || v === 'pan' ? v : fallback;
  } catch { return fallback; }
}

// view: the terminal view; onTake(): take over the attached session.
export function createWatchBar({ view, onTake }) {
  const el = document.createElement('div');
  el.className = 'watch-bar';
  el.setAttribute('role', 'group');
  el.setAttribute('aria-label', 'Watching');
  el.hidden = true;
  // Two short lines, so that both buttons keep their words on a 360 px screen.
  const text = document.createElement('span');
  text.className = 'watch-text';
  const said = document.createElement('strong');
  said.textContent = 'Watching';
  const size = document.createElement('span');
  size.className = 'watch-size';
  text.append(said, size);
  const fit = document.createElement('button');
  fit.type = 'button';
  fit.className = 'watch-fit';
  fit.textContent = 'Fit screen';
  const take = document.createElement('button');
  take.type = 'button';
  take.className = 'watch-take primary';
  take.textContent = 'Take over';
  take.setAttribute('aria-label', 'Take over this session');
  el.append(text, fit, take);
  // The bar's presses must not take the focus (and the soft keyboard) anywhere.
  for (const b of [fit, take]) b.addEventListener('pointerdown', (event) => event.preventDefault());

  let mode = storedWatchFit('pan');
  view.setWatchFit(mode);

  function show() {
    const { cols, rows } = view.term;
    size.textContent = `${cols}×${rows}`;
    text.title = `Another window drives this session at ${cols} columns and ${rows} rows; you see it at that size.`;
    fit.setAttribute('aria-pressed', String(mode === 'fit'));
    fit.title = mode === 'fit' ? 'Show it at your font size and pan with a finger' : 'Scale the whole screen to fit';
  }
  fit.addEventListener('click', () => {
    mode = mode === 'fit' ? 'pan' : 'fit';
    try { localStorage.setItem(FIT_KEY, mode); } catch { /* storage refused: this page only */ }
    view.setWatchFit(mode);
    show();
  });
  take.addEventListener('click', () => onTake());
  view.term.onResize(() => { if (!el.hidden) show(); });

  return {
    element: el,
    // The page's session state: shown while attached, online and not driving.
    update(state) {
      const watching = state.online === true && state.attachedId != null && state.driving === false;
      if (watching === !el.hidden) { if (watching) show(); return; }
      el.hidden = !watching;
      if (watching) show();
    },
  };
}
