// The session picker: a sheet listing every session, for a phone, where the tab strip
// shows one and a half tabs. Each row says the session's name, what it runs, what it is
// doing (working, waiting, finished, idle; an ended one: exited) and how long ago it
// started; the one on screen is marked. One tap on a row switches to it and closes the
// sheet. Opened by the key toolbar's ☰ and, on a narrow window, by a button in the tab
// bar; a wide window keeps the tab strip as its way to switch.
//
// Invariants:
// - It is a modal <dialog> (role dialog, named "Sessions"): the browser keeps the focus
//   inside it and makes the rest of the page inert; Escape, the × and a tap on the
//   backdrop close it. Closing gives the focus back to the terminal through the page's
//   focus path (view.focus), which touch_focus.js gates: on a touch device neither
//   opening, switching nor closing raises the soft keyboard.
// - It shows the page's own session list (the `sessions` message, via update()), so it
//   changes live while open; the ages tick while it is open and nowhere else.
// - It only asks (onSelect, onNew, onChoose); the connection does the rest.
import { accentOf, button, icon } from './tab_bar.js';
import { describe as describeCapabilities, lockIcon } from './capabilities.js';

const TICK_MS = 15000; // how often the ages are redrawn while the sheet is open
const LIST = 'M3 4h10M3 8h10M3 12h10';

// "just now", "40 s", "3 min", "2 h 5 min", "3 d": short enough for a phone's row.
export function age(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 10) return 'just now';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

// The word for a row's state: the daemon's activity, or exited for an ended session.
export function stateOf(session, ended = false) {
  if (ended) return 'exited';
  return ['working', 'waiting', 'finished'].includes(session.activity) ? session.activity : 'idle';
}

const STATE_SAID = { working: 'working', waiting: 'waiting for you', finished: 'finished', idle: 'idle', exited: 'exited' };

