// The tab bar: one tab per live session, in the registry's order (the `sessions`
// message), named by the session's name, each with its own accent colour and an
// activity light (see activity.js for what the lights mean). The bar only asks; every
// change (new, rename, reorder, end) comes back from the server as a new list, which is
// why every window shows the same bar.
//
// - click switches; double-click (or F2) renames inline: Enter saves, Escape cancels,
//   an empty name restores the default;
// - drag reorders: a mouse, trackpad or pen drags straight away, a finger holds the tab
//   still first (tab_drag.js). While a drag is in flight the bar holds still: lists that arrive
//   meanwhile wait for the drop, because rebuilding the bar would pull the dragged
//   element out from under the pointer;
// - × (or Delete on a focused tab, or Alt+Shift+W anywhere) ends a session, after a
//   small confirm naming it;
// - arrow keys, Home and End move between tabs (one tab stop for the whole list);
// - a session another window drives carries a marker; the attached one offers Take over;
// - a session that ended with a failure stays as an ended tab after the live ones
//   (dimmed, with its exit status), until closed with its × (no confirm: nothing runs);
//   selecting it shows its last screen (ended_view.js).
// Clicks never leave the focus on the bar (keystrokes belong to the terminal), except
// for the rename field and the panels opened from it, which keep theirs.
import { createTabDrag } from './tab_drag.js';
import { describe as describeCapabilities, lockMark } from './capabilities.js';

// A stable colour per session, spread round the hue circle by the golden angle so
// neighbours (consecutive ids) never look alike.
export function accentOf(id) {
  const hue = Math.round((Number(id) * 137.508 + 200) % 360);
  return `hsl(${hue} 62% 64%)`;
}

