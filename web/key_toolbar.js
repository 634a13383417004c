// The key toolbar: the keys a phone's soft keyboard does not have (Esc, Ctrl, Alt, Tab,
// Shift+Tab, arrows, Home/End, PgUp/PgDn, Enter), plus Paste, a key that raises the
// soft keyboard and a key for the session list. One row above the composer, scrolled
// sideways when the screen is narrow. Shown on touch devices; `?toolbar=0|1` forces it.
//
// Invariants:
// - A key goes to the session exactly as the real key would: through xterm.js's own input
//   path (term.input(data, true), which fires onData, which connection.js sends), with
//   the sequence for the terminal's current modes (arrows and Home/End as ESC O x in
//   application cursor mode, DECCKM, else ESC [ x).
// - Tapping a button neither moves the focus nor raises or drops the soft keyboard: the
//   pointerdown/mousedown default (focusing the button) is prevented. Keyboard users
//   still reach it: it is a role=toolbar with one tab stop and arrow keys between buttons.
// - Ctrl and Alt are sticky: off -> armed (next key only) -> locked (until tapped) -> off.
//   The modifier applies to the next key from the toolbar or typed into the terminal
//   (a hardware key, or text a soft keyboard inserts, often with no usable keydown at
//   all). An armed modifier releases after one key; a locked one stays.
// - Paste never sends raw clipboard text: it goes to `paste`, the same cleaning path as
//   every other terminal paste (terminal_paste.js, the daemon's paste cleaning).

const ESC = '\x1b';

// The toolbar's keys, in order. `seq` names a sequence family (see sequence()).
const KEYS = [
  { id: 'esc', text: 'Esc', label: 'Escape', seq: 'esc' },
  { id: 'ctrl', text: 'Ctrl', label: 'Control', sticky: 'ctrl' },
  { id: 'alt', text: 'Alt', label: 'Alt', sticky: 'alt' },
  { id: 'tab', text: 'Tab', label: 'Tab', seq: 'tab' },
  { id: 'backtab', text: '⇧Tab', label: 'Shift+Tab', seq: 'backtab' },
  { id: 'left', text: '←', label: 'Left arrow', seq: 'left' },
  { id: 'up', text: '↑', label: 'Up arrow', seq: 'up' },
  { id: 'down', text: '↓', label: 'Down arrow', seq: 'down' },
  { id: 'right', text: '→', label: 'Right arrow', seq: 'right' },
  { id: 'home', text: 'Home', label: 'Home', seq: 'home' },
  { id: 'end', text: 'End', label: 'End', seq: 'end' },
  { id: 'pgup', text: 'PgUp', label: 'Page up', seq: 'pgup' },
  { id: 'pgdn', text: 'PgDn', label: 'Page down', seq: 'pgdn' },
  { id: 'enter', text: '⏎', label: 'Enter', seq: 'enter' },
  { id: 'paste', text: 'Paste', label: 'Paste', action: 'paste' },
  { id: 'keyboard', text: '⌨', label: 'Show keyboard', action: 'keyboard' },
  { id: 'sessions', text: '☰', label: 'Sessions', action: 'sessions' },
];

// Cursor keys: final byte. Application cursor mode (DECCKM) sends SS3 (ESC O) unmodified.
const CURSOR = { up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F' };
const TILDE = { pgup: '5', pgdn: '6' };

// The bytes for key `name` with modifiers { ctrl, alt, shift }, as xterm sends them.
// `app` is whether the terminal is in application cursor mode.
export function sequence(name, { ctrl = false, alt = false, shift = false } = {}, app = false) {
  const param = 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0); // xterm's modifier code
  if (CURSOR[name]) {
    if (param > 1) return `${ESC}[1;${param}${CURSOR[name]}`;
    return `${ESC}${app ? 'O' : '['}${CURSOR[name]}`;
  }
  if (TILDE[name]) return param > 1 ? `${ESC}[${TILDE[name]};${param}~` : `${ESC}[${TILDE[name]}~`;
  const prefix = alt ? ESC : '';
  switch (name) {
    case 'esc': return prefix + ESC;
    case 'tab': return prefix + (shift ? `${ESC}[Z` : '\t');
    case 'backtab': return `${prefix}${ESC}[Z`;
    case 'enter': return `${prefix}\r`;
    case 'backspace': return prefix + (ctrl ? '\b' : '\x7f');
    default: return '';
  }
}