// onSelect(id): switch to that session; onNew(): a new session with the defaults;
// onChoose(): the launcher; focusTerminal(): the page's focus path.
export function createSessionPicker({ onSelect, onNew, onChoose, focusTerminal, now = () => Date.now() }) {
  const dialog = document.createElement('dialog');
  dialog.className = 'session-picker';
  dialog.id = 'session-picker';
  dialog.setAttribute('aria-labelledby', 'session-picker-title');
  const head = document.createElement('header');
  head.className = 'picker-head';
  const title = document.createElement('h2');
  title.id = 'session-picker-title';
  title.textContent = 'Sessions';
  const count = document.createElement('span');
  count.className = 'picker-count';
  const closeButton = button('picker-close', '', 'Close the session list');
  closeButton.append(icon('M4.5 4.5l7 7M11.5 4.5l-7 7'));
  head.append(title, count, closeButton);
  const list = document.createElement('ul');
  list.className = 'picker-list';
  const foot = document.createElement('footer');
  foot.className = 'picker-foot';
  const newButton = button('picker-new', 'New session', 'New session (the default program)');
  const chooseButton = button('picker-choose', 'Choose…', 'Choose what to start');
  foot.append(newButton, chooseButton);
  dialog.append(head, list, foot);
  document.body.append(dialog);

  // The bar's button (narrow windows, style.css shows it): the list icon and a count.
  const opener = button('tab-picker', '', 'All sessions');
  opener.setAttribute('aria-haspopup', 'dialog');
  opener.setAttribute('aria-expanded', 'false');
  const openerCount = document.createElement('span');
  openerCount.className = 'tab-picker-count';
  openerCount.setAttribute('aria-hidden', 'true');
  opener.append(icon(LIST), openerCount);

  let last = { sessions: [], ended: [], attachedId: null, viewingId: null, pending: new Map() };
  let tick = 0;
  let giveFocusBack = true;

  function row(session, { ended = false, current = false } = {}) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'picker-item';
    b.dataset.session = String(session.id);
    const state = stateOf(session, ended);
    b.dataset.state = state;
    b.style.setProperty('--tab-accent', accentOf(session.id));
    if (current) b.setAttribute('aria-current', 'true');
    const chip = document.createElement('span');
    chip.className = 'picker-chip';
    chip.setAttribute('aria-hidden', 'true');
    const main = document.createElement('span');
    main.className = 'picker-main';
    const name = document.createElement('span');
    name.className = 'picker-name';
    name.textContent = session.name;
    const what = document.createElement('span');
    what.className = 'picker-what';
    const runs = [session.program || null, session.kind && session.kind !== session.program ? session.kind : null]
      .filter(Boolean).join(' · ');
    what.textContent = [runs, session.cwd || null].filter(Boolean).join(' — ');
    main.append(name, what);
    const meta = document.createElement('span');
    meta.className = 'picker-meta';
    const badge = document.createElement('span');
    badge.className = 'picker-state';
    badge.dataset.state = state;
    badge.textContent = ended ? exitWord(session) : state;
    const when = document.createElement('span');
    when.className = 'picker-age';
    when.dataset.created = String(session.created ?? '');
    // Sandbox or not (capabilities.js), and decisions it waits on (decision_card.js).
    const caps = ended ? null : describeCapabilities(session.capabilities);
    const pending = ended ? 0 : last.pending.get(session.id) ?? 0;
    // Both lead the second line, whose end an ellipsis may cut.
    if (caps) {
      const mark = document.createElement('span');
      mark.className = 'picker-sandbox';
      mark.dataset.sandboxed = String(caps.sandboxed);
      if (caps.sandboxed) mark.append(lockIcon());
      mark.append(caps.mark);
      what.prepend(mark);
    }
    if (pending) {
      const asks = document.createElement('span');
      asks.className = 'picker-decisions';
      asks.textContent = pending === 1 ? '1 decision' : `${pending} decisions`;
      what.prepend(asks);
    }
    meta.append(badge, when);
    b.append(chip, main, meta);
    b.setAttribute('aria-description', [STATE_SAID[state], session.shared_shell ? 'the shared shell' : null,
      pending ? `${pending} decision${pending === 1 ? '' : 's'} waiting` : null, caps ? caps.line : null]
      .filter(Boolean).join(', '));
    // The press must not move the focus anywhere the soft keyboard could follow.
    b.addEventListener('click', () => {
      giveFocusBack = true;
      if (!current) onSelect(session.id);
      close();
    });
    li.append(b);
    return li;
  }

  function exitWord(e) {
    if (e.crashed) return 'exited (lost)';
    if (e.signal) return `exited (${e.signal.replace(/^SIG/, '')})`;
    return `exited (${e.code ?? '?'})`;
  }

  function drawAges() {
    for (const el of list.querySelectorAll('.picker-age')) {
      const created = Number(el.dataset.created);
      el.textContent = created > 0 ? age(now() - created) : '';
      el.title = created > 0 ? `started ${new Date(created).toLocaleString()}` : '';
    }
  }

  function render() {
    const { sessions, ended, attachedId, viewingId } = last;
    const focusedId = list.contains(document.activeElement) ? document.activeElement.dataset.session : null;
    const rows = [
      ...sessions.map((s) => row(s, { current: s.id === attachedId && viewingId == null })),
      ...ended.map((e) => row(e, { ended: true, current: e.id === viewingId })),
    ];
    list.replaceChildren(...rows);
    if (rows.length === 0) {
      const li = document.createElement('li');
      li.className = 'picker-none';
      li.textContent = 'No sessions yet.';
      list.append(li);
    }
    drawAges();
    const total = sessions.length;
    count.textContent = total === 1 ? '1 running' : `${total} running`;
    openerCount.textContent = String(total);
    opener.title = `All sessions (${total})`;
    // The person's place survives a live update of the list.
    if (focusedId) list.querySelector(`[data-session="${focusedId}"]`)?.focus();
  }

  function open() {
    render();
    if (!dialog.open) dialog.showModal();
    opener.setAttribute('aria-expanded', 'true');
    // The current row (else the first) takes the focus: a button, so no soft keyboard.
    (list.querySelector('[aria-current="true"]') ?? list.querySelector('button') ?? closeButton).focus();
    list.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
    clearInterval(tick);
    tick = setInterval(drawAges, TICK_MS);
  }
  function close(focusBack = true) {
    giveFocusBack = focusBack;
    if (dialog.open) dialog.close();
  }
  // Escape (cancel), the ×, a row, the backdrop: all end here.
  dialog.addEventListener('close', () => {
    clearInterval(tick);
    tick = 0;
    opener.setAttribute('aria-expanded', 'false');
    if (giveFocusBack) focusTerminal?.();
    giveFocusBack = true;
  });
  // A tap outside the sheet lands on the dialog element itself (its backdrop).
  dialog.addEventListener('click', (event) => { if (event.target === dialog) close(); });
  closeButton.addEventListener('click', () => close());
  newButton.addEventListener('click', () => { close(); onNew?.(); });
  chooseButton.addEventListener('click', () => { close(false); onChoose?.(); });
  opener.addEventListener('click', () => (dialog.open ? close() : open()));
  // Pressing the bar's button must not take the focus (and the keyboard) from the terminal.
  opener.addEventListener('pointerdown', (event) => event.preventDefault());

  return {
    opener,
    element: dialog,
    open,
    close,
    toggle: () => (dialog.open ? close() : open()),
    isOpen: () => dialog.open,
    // The page's session state (connection.js's showTabs): kept, and redrawn if open.
    update(state) {
      last = {
        sessions: Array.isArray(state.sessions) ? state.sessions : last.sessions,
        ended: Array.isArray(state.ended) ? state.ended : last.ended,
        attachedId: 'attachedId' in state ? state.attachedId : last.attachedId,
        viewingId: 'viewingId' in state ? state.viewingId : last.viewingId,
        pending: state.pending instanceof Map ? state.pending : last.pending,
      };
      if (dialog.open) render();
      else openerCount.textContent = String(last.sessions.length);
    },
  };
}
