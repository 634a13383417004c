// Settings: how this browser shows and handles wharf, chosen in a dialog opened from the
// gear in the tab bar. Per browser (localStorage), never sent to the daemon.
//
// Three layers, the later winning: wharf's built-in defaults, the operator's defaults
// (config.toml's [page] table, served as `page` in /api/status), and what this person
// chose here. Only what the person changed is stored, so an operator's later change of
// a default reaches every browser that did not choose otherwise; "Reset" forgets the
// person's choices. The chime keeps its own key (wharf.muted), shared with the bell.
//
// What each setting drives: font, theme, cursor and renderer go to the terminal view
// (terminal_view.js configure/setRenderer; a new cell size refits the terminal, and the
// session follows only while this window drives); the theme also sets data-theme on
// <html> (style.css); the key behaviours go to the terminal's key handler; the chime to
// activity.js; notifications are shown here when the daemon chimes and the page is in the
// background.
import { button, icon } from './tab_bar.js';
import { addPushSwitch } from './web_push.js';
import { keyHeaders } from './credentials.js';
import { createDevices } from './devices.js';

const STORE_KEY = 'wharf.settings';
const MUTE_KEY = 'wharf.muted'; // activity.js's
const GEAR = 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM6.9 1.5h2.2l.4 1.8 1.3.6 1.6-1 1.5 1.5-1 1.6.6 1.3 1.8.4v2.2l-1.8.4-.6 1.3 1 1.6-1.5 1.5-1.6-1-1.3.6-.4 1.8H6.9l-.4-1.8-1.3-.6-1.6 1-1.5-1.5 1-1.6-.6-1.3-1.8-.4V6.9l1.8-.4.6-1.3-1-1.6 1.5-1.5 1.6 1 1.3-.6z';

export const BUILT_IN = Object.freeze({
  fontSize: 14,
  fontFamily: '"DejaVu Sans Mono", "Liberation Mono", ui-monospace, Menlo, Consolas, monospace',
  theme: 'dark', // dark, light, system
  cursorStyle: 'block', // block, bar, underline
  cursorBlink: false,
  chime: true,
  notifications: false,
  renderer: 'webgl', // webgl, dom
  searchKey: true, // Ctrl+F opens the terminal's search (off: the program gets it)
  shiftEnterNewline: true, // Shift+Enter types a new line (ESC CR) (off: a plain Enter)
});
const FONT_MIN = 8;
const FONT_MAX = 32;

// config.toml's [page] names (snake_case) to the settings' names.
const OPERATOR_NAMES = {
  font_size: 'fontSize', font_family: 'fontFamily', theme: 'theme', cursor_style: 'cursorStyle',
  cursor_blink: 'cursorBlink', chime: 'chime', notifications: 'notifications', renderer: 'renderer',
  search_key: 'searchKey', shift_enter_newline: 'shiftEnterNewline',
};

// A value is taken only if it is one the setting can have: a stored or served value from
// another version never breaks the page.
function valid(name, value) {
  switch (name) {
    case 'fontSize': return Number.isInteger(value) && value >= FONT_MIN && value <= FONT_MAX;
    case 'fontFamily': return typeof value === 'string' && value.trim().length > 0 && value.length <= 200;
    case 'theme': return ['dark', 'light', 'system'].includes(value);
    case 'cursorStyle': return ['block', 'bar', 'underline'].includes(value);
    case 'renderer': return ['webgl', 'dom'].includes(value);
    default: return name in BUILT_IN && typeof value === 'boolean';
  }
}

function pick(source, names = null) {
  const out = {};
  if (!source || typeof source !== 'object') return out;
  for (const [key, value] of Object.entries(source)) {
    const name = names ? names[key] : key;
    if (name && valid(name, value)) out[name] = value;
  }
  return out;
}

function readStored() {
  let stored = {};
  try { stored = pick(JSON.parse(localStorage.getItem(STORE_KEY) ?? '{}')); } catch { /* none or refused */ }
  try {
    const muted = localStorage.getItem(MUTE_KEY);
    if (muted === '1' || muted === '0') stored.chime = muted === '0';
  } catch { /* storage refused */ }
  return stored;
}

function writeStored(stored) {
  const { chime, ...rest } = stored;
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(rest));
    if (chime === undefined) localStorage.removeItem(MUTE_KEY);
    else localStorage.setItem(MUTE_KEY, chime ? '0' : '1');
  } catch { /* storage refused: the choice lasts this page */ }
}

