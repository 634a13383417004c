// The terminal view: one xterm.js instance in its container. It only draws and collects
// keystrokes; where bytes come from and go to is connection.js's business.
//
// Two ways to size it. While this window drives its session the terminal fits the
// container and the session follows (connection.js sends the size). While it watches,
// the session keeps the driver's size and the terminal shows exactly that size (clipped
// or with a margin), because the same bytes laid out at another width would wrap
// differently from the driver's screen; a screen larger than the container is scaled
// down to fit, so a small window still sees all of it (prompt included).
import { Terminal } from './vendor/xterm/xterm.mjs';
import { FitAddon } from './vendor/addon-fit/addon-fit.mjs';
import { WebglAddon } from './vendor/addon-webgl/addon-webgl.mjs';
import { Unicode11Addon } from './vendor/addon-unicode11/addon-unicode11.mjs';
import { WebLinksAddon } from './vendor/addon-web-links/addon-web-links.mjs';
import { silenceQueries } from './terminal_queries.js';
import { linkHandler, openLink, webLinkOptions } from './links.js';
import { createSearch } from './search.js';

// The terminal's palettes, one per page theme (settings.js picks; style.css has the rest
// of the page's colours under the same theme names).
export const TERMINAL_THEMES = {
  dark: {
    background: '#0e1116',
    foreground: '#d6dae0',
    cursor: '#e6e9ee',
    cursorAccent: '#0e1116',
    selectionBackground: '#3a4657',
    black: '#1b1f27', brightBlack: '#5c6370',
    red: '#e06c75', brightRed: '#ff7b86',
    green: '#98c379', brightGreen: '#b5e08f',
    yellow: '#e5c07b', brightYellow: '#f7d794',
    blue: '#61afef', brightBlue: '#82c4ff',
    magenta: '#c678dd', brightMagenta: '#dc9cf0',
    cyan: '#56b6c2', brightCyan: '#79d3de',
    white: '#d6dae0', brightWhite: '#ffffff',
  },
  // Colours dark enough to read on white: programs assume "white" is faint and "black"
  // is strong, so they are swapped towards the ends that stay legible.
  light: {
    background: '#ffffff',
    foreground: '#1f2328',
    cursor: '#1f2328',
    cursorAccent: '#ffffff',
    selectionBackground: '#b6d7ff',
    black: '#24292f', brightBlack: '#57606a',
    red: '#c4232f', brightRed: '#a40e26',
    green: '#1a7f37', brightGreen: '#116329',
    yellow: '#8a5a00', brightYellow: '#6e4800',
    blue: '#0550ae', brightBlue: '#0969da',
    magenta: '#8250df', brightMagenta: '#6639ba',
    cyan: '#0f6f7a', brightCyan: '#0b5560',
    white: '#6e7781', brightWhite: '#8c959f',
  },
};

// Key behaviours a person may turn off in the settings (settings.js): see keys() below.
const keyPrefs = { searchKey: true, shiftEnterNewline: true };

