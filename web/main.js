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
// -- the bar's company: launcher, activity, curtain, power (one module each) --
import { ask as askConfirm } from './confirm.js';
import { createLauncher } from './launcher.js';
import { createActivity } from './activity.js';
import { createCurtain } from './curtain.js';
import { createPower } from './power.js';

let connection = null; // the buttons below exist before the socket does
let launcher = null; // the empty state's "Choose…" opens it
const ask = (name) => (...args) => connection?.[name](...args);

const view = createTerminalView(document.getElementById('terminal'));
const status = createStatus({
  line: document.getElementById('status'),
  notice: document.getElementById('notice'),
  empty: document.getElementById('empty'),
}, { onTakeOver: ask('take'), onNewSession: ask('newSession'), onChoose: (at) => launcher?.toggle(at), focusTerminal: view.focus });

// -- the tab bar and what hangs off it --
const pageKey = new URLSearchParams(location.search).get('k');
let tabs = null;
launcher = createLauncher({
  key: pageKey, onLaunch: ask('newSession'), focusTerminal: view.focus,
  onOpenChange: (open) => tabs?.setLauncherOpen(open),
});
tabs = createTabBar(document.getElementById('tabs'), {
  onSelect: ask('select'), onNew: ask('newSession'), onEnd: ask('end'), onRename: ask('rename'),
  onReorder: ask('reorder'), onTake: ask('take'), onLauncher: (anchor) => launcher.toggle(anchor),
  focusTerminal: view.focus, ask: askConfirm,
});
const activity = createActivity({ onSeen: ask('seen'), terminalEl: document.getElementById('terminal') });
const curtain = createCurtain(document.getElementById('curtain'), {
  key: pageKey, inert: [document.getElementById('tabs'), document.getElementById('empty'), document.getElementById('notice')],
});
const power = createPower({
  key: pageKey, onStopping: () => curtain.stopping(), onError: (text) => status.error(text), focusTerminal: view.focus,
});
tabs.tools.append(activity.bell, power.element);

// -- the terminal's companions: the clipboard (OSC 52) and the composer below it --
installClipboard(view);
const composer = createComposer(document.getElementById('composer'), {
  key: pageKey,
  paste: (text) => connection?.paste(text) ?? false,
});

// Everything that follows the session list hears it from one place.
const bar = {
  update(state) { tabs.update(state); activity.update(state); power.update(state); composer.update(state); },
};
const hooks = {
  up: (hello) => { curtain.up(); power.setKeepsSessions(hello?.keeps_sessions === true); },
  down: () => { launcher.close(); curtain.down(); },
  stopping: (kept) => curtain.stopping(kept),
  keyRotated: () => curtain.keyRotated(),
  chime: () => activity.chime(),
  pasted: (msg) => composer.pasted(msg),
};

connection = openConnection({ view, status, tabs: bar, hooks });
