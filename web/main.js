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
import { installTerminalPaste } from './terminal_paste.js';
import { createEndedView } from './ended_view.js';
import { createComposer } from './composer.js';
// The web pane beside the terminal: the page the attached session published.
import { createPane } from './pane.js';
// The status strip under the terminal: what the session's program reports about itself.
import { createStatusStrip } from './status_strip.js';
// -- the bar's company: launcher, activity, curtain, power (one module each) --
import { ask as askConfirm } from './confirm.js';
import { createLauncher } from './launcher.js';
import { createActivity } from './activity.js';
import { createCurtain } from './curtain.js';
import { createPower } from './power.js';
// -- settings and the shortcut overlay (the gear in the bar) --
import { createSettings } from './settings.js';
// -- notifications: deep links to a session, and whether a person looks at this window --
import { installDeepLink } from './deep_link.js';
import { installLooking } from './looking.js';
import { createShortcuts } from './shortcuts.js';
// -- touch devices: the key toolbar and when the terminal may raise the soft keyboard --
import { createKeyToolbar, toolbarWanted, isTouchDevice } from './key_toolbar.js';
import { installTouchFocus, focusOnTapWanted } from './touch_focus.js';
// -- the phone page: the session picker, touch scrolling, pinch for the font, watching --
import { createSessionPicker } from './session_picker.js';
import { installTouchScroll } from './touch_scroll.js';
import { installPinchZoom } from './pinch_zoom.js';
import { createWatchBar } from './watch_view.js';
import { keepShell } from './offline.js';
// -- sandboxes: what a session may do, and the guarded commands waiting for a person --
import { learnHome } from './capabilities.js';
import { createDecisionCard } from './decision_card.js';

let connection = null; // the buttons below exist before the socket does
let launcher = null; // the empty state's "Choose…" opens it
const ask = (name) => (...args) => connection?.[name](...args);

const view = createTerminalView(document.getElementById('terminal'));
const touchFocus = installTouchFocus(view, document.getElementById('terminal'), {
  raiseOnTap: focusOnTapWanted(location.search, isTouchDevice()),
});
const status = createStatus({
  line: document.getElementById('status'),
  notice: document.getElementById('notice'),
  empty: document.getElementById('empty'),
}, { onTakeOver: ask('take'), onNewSession: ask('newSession'), onChoose: (at) => launcher?.toggle(at), focusTerminal: view.focus });

// -- the tab bar and what hangs off it --
const pageKey = new URLSearchParams(location.search).get('k');
let tabs = null;
launcher = createLauncher({
  key: pageKey, onLaunch: (what) => connection?.newSession(what, { wait: true }), focusTerminal: view.focus,
  onOpenChange: (open) => tabs?.setLauncherOpen(open),
});
tabs = createTabBar(document.getElementById('tabs'), {
  onSelect: ask('select'), onNew: ask('newSession'), onEnd: ask('end'), onRename: ask('rename'),
  onReorder: ask('reorder'), onTake: ask('take'), onLauncher: (anchor) => launcher.toggle(anchor),
  focusTerminal: view.focus, ask: askConfirm, onDismiss: ask('dismiss'),
});
// An ended session's banner over its last screen (ended_view.js), with Close.
const endedView = createEndedView(document.getElementById('ended'), { onClose: ask('dismiss'), focusTerminal: view.focus });
const activity = createActivity({ onSeen: ask('seen'), terminalEl: document.getElementById('terminal') });
const curtain = createCurtain(document.getElementById('curtain'), {
  key: pageKey, inert: [document.getElementById('tabs'), document.getElementById('empty'), document.getElementById('notice')],
});
const power = createPower({
  key: pageKey, onStopping: () => curtain.stopping(), onError: (text) => status.error(text), focusTerminal: view.focus,
});
const shortcuts = createShortcuts({ focusTerminal: view.focus });
let sessionNames = new Map(); // id -> name, for notifications
let sessionActivity = new Map(); // id -> activity, for notifications
const looking = installLooking({ send: (on) => connection?.looking(on) ?? false });
const settings = createSettings({
  key: pageKey, view, activity, sessionName: (id) => sessionNames.get(id),
  onShortcuts: () => shortcuts.open(), focusTerminal: view.focus,
  // config.toml's [page] focus: whether a tap raises the soft keyboard (touch_focus.js).
  onOperatorDefaults: (page) => touchFocus.setRaiseOnTap(focusOnTapWanted(location.search, isTouchDevice(), page.focus)),
});
tabs.tools.append(activity.bell, settings.button, power.element);
const pane = createPane({ send: (msg) => connection?.paneFeedback(msg) ?? false, focusTerminal: view.focus });
tabs.tools.prepend(pane.toggle);
const strip = createStatusStrip(document.getElementById('status-strip'));
// Pending decisions: a card over the terminal, a count on the other tabs and in the picker.
const decisionCard = createDecisionCard({
  onDecide: (id, approve, note) => connection?.decide(id, approve, note) ?? false,
  onSelect: ask('select'), focusTerminal: view.focus,
});