export function createTerminalView(container) {
  const term = new Terminal({
    scrollback: 2000,
    screenReaderMode: true,
    // The unicode API (needed for Unicode 11 widths) is still "proposed" in xterm.js.
    allowProposedApi: true,
    cursorBlink: false, // a steady cursor is easier to find and to read around
    fontFamily: '"DejaVu Sans Mono", "Liberation Mono", ui-monospace, Menlo, Consolas, monospace',
    fontSize: 14,
    theme: TERMINAL_THEMES.dark,
    linkHandler, // OSC 8 links: see links.js
    // Rewrap the cursor's line on a resize too, as the daemon's engine does (docs/engine.md),
    // so that a reload after a resize shows the screen the window already showed.
    reflowCursorLine: true,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  term.loadAddon(new WebLinksAddon(openLink, webLinkOptions));
  silenceQueries(term);
  term.open(container);
  let webgl = useWebglIfPossible(term); // the addon while WebGL draws, else null
  const search = createSearch(term, container, { focusTerminal: () => term.focus() });
  term.attachCustomKeyEventHandler((event) => keys(term, search, event));
  // Text inserted with no key event xterm.js reads (a phone's soft keyboard often sends
  // only `beforeinput` insertText) is dropped by xterm.js in screen reader mode, which this
  // page runs in: it goes in here as typed input (onData, like a keystroke). Text that
  // follows a keypress is the key xterm.js already sent, so it is left alone: nothing goes
  // twice (xterm.js's own rule for its insertText path).
  let keyPressed = false;
  term.textarea?.addEventListener('keydown', () => { keyPressed = false; }, true);
  term.textarea?.addEventListener('keypress', () => { keyPressed = true; }, true);
  term.textarea?.addEventListener('keyup', () => { keyPressed = false; }, true);
  term.textarea?.addEventListener('beforeinput', (event) => {
    if (event.inputType !== 'insertText' || !event.data || !term.options.screenReaderMode) return;
    if (keyPressed) { keyPressed = false; return; }
    event.preventDefault();
    term.input(event.data, true);
  });
  let replaying = false; // while the snapshot of a session is being written (clipboard.js)

  let fixed = null; // { cols, rows } while showing another window's size, else null (fit)
  const fitted = new Set(); // listeners told after the container changed the fitted size
  function refit() {
    if (fixed) {
      scaleToContainer();
      requestAnimationFrame(scaleToContainer); // a new font: the screen is resized on the next frame
      return;
    }
    const before = `${term.cols}x${term.rows}`;
    fit.fit();
    if (`${term.cols}x${term.rows}` !== before) for (const listener of fitted) listener(term);
  }
  refit();

  // Watching a screen larger than the container: 'fit' scales it down to show all of it;
  // 'pan' keeps the chosen font size, and the container scrolls over the screen
  // (touch_scroll.js pans it with a finger; watch_view.js offers the choice).
  let watchFit = 'fit';
  function scaleToContainer() {
    const screen = term.element?.querySelector('.xterm-screen');
    if (!screen) return;
    const style = getComputedStyle(container);
    const width = container.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = container.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const panning = Boolean(fixed) && watchFit === 'pan';
    const scale = fixed && !panning && screen.offsetWidth > 0 && screen.offsetHeight > 0
      ? Math.min(1, width / screen.offsetWidth, height / screen.offsetHeight) : 1;
    term.element.style.transform = scale < 1 ? `scale(${scale})` : '';
    // Panning: the terminal's box is as wide as its screen, so the container can scroll.
    const wasPanning = container.classList.contains('pan');
    container.classList.toggle('pan', panning);
    term.element.style.width = panning ? `${screen.offsetWidth}px` : '';
    if (!panning) { container.scrollLeft = 0; container.scrollTop = 0; }
    else if (!wasPanning) { revealPending = true; revealCursor(true); }
  }

  // Panning starts where the cursor is (an agent's input box, a shell's prompt), once the
  // screen has been written (the snapshot follows the size), and follows the cursor down
  // as output comes while it is in view; panned away from it, the view stays put.
  let revealPending = false;
  let following = true;
  function cursorBand() {
    const screen = term.element?.querySelector('.xterm-screen');
    if (!screen || !term.rows) return null;
    const cell = screen.offsetHeight / term.rows;
    const top = term.buffer.active.cursorY * cell;
    return { cell, top, visible: top >= container.scrollTop && top + cell <= container.scrollTop + container.clientHeight };
  }
  function revealCursor(left) {
    const band = cursorBand();
    if (!band) return;
    if (!band.visible) container.scrollTop = Math.max(0, band.top - container.clientHeight + 3 * band.cell);
    if (left) container.scrollLeft = 0;
  }
  term.onWriteParsed(() => {
    if (!container.classList.contains('pan')) return;
    if (revealPending || following) revealCursor(revealPending);
    revealPending = false;
    following = cursorBand()?.visible ?? true;
  });
  container.addEventListener('scroll', () => {
    if (container.classList.contains('pan')) following = cursorBand()?.visible ?? true;
  }, { passive: true });

  // The container follows the window (and, later, layout changes such as a side pane),
  // so observing it covers every reason to refit. One fit per frame is enough.
  let pending = false;
  new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; refit(); });
  }).observe(container);
  // Cell size depends on the font; measure again once web/system fonts have settled.
  document.fonts?.ready.then(refit);

  // Keystrokes must land in the terminal: take focus at start, and take it back when
  // the window returns or a click leaves nothing focused. A control that holds focus
  // (later: rename field, composer) keeps it; a text selection is not disturbed.
  // On a touch device touch_focus.js gates this (the soft keyboard): see setFocusGate.
  let focusGate = () => true;
  const focus = () => { if (focusGate()) term.focus(); };
  const reclaim = () => {
    const idle = !document.activeElement || document.activeElement === document.body;
    if (idle && window.getSelection()?.isCollapsed !== false) focus();
  };
  window.addEventListener('focus', reclaim);
  document.addEventListener('pointerup', reclaim);
  focus();

  return {
    term,
    focus,
    // The size fitting the container would give (cols and rows), whatever the mode.
    proposedSize() {
      const dims = fit.proposeDimensions();
      return dims && dims.cols > 0 && dims.rows > 0 ? dims : { cols: term.cols, rows: term.rows };
    },
    // Whether the terminal shows another window's size (watching), not its own.
    watching: () => fixed !== null,
    // 'fit' or 'pan': how a watched screen larger than the container is shown.
    setWatchFit(mode) {
      watchFit = mode === 'pan' ? 'pan' : 'fit';
      scaleToContainer();
    },
    watchFit: () => watchFit,
    // Driving: the terminal takes the container's size from now on.
    fitToContainer() {
      fixed = null;
      container.classList.remove('fixed-size');
      scaleToContainer();
      fit.fit();
    },
    // Watching: the terminal keeps exactly this size, whatever the container does.
    showSize(cols, rows) {
      revealPending = true; // a new screen (an attach's snapshot follows) or a new size
      fixed = { cols, rows };
      container.classList.add('fixed-size');
      if (term.cols !== cols || term.rows !== rows) term.resize(cols, rows);
      // The renderer sizes its screen element on the next frame.
      requestAnimationFrame(scaleToContainer);
    },
    // `listener(term)` runs when the container changed the fitted size (driving only).
    onFitted(listener) { fitted.add(listener); },
    // connection.js marks the bytes of a snapshot (a replay of the past, not live output).
    replaying(on) { replaying = on; },
    isReplaying: () => replaying,
    search,
    // What settings.js may change live. A change of font or size changes the cell size:
    // the terminal refits, and the session follows only while this window drives
    // (connection.js sends the size from onFitted).
    configure({ fontSize, fontFamily, theme, cursorStyle, cursorBlink } = {}) {
      const before = `${term.options.fontSize}/${term.options.fontFamily}`;
      if (fontSize != null) term.options.fontSize = fontSize;
      if (fontFamily != null) term.options.fontFamily = fontFamily;
      if (theme != null) term.options.theme = TERMINAL_THEMES[theme] ?? TERMINAL_THEMES.dark;
      if (cursorStyle != null) term.options.cursorStyle = cursorStyle;
      if (cursorBlink != null) term.options.cursorBlink = cursorBlink;
      if (`${term.options.fontSize}/${term.options.fontFamily}` !== before) refit();
    },
    // 'webgl' or 'dom'. WebGL may be refused by the GPU: renderer() says what draws.
    setRenderer(kind) {
      if (kind === 'dom' && webgl) { webgl.dispose(); webgl = null; }
      if (kind === 'webgl' && !webgl) webgl = useWebglIfPossible(term);
      refit();
    },
    renderer: () => (webgl && !webgl.lost ? 'webgl' : 'dom'),
    setKeyPrefs(prefs) { Object.assign(keyPrefs, prefs); },
    // `gate()` says whether focus() may focus the terminal now (touch_focus.js).
    setFocusGate(gate) { focusGate = gate; },
  };
}

