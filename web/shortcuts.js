// The keyboard shortcut overlay: every key binding the page has, in one dialog. Opened
// with `?` or Ctrl+/ while the focus is outside the terminal and outside any text field
// (there those keys are typing), or from the settings; Escape closes it. The list is
// written here by hand from the handlers in terminal_view.js, terminal_paste.js,
// search.js, tab_bar.js, composer.js, launcher.js, confirm.js, pane.js and status.js: a binding
// added there belongs here too.
const GROUPS = [
  ['Terminal', [
    ['Ctrl+Shift+C, Cmd+C', 'Copy the selection'],
    ['Ctrl+Shift+V, Shift+Insert', 'Paste (cleaned by wharf)'],
    ['Ctrl+C', 'Interrupt (always, selection or not)'],
    ['Shift+Enter', 'New line, not send (ESC Enter; can be turned off in settings)'],
    ['Tab, Shift+Tab', 'Go to the program, never move the focus'],
    ['Ctrl+F, Cmd+F', 'Search the terminal (can be turned off in settings)'],
    ['Ctrl+click', 'Open a link'],
  ]],
  ['Search box', [
    ['Enter / Shift+Enter', 'Next / previous match'],
    ['Escape', 'Close the search'],
  ]],
  ['Tabs', [
    ['Alt+Shift+W', 'End the current session (asks first)'],
    ['← → Home End', 'Move between tabs (focus on the tab bar)'],
    ['F2, double-click', 'Rename the focused tab'],
    ['Delete', 'End the focused tab\'s session (asks first); close an ended session\'s tab'],
    ['Escape', 'Back to the terminal'],
    ['Enter', 'Start a session (when none is open)'],
  ]],
  ['Composer', [
    ['Enter', 'Send the message'],
    ['Shift+Enter', 'New line in the message'],
    ['↑ ↓', 'Earlier and later messages'],
  ]],
  ['Launcher', [
    ['↑ ↓', 'Choose what to start'],
    ['Enter', 'Start (in the directory or name field)'],
    ['Ctrl+Enter', 'Start (from any field)'],
    ['Escape', 'Close'],
  ]],
  ['Web pane', [
    ['← →', 'Widen or narrow the pane (its divider focused; Shift: faster)'],
  ]],
  ['Page', [
    ['?, Ctrl+/', 'This list (outside the terminal)'],
    ['Escape', 'Close a dialog, a confirm or this list'],
  ]],
];

export function createShortcuts({ focusTerminal }) {
  const dialog = document.createElement('dialog');
  dialog.className = 'shortcuts';
  dialog.id = 'shortcuts';
  dialog.setAttribute('aria-labelledby', 'shortcuts-title');
  const title = document.createElement('h2');
  title.id = 'shortcuts-title';
  title.textContent = 'Keyboard shortcuts';
  const columns = document.createElement('div');
  columns.className = 'shortcuts-groups';
  for (const [caption, bindings] of GROUPS) {
    const group = document.createElement('section');
    const heading = document.createElement('h3');
    heading.textContent = caption;
    const list = document.createElement('dl');
    for (const [keys, what] of bindings) {
      const dt = document.createElement('dt');
      for (const [i, k] of keys.split(', ').entries()) {
        if (i) dt.append(', ');
        dt.append(Object.assign(document.createElement('kbd'), { textContent: k }));
      }
      list.append(dt, Object.assign(document.createElement('dd'), { textContent: what }));
    }
    group.append(heading, list);
    columns.append(group);
  }
  const form = document.createElement('form');
  form.method = 'dialog';
  const close = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Close', className: 'primary' });
  form.append(close);
  dialog.append(title, columns, form);
  document.body.append(dialog);
  dialog.addEventListener('close', () => focusTerminal());
  dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close(); });

  function open() {
    if (!dialog.open) dialog.showModal();
    close.focus();
  }

  // `?` and Ctrl+/ are text in a terminal or a field: only elsewhere do they open this.
  document.addEventListener('keydown', (event) => {
    const slash = event.key === '/' && (event.ctrlKey || event.metaKey) && !event.altKey;
    const question = event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (!slash && !question) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('#terminal, input, textarea, select, [contenteditable=""], [contenteditable="true"], dialog')) return;
    event.preventDefault();
    open();
  });

  return { open, isOpen: () => dialog.open };
}