// -- the terminal's companions: the clipboard (OSC 52) and the composer below it --
installClipboard(view);
// Every paste into the terminal goes through the daemon's cleaning (terminal_paste.js).
installTerminalPaste(view, document.getElementById('terminal'), {
  paste: (text) => connection?.paste(text, { submit: false, from: 'terminal' }) ?? false,
});
const composer = createComposer(document.getElementById('composer'), {
  key: pageKey,
  paste: (text) => connection?.paste(text) ?? false,
});
// The session picker (session_picker.js): the toolbar's sessions key and, on a narrow
// window, a button in the tab bar open it.
const picker = createSessionPicker({
  onSelect: ask('select'), onNew: ask('newSession'), focusTerminal: view.focus,
  // The launcher opens under its own chevron in the bar (it unfolds downwards).
  onChoose: () => launcher.toggle(document.querySelector('#tabs .tab-chevron')),
});
tabs.tools.prepend(picker.opener);
// One finger scrolls with momentum, two pinch the font size (touch_scroll.js, pinch_zoom.js).
installTouchScroll(view, document.getElementById('terminal'));
installPinchZoom(view, document.getElementById('terminal'), {
  fontSize: () => settings.current().fontSize, commit: (size) => settings.set('fontSize', size),
});
// The key toolbar (touch devices, or ?toolbar=1) sits at the top of the composer, whose
// height the terminal already makes room for; a watching phone's bar (watch_view.js) too.
let watchBar = null;
if (toolbarWanted()) {
  const toolbar = createKeyToolbar({
    view,
    paste: (text) => view.term.paste(text), // terminal_paste.js: the cleaning path
    notify: (text) => status.error(text, 'info'),
    raiseKeyboard: () => touchFocus.raise(),
    onSessions: () => picker.toggle(),
  });
  watchBar = createWatchBar({ view, onTake: ask('take') });
  document.getElementById('composer').prepend(watchBar.element, toolbar.element);
}

// Everything that follows the session list hears it from one place.
const bar = {
  update(state) {
    tabs.update(state); activity.update(state); power.update(state); composer.update(state); pane.update(state);
    sessionNames = new Map((state.sessions ?? []).map((s) => [s.id, s.name]));
    sessionActivity = new Map((state.sessions ?? []).map((s) => [s.id, s.activity]));
    picker.update(state); watchBar?.update(state); decisionCard.update(state);
    if ('attachedId' in state) strip.capabilities(state.sessions?.find((s) => s.id === state.attachedId)?.capabilities);
  },
};
const hooks = {
  up: (hello) => { looking.connected(); curtain.up(); settings.refresh(); power.setKeepsSessions(hello?.keeps_sessions === true); keepShell(); },
  down: () => { launcher.close(); curtain.down(); hooks.decisions([]); }, // the list comes again on attach
  stopping: (kept) => curtain.stopping(kept),
  keyRotated: () => curtain.keyRotated(),
  deviceRevoked: () => curtain.deviceRevoked(),
  pane: (msg) => pane.pane(msg),
  status: (msg) => { learnHome(msg?.status); strip.status(msg); },
  decisions: (list) => {
    decisionCard.decisions(list);
    const pending = decisionCard.counts();
    tabs.update({ pending }); picker.update({ pending });
  },
  endedShow: (record) => endedView.show(record),
  endedHide: () => endedView.hide(),
  paneFiled: (msg) => pane.filed(msg),
  paneRefused: (msg) => pane.refused(msg),
  chime: (id) => { activity.chime(); settings.notify(id, sessionActivity.get(id)); },
  pasted: (msg, from) => {
    if (from !== 'terminal') composer.pasted(msg);
    else if (msg.removed > 0) status.error(`${msg.removed} character${msg.removed === 1 ? '' : 's'} of control codes were removed from the paste.`, 'info');
  },
};

// Before the connection: a `#session=ID` link decides the first attach.
installDeepLink({ select: ask('select'), has: (id) => sessionNames.has(id) });
connection = openConnection({ view, status, tabs: bar, hooks });