// Keys the terminal handles itself, on the way in (return false: xterm.js ignores it).
// - Shift+Enter sends ESC CR, what the agents read as "a newline, not send" (the same
//   bytes Alt+Enter sends, which keeps working as xterm.js has it).
// - Ctrl+C is always an interrupt, selection or not (xterm.js's own behaviour).
//   Copying is Cmd+C on a Mac, Ctrl+Shift+C elsewhere, or the context menu.
// - Ctrl+F (Cmd+F) opens the search box instead of the browser's find.
function keys(term, search, event) {
  const key = event.key;
  const plainShift = event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey;
  // Tab and Shift+Tab belong to the program (completion; Claude Code's mode switch reads
  // ESC [ Z): xterm.js sends them, and the browser must not also move the focus out of
  // the terminal (to the power button, where the next Enter would ask to stop wharf).
  if (key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey) {
    event.preventDefault();
    return true;
  }
  if (key === 'Enter' && plainShift && keyPrefs.shiftEnterNewline) {
    if (event.type === 'keydown') term.input('\x1b\r', true);
    event.preventDefault();
    return false;
  }
  const lower = key.length === 1 ? key.toLowerCase() : key;
  const copy = lower === 'c' && ((event.metaKey && !event.ctrlKey) || (event.ctrlKey && event.shiftKey && !event.metaKey));
  if (copy) {
    if (event.type === 'keydown' && term.hasSelection()) {
      navigator.clipboard?.writeText(term.getSelection()).catch(() => {});
    }
    event.preventDefault();
    return false;
  }
  if (keyPrefs.searchKey && lower === 'f' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
    if (event.type === 'keydown') search.show();
    event.preventDefault();
    return false;
  }
  return true;
}

