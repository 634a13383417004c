// Boot order of the page: status first (so the loading state shows at once), then the
// terminal, the tab bar, and the connection that feeds them. Later features (composer,
// panes) are wired here, each from its own module. The status panel and the tab bar
// only ask for things; the connection turns that into protocol messages.
import { createStatus } from './status.js';
import { createTerminalView } from './terminal_view.js';
import { createTabBar } from './tab_bar.js';
import { openConnection } from './connection.js';
// Terminal companions: the clipboard (OSC 52) and the composer below the terminal.
import { installClipboard } from './clipboard.js';
import { createComposer } from './composer.js';

let connection = null; // the buttons below exist before the socket does
const ask = (name) => (...args) => connection?.[name](...args);

const view = createTerminalView(document.getElementById('terminal'));
const status = createStatus({
  line: document.getElementById('status'),
  notice: document.getElementById('notice'),
  empty: document.getElementById('empty'),
}, { onTakeOver: ask('take'), onNewSession: ask('newSession'), focusTerminal: view.focus });
const tabs = createTabBar(document.getElementById('tabs'), {
  onSelect: ask('select'), onNew: ask('newSession'), onEnd: ask('end'), onRename: ask('rename'),
  onTake: ask('take'), focusTerminal: view.focus,
});
// The composer follows the attached session through the same updates as the tab bar.
installClipboard(view);
const composer = createComposer(document.getElementById('composer'), {
  key: new URLSearchParams(location.search).get('k'),
  paste: (text) => connection?.paste(text) ?? false,
});
const tabsAndComposer = Object.assign(Object.create(tabs), {
  update(state) { tabs.update(state); composer.update(state); },
});
connection = openConnection({ view, status, tabs: tabsAndComposer });