// onOperatorDefaults(page): the whole `page` object of /api/status, for the defaults that
// are not settings of this dialog (`focus`: touch_focus.js).
export function createSettings({ key, view, activity, sessionName, onShortcuts, focusTerminal, onOperatorDefaults }) {
  let operator = {};
  let stored = readStored();
  const current = () => ({ ...BUILT_IN, ...operator, ...stored });

  // ---- applying ---------------------------------------------------------------------
  const systemLight = window.matchMedia?.('(prefers-color-scheme: light)');
  function themeOf(s) {
    if (s.theme !== 'system') return s.theme;
    return systemLight?.matches ? 'light' : 'dark';
  }
  function apply() {
    const s = current();
    const theme = themeOf(s);
    document.documentElement.dataset.theme = theme;
    document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', theme);
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme === 'light' ? '#f1f3f6' : '#0e1116');
    view.configure({ fontSize: s.fontSize, fontFamily: s.fontFamily, theme, cursorStyle: s.cursorStyle, cursorBlink: s.cursorBlink });
    if (view.renderer() !== s.renderer) view.setRenderer(s.renderer);
    document.documentElement.dataset.renderer = view.renderer();
    view.setKeyPrefs({ searchKey: s.searchKey, shiftEnterNewline: s.shiftEnterNewline });
    activity.setMuted(!s.chime);
  }
  systemLight?.addEventListener?.('change', () => { if (current().theme === 'system') apply(); });
  // Another tab of this browser changed them: follow.
  window.addEventListener('storage', (event) => {
    if (event.key !== STORE_KEY && event.key !== MUTE_KEY) return;
    stored = readStored();
    apply();
    if (dialog.open) fill();
  });

  function set(name, value) {
    if (!valid(name, value)) return;
    stored = { ...readStored(), [name]: value }; // the bell may have moved the chime
    writeStored(stored);
    apply();
    if (dialog.open) showRenderer();
  }

  // The operator's defaults come with /api/status; until then the built-in ones show.
  async function loadOperatorDefaults() {
    try {
      const res = await fetch('/api/status', { headers: keyHeaders(key), cache: 'no-store' });
      if (!res.ok) return;
      const status = await res.json();
      operator = pick(status?.page, OPERATOR_NAMES);
      deliveryNote.textContent = describeDelivery(status?.notifications);
      apply();
      onOperatorDefaults?.(status?.page && typeof status.page === 'object' ? status.page : {});
      if (dialog.open) fill();
    } catch { /* the daemon is not up yet: the built-in defaults stay */ }
  }

  // ---- notifications ----------------------------------------------------------------
  const CHANNEL_NAMES = { ntfy: 'ntfy', command: 'a command', webpush: 'Web Push' };
  function describeDelivery(n) {
    if (!n || !Array.isArray(n.channels)) return '';
    const configured = n.channels.filter((c) => c !== 'webpush');
    if (!configured.length) return 'Away from the page: Web Push only (below); ntfy and a command hook are set in config.toml [notifications].';
    const names = configured.map((c) => CHANNEL_NAMES[c] ?? c).join(' and ');
    const rules = [n.debounce > 0 ? `at most one per session every ${n.debounce} s` : 'every event',
      n.quiet_hours ? `quiet ${n.quiet_hours}` : null, n.links ? 'with a link to the session' : 'without links (no public_url)',
      n.include_screen ? 'with the last screen lines' : null].filter(Boolean).join('; ');
    return `Away from the page this daemon also notifies through ${names} (${rules}).`;
  }
  // `activity`: 'waiting' (it needs an answer) or 'finished'. A click comes back to the
  // page on that session (deep_link.js reads the hash).
  function notify(sessionId, activity) {
    if (!current().notifications || !document.hidden) return false;
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
    const name = sessionName(sessionId) ?? `session ${sessionId}`;
    const waiting = activity === 'waiting';
    try {
      const note = new Notification(waiting ? `${name} is waiting for you` : `${name} finished`, {
        body: waiting ? 'It needs your answer in wharf.' : 'It is done; wharf has its screen.',
        tag: `wharf-${sessionId}`,
      });
      note.onclick = () => { window.focus(); location.hash = `session=${sessionId}`; note.close(); };
      return true;
    } catch { return false; }
  }

  // ---- the dialog -------------------------------------------------------------------
  const gear = button('tab-settings', '', 'Settings');
  gear.append(icon(GEAR));
  gear.title = 'Settings: font, theme, cursor, sounds, keys';
  gear.setAttribute('aria-haspopup', 'dialog');

  const dialog = document.createElement('dialog');
  dialog.className = 'settings';
  dialog.id = 'settings';
  dialog.setAttribute('aria-labelledby', 'settings-title');
  const title = document.createElement('h2');
  title.id = 'settings-title';
  title.textContent = 'Settings';
  const form = document.createElement('form');
  form.method = 'dialog';
  dialog.append(title, form);
  document.body.append(dialog);

  const controls = {};
  function section(caption) {
    const fs = document.createElement('fieldset');
    const legend = document.createElement('legend');
    legend.textContent = caption;
    fs.append(legend);
    form.append(fs);
    return fs;
  }
  function row(parent, labelText, control, hint) {
    const label = document.createElement('label');
    label.className = 'settings-row';
    const text = document.createElement('span');
    text.textContent = labelText;
    label.append(text, control);
    // A select's label would also read out its option: name the control by the caption.
    control.setAttribute('aria-label', labelText);
    parent.append(label);
    if (hint) {
      const note = document.createElement('p');
      note.className = 'settings-hint';
      note.id = `${control.id}-hint`;
      note.textContent = hint;
      control.setAttribute('aria-describedby', note.id);
      parent.append(note);
    }
    return label;
  }
  function select(name, options) {
    const el = document.createElement('select');
    el.id = `setting-${name}`;
    el.name = name;
    for (const [value, text] of options) el.append(Object.assign(document.createElement('option'), { value, textContent: text }));
    el.addEventListener('change', () => set(name, el.value));
    controls[name] = el;
    return el;
  }
  function checkbox(name) {
    const el = document.createElement('input');
    el.type = 'checkbox';
    el.id = `setting-${name}`;
    el.name = name;
    el.addEventListener('change', () => set(name, el.checked));
    controls[name] = el;
    return el;
  }

  const look = section('Terminal');
  const size = document.createElement('input');
  size.type = 'number';
  size.id = 'setting-fontSize';
  size.name = 'fontSize';
  size.min = String(FONT_MIN);
  size.max = String(FONT_MAX);
  size.step = '1';
  size.addEventListener('change', () => {
    const value = Math.round(Number(size.value));
    if (value >= FONT_MIN && value <= FONT_MAX) set('fontSize', value);
    else size.value = String(current().fontSize);
  });
  controls.fontSize = size;
  row(look, 'Font size', size, `${FONT_MIN} to ${FONT_MAX} pixels.`);
  const family = document.createElement('input');
  family.type = 'text';
  family.id = 'setting-fontFamily';
  family.name = 'fontFamily';
  family.spellcheck = false;
  family.setAttribute('list', 'settings-fonts');
  const fonts = document.createElement('datalist');
  fonts.id = 'settings-fonts';
  for (const f of [BUILT_IN.fontFamily, '"Fira Code", monospace', '"JetBrains Mono", monospace', '"Cascadia Code", monospace', 'Menlo, monospace', 'monospace']) {
    fonts.append(Object.assign(document.createElement('option'), { value: f }));
  }
  family.addEventListener('change', () => {
    if (family.value.trim()) set('fontFamily', family.value.trim());
    else family.value = current().fontFamily;
  });
  controls.fontFamily = family;
  row(look, 'Font family', family, 'A CSS font list; the first one installed is used.');
  look.append(fonts);
  row(look, 'Theme', select('theme', [['dark', 'Dark'], ['light', 'Light'], ['system', 'Follow the system']]));
  row(look, 'Cursor', select('cursorStyle', [['block', 'Block'], ['bar', 'Bar'], ['underline', 'Underline']]));
  row(look, 'Blinking cursor', checkbox('cursorBlink'));
  row(look, 'Renderer', select('renderer', [['webgl', 'WebGL (faster)'], ['dom', 'DOM (safest)']]),
    'WebGL falls back to DOM by itself when the graphics card refuses it.');
  const rendererNote = document.createElement('p');
  rendererNote.className = 'settings-hint';
  rendererNote.id = 'settings-renderer-now';
  look.append(rendererNote);

  const sound = section('Sound and notifications');
  row(sound, 'Chime when a finished session goes unseen', checkbox('chime'));
  const notifyBox = checkbox('notifications');
  const notifyNote = document.createElement('p');
  notifyNote.className = 'settings-hint';
  notifyNote.id = 'settings-notify-note';
  notifyNote.setAttribute('aria-live', 'polite');
  row(sound, 'Notify me when a session waits or finishes while this tab is in the background', notifyBox);
  sound.append(notifyNote);
  // What this daemon sends away from the page (config.toml [notifications]; /api/status).
  const deliveryNote = document.createElement('p');
  deliveryNote.className = 'settings-hint';
  deliveryNote.id = 'settings-delivery-note';
  sound.append(deliveryNote);
  // After the generic listener stored the choice: turning it on asks the browser.
  notifyBox.addEventListener('change', async () => {
    if (!notifyBox.checked) return;
    // The permission is asked for when the person turns it on (browsers only ask then).
    if (typeof Notification === 'undefined') {
      notifyNote.textContent = 'This browser has no notifications.';
      set('notifications', false);
      fill();
      return;
    }
    let permission = Notification.permission;
    if (permission === 'default') {
      try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
    }
    if (permission !== 'granted') {
      set('notifications', false);
      fill();
      notifyNote.textContent = 'The browser refused notifications for this page: allow them in its site settings, then turn this on again.';
    } else {
      notifyNote.textContent = '';
    }
  });
  // Web Push to this device, even with the page closed (web_push.js).
  addPushSwitch(sound, row, { key });

  // Paired browsers and pairing a new one (devices.js).
  const devices = createDevices(section('Devices'), { key });

  const keys = section('Keyboard');
  row(keys, 'Ctrl+F searches the terminal', checkbox('searchKey'), 'Off: Ctrl+F goes to the program (in Emacs, readline: forward).');
  row(keys, 'Shift+Enter types a new line', checkbox('shiftEnterNewline'), 'Sends ESC Enter, what agents read as a new line; off: a plain Enter.');
  const fixedNote = document.createElement('p');
  fixedNote.className = 'settings-hint';
  fixedNote.textContent = 'Tab and Shift+Tab always go to the program, and Ctrl+C is always an interrupt.';
  keys.append(fixedNote);

  const buttons = document.createElement('div');
  buttons.className = 'settings-buttons';
  const shortcutsButton = document.createElement('button');
  shortcutsButton.type = 'button';
  shortcutsButton.textContent = 'Keyboard shortcuts…';
  shortcutsButton.addEventListener('click', () => { close(false); onShortcuts?.(gear); });
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.textContent = 'Reset to defaults';
  reset.title = 'Forget the choices made in this browser: the operator\'s defaults apply';
  reset.addEventListener('click', () => { stored = {}; writeStored(stored); apply(); fill(); });
  const done = document.createElement('button');
  done.type = 'submit';
  done.className = 'primary';
  done.textContent = 'Done';
  buttons.append(shortcutsButton, reset, done);
  form.append(buttons);

  function fill() {
    const s = current();
    for (const [name, el] of Object.entries(controls)) {
      if (el.type === 'checkbox') el.checked = s[name] === true;
      else el.value = String(s[name]);
    }
    showRenderer();
  }
  function showRenderer() {
    rendererNote.textContent = `Drawing with ${view.renderer() === 'webgl' ? 'WebGL' : 'the DOM'} now.`;
  }

  function open() {
    fill();
    devices.refresh();
    if (!dialog.open) dialog.showModal();
    gear.setAttribute('aria-expanded', 'true');
    controls.fontSize.focus();
  }
  let focusBack = true;
  function close(giveFocusBack = true) {
    focusBack = giveFocusBack;
    if (dialog.open) dialog.close();
  }
  // Escape (the dialog's cancel), Done and close() all land here; keystrokes go back to
  // the terminal unless another dialog takes over (the shortcuts).
  dialog.addEventListener('close', () => {
    gear.setAttribute('aria-expanded', 'false');
    if (focusBack) focusTerminal();
    focusBack = true;
  });
  dialog.addEventListener('click', (event) => { if (event.target === dialog) close(); }); // the backdrop
  gear.addEventListener('click', () => (dialog.open ? close() : open()));
  gear.setAttribute('aria-expanded', 'false');

  apply();
  loadOperatorDefaults();

  return {
    button: gear,
    open,
    close,
    isOpen: () => dialog.open,
    current,
    // One setting, as if chosen in the dialog (the pinch sets the font size: pinch_zoom.js).
    set(name, value) {
      set(name, value);
      if (dialog.open) fill();
    },
    notify,
    // The daemon came back (maybe another daemon with other defaults): ask again.
    refresh: loadOperatorDefaults,
  };
}