// A typed character with Ctrl and/or Alt, as xterm sends it: Ctrl+letter is the control
// byte (Ctrl+c -> 0x03), Ctrl+[ is ESC, Ctrl+space or Ctrl+@ is NUL, and so on; Alt puts
// ESC in front. A character Ctrl has no byte for goes unchanged.
export function modifyChar(ch, { ctrl = false, alt = false } = {}) {
  let out = ch;
  if (ctrl && ch.length === 1) {
    const code = ch.charCodeAt(0);
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) out = String.fromCharCode(code & 0x1f);
    else if (ch === ' ' || ch === '@' || ch === '2') out = '\x00';
    else if (ch === '[' || ch === '3') out = ESC;
    else if (ch === '\\' || ch === '4') out = '\x1c';
    else if (ch === ']' || ch === '5') out = '\x1d';
    else if (ch === '^' || ch === '6') out = '\x1e';
    else if (ch === '_' || ch === '/' || ch === '7') out = '\x1f';
    else if (ch === '?' || ch === '8') out = '\x7f';
  }
  return alt ? ESC + out : out;
}

// Hardware or soft keys typed into the terminal that have a sequence of their own.
const TYPED_NAMED = {
  Enter: 'enter', Tab: 'tab', Escape: 'esc', Backspace: 'backspace',
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Home: 'home', End: 'end', PageUp: 'pgup', PageDown: 'pgdn',
};

// Whether the page wants the toolbar: `?toolbar=0|1` wins, else a touch device does.
export function toolbarWanted(search = location.search, touch = isTouchDevice()) {
  const forced = new URLSearchParams(search).get('toolbar');
  if (forced === '1' || forced === 'on') return true;
  if (forced === '0' || forced === 'off') return false;
  return touch;
}

// A touch device: the primary pointer is coarse (a finger). A laptop with a touch screen
// and a mouse reports a fine primary pointer and keeps the desktop page.
export function isTouchDevice() {
  return Boolean(window.matchMedia?.('(pointer: coarse)').matches);
}