export function createTabBar(el, {
  onSelect, onNew, onLauncher, onEnd, onRename, onReorder, onTake, focusTerminal, ask, onDismiss = () => {},
}) {
  const list = document.createElement('div');
  list.className = 'tab-list';
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', 'Sessions');
  list.setAttribute('aria-orientation', 'horizontal');

  const newButton = button('tab-new', '+', 'New session');
  newButton.title = 'New session (the default program, in the default directory)';
  newButton.addEventListener('click', () => { onNew(); focusTerminal(); });
  const chevron = button('tab-chevron', '', 'Choose what to start');
  chevron.setAttribute('aria-haspopup', 'dialog');
  chevron.setAttribute('aria-expanded', 'false');
  chevron.append(icon('M4 6l4 4 4-4'));
  chevron.addEventListener('click', () => onLauncher(chevron));
  const newGroup = document.createElement('div');
  newGroup.className = 'tab-new-group';
  newGroup.append(newButton, chevron);

  const watching = document.createElement('span');
  watching.className = 'tab-watching';
  watching.textContent = 'Watching';
  watching.title = 'Another window drives this session; your keystrokes are refused.';
  const takeButton = button('tab-take', 'Take over', 'Take over this session');
  takeButton.addEventListener('click', () => { onTake(); focusTerminal(); });
  const watcherBox = document.createElement('div');
  watcherBox.className = 'tab-watcher';
  watcherBox.append(watching, takeButton);
  watcherBox.hidden = true;

  // Buttons that are not about one session (mute, power) live at the right end.
  const tools = document.createElement('div');
  tools.className = 'tab-tools';

  // Ended sessions: a list of their own, so dragging (tab_drag.js) only ever moves live ones.
  const endedList = document.createElement('div');
  endedList.className = 'tab-ended-list';
  endedList.setAttribute('role', 'tablist');
  endedList.setAttribute('aria-label', 'Ended sessions');
  endedList.hidden = true;

  el.replaceChildren(list, endedList, newGroup, watcherBox, tools);
  // Pressing a button would move the focus to it; the rename field is the exception.
  el.addEventListener('mousedown', (event) => {
    if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
  });
  // A click on the bar itself (not on a control) gives the terminal its focus back,
  // unless a rename is under way (the field keeps it).
  el.addEventListener('click', (event) => {
    if (renaming === null && (event.target === el || event.target === list || event.target === tools)) focusTerminal();
  });

  let renaming = null; // id of the session whose name is being edited
  let heldBack = false; // a list arrived while the bar held still for a drag
  let suppressClick = false; // the click that ends a drag is not a selection
  let singleClickOn = null; // id of the tab the last first click of a pair landed on
  let last = { sessions: [], attachedId: null, driving: null, windowId: null, online: false, ended: [], viewingId: null };
  const shownActivity = new Map(); // id -> the activity its tab showed last: flash only on a change
  // The attached session's tab last brought into view. Only a switch scrolls the bar: a
  // list that changes while someone scrolls it (activity, another window) leaves it be.
  let scrolledTo = null;

  function render() {
    const { sessions, attachedId, driving, windowId, online } = last;
    el.classList.toggle('offline', !online);
    if (renaming !== null && !sessions.some((s) => s.id === renaming)) renaming = null;
    // Never pull the field away under the person's fingers, nor the dragged tab.
    if (renaming !== null) return;
    if (drag.holdsBar()) { heldBack = true; return; }
    heldBack = false;
    const focusedId = list.contains(document.activeElement)
      ? Number(document.activeElement.closest('.tab')?.dataset.session) : null;
    const tabs = sessions.map((session) => renderTab(session, {
      current: session.id === attachedId,
      drivenElsewhere: session.driver != null && windowId != null && session.driver !== windowId,
    }));
    list.replaceChildren(...tabs);
    const ended = Array.isArray(last.ended) ? last.ended : [];
    endedList.replaceChildren(...ended.map((e) => renderEnded(e, e.id === last.viewingId)));
    endedList.hidden = ended.length === 0;
    // One tab stop: the attached tab, else the first.
    const stop = tabs.find((t) => t.classList.contains('current')) ?? tabs[0];
    stop?.querySelector('[role="tab"]').setAttribute('tabindex', '0');
    if (focusedId) list.querySelector(`.tab[data-session="${focusedId}"] [role="tab"]`)?.focus();
    const attached = sessions.find((s) => s.id === attachedId);
    watcherBox.hidden = !(online && attached && driving === false);
    const selected = list.querySelector('[aria-selected="true"]');
    if (selected && attachedId !== scrolledTo) {
      scrolledTo = attachedId;
      selected.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  function renderTab(session, { current, drivenElsewhere }) {
    const tab = document.createElement('div');
    tab.className = 'tab';
    tab.setAttribute('role', 'presentation');
    tab.classList.toggle('current', current);
    tab.dataset.session = String(session.id);
    const activity = session.activity ?? 'idle';
    tab.dataset.activity = activity;
    const before = shownActivity.get(session.id);
    shownActivity.set(session.id, activity);
    if ((activity === 'finished' || activity === 'waiting') && before !== undefined && before !== activity) {
      tab.classList.add('flash');
    }
    // Rebuilt tabs carry on the orbit where it was instead of restarting it.
    if (activity === 'working') tab.style.setProperty('--orbit-delay', `-${Date.now() % 1600}ms`);
    tab.style.setProperty('--tab-accent', accentOf(session.id));

    const light = document.createElement('span');
    light.className = 'tab-light';
    light.setAttribute('aria-hidden', 'true');

    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'tab-name';
    name.id = `tab-${session.id}`;
    name.setAttribute('role', 'tab');
    name.setAttribute('aria-selected', String(current));
    name.setAttribute('aria-controls', 'terminal');
    name.setAttribute('tabindex', '-1');
    name.textContent = session.name;
    const what = [session.program && session.program !== session.name ? session.program : null,
      session.cwd || null].filter(Boolean).join(' in ');
    const state = describeActivity(session.activity);
    const driven = drivenElsewhere ? 'driven by another window' : null;
    const shared = session.shared_shell ? 'the shared shell' : null;
    // What it may do (capabilities.js) and the decisions it waits on (decision_card.js).
    const caps = describeCapabilities(session.capabilities);
    const pending = last.pending?.get?.(session.id) ?? 0;
    const asks = pending ? `${pending} decision${pending === 1 ? '' : 's'} waiting` : null;
    const extra = [shared, state, driven, asks].filter(Boolean).join(', ');
    const description = [extra, caps?.sandboxed ? 'in a sandbox' : null].filter(Boolean).join(', ');
    if (description) name.setAttribute('aria-description', description);
    name.title = `${session.name}${what ? ` — ${what}` : ''}${extra ? ` (${extra})` : ''}\n`
      + `${caps ? `${caps.line}\n` : ''}Double-click to rename, drag (or touch and hold) to reorder`;
    name.addEventListener('click', (event) => {
      if (suppressClick) { event.preventDefault(); return; }
      if (event.detail === 1) singleClickOn = session.id;
      if (!current) onSelect(session.id);
      focusTerminal();
    });
    // Both clicks on this tab: a browser also counts a tap that follows a finger's
    // release after a pickup (whose own click was cancelled) as the second of a pair.
    name.addEventListener('dblclick', () => { if (singleClickOn === session.id) startRename(tab, session); });
    name.addEventListener('keydown', (event) => onTabKey(event, tab, session));
    tab.append(light, name);

    if (session.shared_shell) {
      const shared = document.createElement('span');
      shared.className = 'tab-shared';
      shared.textContent = 'shared';
      shared.title = 'The shared shell: programs and agents run commands here while you watch';
      shared.setAttribute('aria-hidden', 'true');
      tab.append(shared);
    }
    if (caps?.sandboxed) tab.append(lockMark(caps, 'tab-sandbox'));
    if (pending && !current) {
      const badge = document.createElement('span');
      badge.className = 'tab-decisions';
      badge.textContent = String(pending);
      badge.title = asks;
      badge.setAttribute('aria-hidden', 'true'); // the tab's description says it
      tab.append(badge);
    }
    if (drivenElsewhere) {
      const marker = document.createElement('span');
      marker.className = 'tab-driven';
      marker.title = 'Another window drives this session';
      marker.setAttribute('aria-hidden', 'true');
      tab.append(marker);
    }

    const close = button('tab-close', '', `End ${session.name}`);
    close.append(icon('M4.5 4.5l7 7M11.5 4.5l-7 7'));
    close.tabIndex = -1; // the keyboard way is Delete on the tab
    close.addEventListener('click', () => confirmEnd(session, close));
    tab.append(close);

    tab.addEventListener('pointerdown', (event) => drag.start(event, tab));
    return tab;
  }

  function renderEnded(ended, current) {
    const tab = document.createElement('div');
    tab.className = 'tab ended';
    tab.setAttribute('role', 'presentation');
    tab.classList.toggle('current', current);
    tab.dataset.session = String(ended.id);
    tab.style.setProperty('--tab-accent', accentOf(ended.id));
    const mark = document.createElement('span');
    mark.className = 'tab-ended-mark';
    if (ended.crashed || ended.signal) mark.textContent = ended.crashed ? 'lost' : ended.signal.replace(/^SIG/, '');
    else {
      const word = document.createElement('span');
      word.className = 'tab-ended-word'; // "exit ": left out on a phone, where room is short
      word.textContent = 'exit ';
      mark.append(word, String(ended.code ?? '?'));
    }
    mark.setAttribute('aria-hidden', 'true');
    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'tab-name';
    name.id = `tab-${ended.id}`;
    name.setAttribute('role', 'tab');
    name.setAttribute('aria-selected', String(current));
    name.setAttribute('aria-controls', 'terminal');
    name.setAttribute('tabindex', current ? '0' : '-1');
    name.textContent = ended.name;
    const how = ended.crashed ? 'its host went away' : ended.signal ? `killed by ${ended.signal}` : `exited with status ${ended.code}`;
    name.setAttribute('aria-description', `ended: ${how}`);
    name.title = `${ended.name} — ended (${how})\nClick to see its last screen; × closes the tab`;
    name.addEventListener('click', () => { onSelect(ended.id); focusTerminal(); });
    name.addEventListener('keydown', (event) => {
      if (event.key === 'Delete') { event.preventDefault(); onDismiss(ended.id); focusTerminal(); }
      else if (event.key === 'Escape') { event.preventDefault(); focusTerminal(); }
    });
    const close = button('tab-close', '', `Close ${ended.name}`);
    close.append(icon('M4.5 4.5l7 7M11.5 4.5l-7 7'));
    close.tabIndex = -1;
    close.addEventListener('click', () => { onDismiss(ended.id); focusTerminal(); });
    tab.append(mark, name, close);
    return tab;
  }

  async function confirmEnd(session, anchor) {
    const program = session.program && session.program !== session.name ? ` (${session.program})` : '';
    const yes = await ask({
      title: `End ${session.name}?`,
      text: `Its program${program} is stopped, and anything running in it with it.`,
      confirm: 'End session',
      danger: true,
      anchor,
    });
    if (yes) onEnd(session.id);
    focusTerminal();
  }

  function onTabKey(event, tab, session) {
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    const at = tabs.indexOf(event.currentTarget);
    let to = null;
    if (event.key === 'ArrowRight') to = (at + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') to = (at - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = tabs.length - 1;
    else if (event.key === 'Delete') { event.preventDefault(); confirmEnd(session, tab); return; }
    else if (event.key === 'F2') { event.preventDefault(); startRename(tab, session); return; }
    else if (event.key === 'Escape') { event.preventDefault(); focusTerminal(); return; }
    if (to === null) return;
    event.preventDefault();
    for (const t of tabs) t.setAttribute('tabindex', '-1');
    tabs[to].setAttribute('tabindex', '0');
    tabs[to].focus();
  }

  function startRename(tab, session) {
    renaming = session.id;
    const field = document.createElement('input');
    field.className = 'tab-rename';
    field.value = session.name;
    field.maxLength = 64;
    field.placeholder = 'default name';
    field.setAttribute('aria-label', `Rename ${session.name}`);
    let done = false;
    const finish = (commit) => {
      if (done) return;
      done = true;
      renaming = null;
      const value = field.value.trim();
      if (commit && value !== session.name) onRename(session.id, value); // empty: default name
      field.remove();
      render();
      focusTerminal();
    };
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true);
      else if (event.key === 'Escape') finish(false);
      event.stopPropagation();
    });
    field.addEventListener('blur', () => finish(true));
    field.addEventListener('pointerdown', (event) => event.stopPropagation()); // no drag
    tab.querySelector('.tab-name').hidden = true;
    tab.querySelector('.tab-light').after(field);
    field.focus();
    field.select();
  }

  // ---- drag to reorder (tab_drag.js) --------------------------------------------
  const drag = createTabDrag(list, {
    canStart: () => renaming === null && last.online,
    onEnd({ lifted, order }) {
      if (order) {
        // Show the new order at once; the server's list confirms it (or puts it back).
        const byId = new Map(last.sessions.map((s) => [s.id, s]));
        if (order.every((id) => byId.has(id)) && order.length === last.sessions.length) {
          last = { ...last, sessions: order.map((id) => byId.get(id)) };
        }
        onReorder(order);
      }
      // Whatever list arrived during the press. After a plain press, only once its click
      // (and a double-click's) has landed on the tab that was pressed.
      if (lifted) render();
      else if (heldBack) setTimeout(render, 0);
      if (!lifted) return;
      // A mouse's click follows its pointerup at once (a finger's is cancelled in tab_drag.js).
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
      focusTerminal();
    },
  });

  // Alt+Shift+W ends the attached session (after asking), wherever the focus is.
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey || event.code !== 'KeyW') return;
    const session = last.sessions.find((s) => s.id === last.attachedId);
    if (!session || !last.online) return;
    event.preventDefault();
    event.stopPropagation();
    confirmEnd(session, list.querySelector('.tab.current') ?? list);
  }, true);

  return {
    tools,
    update(state) {
      last = { ...last, ...state };
      render();
    },
    // The launcher panel says when it opens and closes, for aria-expanded.
    setLauncherOpen(open) { chevron.setAttribute('aria-expanded', String(open)); chevron.classList.toggle('open', open); },
  };
}

function describeActivity(activity) {
  if (activity === 'working') return 'working';
  if (activity === 'finished') return 'finished';
  if (activity === 'waiting') return 'waiting for you';
  return null;
}

export function button(className, text, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.title = label;
  return b;
}

// A small stroked 16×16 icon (decorative: the button carries the name).
export function icon(path, { fill = false } = {}) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', path);
  p.setAttribute('fill', fill ? 'currentColor' : 'none');
  p.setAttribute('stroke', fill ? 'none' : 'currentColor');
  p.setAttribute('stroke-width', '1.5');
  p.setAttribute('stroke-linecap', 'round');
  p.setAttribute('stroke-linejoin', 'round');
  svg.append(p);
  return svg;
}
