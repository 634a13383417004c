// The terminal view: one xterm.js instance fitted to its container. It only draws and
// collects keystrokes; where bytes come from and go to is connection.js's business.
import { Terminal } from './vendor/xterm/xterm.mjs';
import { FitAddon } from './vendor/addon-fit/addon-fit.mjs';
import { WebglAddon } from './vendor/addon-webgl/addon-webgl.mjs';
import { Unicode11Addon } from './vendor/addon-unicode11/addon-unicode11.mjs';

const theme = {
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
};

export function createTerminalView(container) {
  const term = new Terminal({
    scrollback: 2000,
    screenReaderMode: true,
    // The unicode API (needed for Unicode 11 widths) is still "proposed" in xterm.js.
    allowProposedApi: true,
    cursorBlink: false, // a steady cursor is easier to find and to read around
    fontFamily: '"DejaVu Sans Mono", "Liberation Mono", ui-monospace, Menlo, Consolas, monospace',
    fontSize: 14,
    theme,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  term.open(container);
  useWebglIfPossible(term);
  fit.fit();

  // The container follows the window (and, later, layout changes such as a side pane),
  // so observing it covers every reason to refit. One fit per frame is enough.
  let pending = false;
  new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; fit.fit(); });
  }).observe(container);
  // Cell size depends on the font; measure again once web/system fonts have settled.
  document.fonts?.ready.then(() => fit.fit());

  // Keystrokes must land in the terminal: take focus at start, and take it back when
  // the window returns or a click leaves nothing focused. A control that holds focus
  // (later: rename field, composer) keeps it; a text selection is not disturbed.
  const focus = () => term.focus();
  const reclaim = () => {
    const idle = !document.activeElement || document.activeElement === document.body;
    if (idle && window.getSelection()?.isCollapsed !== false) focus();
  };
  window.addEventListener('focus', reclaim);
  document.addEventListener('pointerup', reclaim);
  focus();

  return { term, focus, fit: () => fit.fit() };
}

// WebGL is much faster for busy output; the DOM renderer is the safe default. A GPU
// can refuse a context up front or lose it later (driver reset, too many contexts);
// either way xterm.js goes back to the DOM renderer once the addon is gone.
function useWebglIfPossible(term) {
  let webgl;
  try {
    webgl = new WebglAddon();
    webgl.onContextLoss(() => webgl.dispose());
    term.loadAddon(webgl);
  } catch {
    webgl?.dispose();
  }
}