// view: the terminal view; paste(text): the cleaning paste path; notify(text): a short
// message for the person; onSessions(): the sessions key; raiseKeyboard(): focus the
// terminal on purpose (the soft keyboard comes up).
export function createKeyToolbar({ view, paste, notify, onSessions, raiseKeyboard }) {
  const term = view.term;
  const el = document.createElement('div');
  el.className = 'key-toolbar';
  el.setAttribute('role', 'toolbar');
  el.setAttribute('aria-label', 'Terminal keys');
  const sticky = { ctrl: 'off', alt: 'off' }; // 'off' | 'armed' | 'locked'
  const buttons = new Map();

  for (const key of KEYS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'key';
    b.dataset.key = key.id;
    b.textContent = key.text;
    b.setAttribute('aria-label', key.label);
    b.title = key.label;
    b.tabIndex = -1;
    if (key.sticky) b.setAttribute('aria-pressed', 'false');
    // The default of a press is to focus the button, which would take the focus from the
    // terminal's textarea and the soft keyboard down with it.
    b.addEventListener('pointerdown', (event) => event.preventDefault());
    b.addEventListener('mousedown', (event) => event.preventDefault());
    b.addEventListener('click', () => press(key));
    buttons.set(key.id, b);
    el.append(b);
  }
  buttons.get('esc').tabIndex = 0; // the toolbar's one tab stop (roving)

  // ARIA toolbar: arrows move between buttons, Home/End to the ends; the tab stop follows.
  el.addEventListener('keydown', (event) => {
    const all = [...buttons.values()];
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    let to = null;
    if (event.key === 'ArrowRight') to = (at + 1) % all.length;
    else if (event.key === 'ArrowLeft') to = (at - 1 + all.length) % all.length;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = all.length - 1;
    if (to === null) return;
    event.preventDefault();
    all[at].tabIndex = -1;
    all[to].tabIndex = 0;
    all[to].focus();
  });

  function mods() {
    return { ctrl: sticky.ctrl !== 'off', alt: sticky.alt !== 'off' };
  }
  // After a key: an armed modifier is used up, a locked one stays.
  function consume() {
    for (const name of ['ctrl', 'alt']) if (sticky[name] === 'armed') sticky[name] = 'off';
    show();
  }
  function show() {
    for (const name of ['ctrl', 'alt']) {
      const b = buttons.get(name);
      b.dataset.state = sticky[name];
      b.setAttribute('aria-pressed', String(sticky[name] !== 'off'));
      // The name stays the key's; armed or locked is said as a description.
      const said = { off: '', armed: 'armed for the next key', locked: 'locked until tapped again' }[sticky[name]];
      if (said) b.setAttribute('aria-description', said);
      else b.removeAttribute('aria-description');
    }
  }
  show();

  let fromToolbar = false; // while the toolbar's own bytes pass the onData filter below
  function send(data) {
    if (!data) return;
    fromToolbar = true;
    try { term.input(data, true); } finally { fromToolbar = false; }
  }

  async function press(key) {
    if (key.sticky) {
      const next = { off: 'armed', armed: 'locked', locked: 'off' };
      sticky[key.sticky] = next[sticky[key.sticky]];
      show();
      return;
    }
    if (key.seq) {
      const m = mods();
      send(sequence(key.seq, m, term.modes.applicationCursorKeysMode));
      consume();
      return;
    }
    if (key.action === 'keyboard') raiseKeyboard();
    else if (key.action === 'sessions') onSessions();
    else if (key.action === 'paste') await pasteClipboard();
  }

  async function pasteClipboard() {
    // Reading the clipboard needs a secure context (https or localhost); plain http over
    // the network is not one, and the browser offers no way around it.
    if (!window.isSecureContext || !navigator.clipboard?.readText) {
      notify('This browser does not allow reading the clipboard here (plain http is not a secure context). Long-press the message box below and choose Paste.');
      return;
    }
    let text;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      notify('The browser refused to read the clipboard. Long-press the message box below and choose Paste.');
      return;
    }
    if (text) paste(text);
    else notify('The clipboard holds no text.');
  }

  // Keys typed into the terminal while Ctrl or Alt is on: the modifier applies to them.
  // Keys with a sequence of their own (Enter, arrows, ...) are caught as keydowns on the
  // way down (capture phase, before xterm.js's listeners). Text is caught where every way
  // of typing it ends: xterm.js's onData. A soft keyboard often gives no usable keydown
  // ('Unidentified') and delivers letters through beforeinput or a composition, each of
  // which xterm.js turns into onData; the filter wraps onData for the listeners that
  // subscribe after it (connection.js subscribes once the page is built).
  term.element?.addEventListener('keydown', (event) => {
    const m = mods();
    if ((!m.ctrl && !m.alt) || event.isComposing || event.target !== term.textarea) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return; // a real modifier wins
    const name = TYPED_NAMED[event.key];
    if (!name) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    send(sequence(name, { ...m, shift: event.shiftKey }, term.modes.applicationCursorKeysMode));
    consume();
  }, true);
  // A soft keyboard may insert a whole word (autocomplete): the modifier takes the first
  // character, the rest goes as typed.
  const filterText = (data, m) => {
    const [first, ...rest] = [...data];
    return modifyChar(first, m) + rest.join('');
  };
  const filter = (data) => {
    const m = mods();
    if (fromToolbar || (!m.ctrl && !m.alt) || !data || /^[\x00-\x1f\x7f]/.test(data)) return data;
    queueMicrotask(consume); // after every listener has seen this data with the modifier
    return filterText(data, m);
  };
  // Every listener of one data event sees the same bytes: the armed modifier is used up
  // in a microtask, after the event's dispatch.
  const onData = term.onData;
  Object.defineProperty(term, 'onData', {
    configurable: true,
    value: (listener, ...rest) => onData((data) => listener(filter(data)), ...rest),
  });

  return {
    element: el,
    state: () => ({ ...sticky }),
  };
}