// WebGL is much faster for busy output; the DOM renderer is the safe default. A GPU
// can refuse a context up front or lose it later (driver reset, too many contexts);
// either way xterm.js goes back to the DOM renderer once the addon is gone.
function useWebglIfPossible(term) {
  let webgl;
  try {
    webgl = new WebglAddon();
    webgl.onContextLoss(() => { webgl.lost = true; webgl.dispose(); });
    const before = new Set(term.element?.querySelectorAll('canvas') ?? []);
    term.loadAddon(webgl);
    const added = [...(term.element?.querySelectorAll('canvas') ?? [])].filter((c) => !before.has(c));
    // The addon's own canvas is the one with a WebGL context (the link layer's is 2D).
    const gl = added.map((c) => c.getContext('webgl2')).find(Boolean);
    if (gl) watchFirstFrame(term, webgl, gl);
    return webgl;
  } catch {
    webgl?.dispose();
    return null;
  }
}

// A context that shows nothing is worse than none: the person sees a blank terminal.
// Headless Chromium emulating a phone's device pixel ratio (2 or 3) does exactly that:
// the addon sizes its canvas from the device pixels the browser reports for it, which
// disagree with window.devicePixelRatio, and what it draws lands off screen. So the
// addon is checked as it draws: on every frame, that its canvas has as many device
// pixels as the page says it should (cheap); on the first frame with text, that the
// frame holds any pixel at all (read back while it still can be). Either fails, and the
// addon goes, which puts xterm.js's DOM renderer back.
function watchFirstFrame(term, webgl, gl) {
  let pixelsChecked = false;
  const listener = term.onRender(() => {
    if (webgl.lost) { listener.dispose(); return; }
    const canvas = gl.canvas;
    const ratio = window.devicePixelRatio || 1;
    const sized = canvas.clientWidth === 0
      || Math.abs(canvas.width - canvas.clientWidth * ratio) <= ratio + 1;
    let drawn = true;
    if (sized && !pixelsChecked && viewportHasText(term)) {
      pixelsChecked = true;
      const pixels = new Uint8Array(gl.drawingBufferWidth * gl.drawingBufferHeight * 4);
      gl.readPixels(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      drawn = pixels.some((byte) => byte !== 0);
    }
    if (sized && drawn) return;
    listener.dispose();
    webgl.lost = true;
    webgl.dispose();
    term.refresh(0, term.rows - 1);
  });
}

function viewportHasText(term) {
  const buffer = term.buffer.active;
  for (let y = 0; y < term.rows; y++) {
    if (buffer.getLine(buffer.viewportY + y)?.translateToString(true).trim()) return true;
  }
  return false;
}
