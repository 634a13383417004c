// The tab bar: one tab per live session, in the registry's order (the `sessions`
// message), named by the session's name. The attached tab is highlighted; when another
// window drives it, the tab carries a small marker and the bar offers "Take over".
// A click switches, `+` starts a session, × ends one (after asking), a double-click
// renames. The bar only asks; every change comes back from the server as a new list.
// Clicks never leave the focus on the bar: keystrokes belong to the terminal.

export function createTabBar(el, { onSelect, onNew, onEnd, onRename, onTake, focusTerminal }) {
  const list = document.createElement('div');
  list.className = 'tab-list';
  list.setAttribute('role', 'tablist');
  list.setAttribute('aria-label', 'Sessions');

  const newButton = button('tab-new', '+', 'New session');
  newButton.addEventListener('click', () => { onNew(); focusTerminal(); });

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

  el.replaceChildren(list, newButton, watcherBox);
  // Pressing a button would move the focus to it; the rename field is the exception.
  el.addEventListener('mousedown', (event) => {
    if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
  });

  let renaming = null; // id of the session whose name is being edited

  function render({ sessions, attachedId, driving, windowId, online }) {
    el.classList.toggle('offline', !online);
    if (renaming !== null && !sessions.some((s) => s.id === renaming)) renaming = null;
    if (renaming !== null) return; // never pull the field away under the person's fingers
    const tabs = sessions.map((session) => renderTab(session, {
      current: session.id === attachedId,
      drivenElsewhere: session.id === attachedId && session.driver != null && session.driver !== windowId,
    }));
    list.replaceChildren(...tabs);
    const attached = sessions.find((s) => s.id === attachedId);
    watcherBox.hidden = !(online && attached && driving === false);
    list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function renderTab(session, { current, drivenElsewhere }) {
    const tab = document.createElement('div');
    tab.className = 'tab';
    tab.classList.toggle('current', current);
    tab.dataset.session = String(session.id);

    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'tab-name';
    name.setAttribute('role', 'tab');
    name.setAttribute('aria-selected', String(current));
    name.textContent = session.name;
    name.title = `${session.name}${session.cwd ? ` — ${session.cwd}` : ''} (double-click to rename)`;
    name.addEventListener('click', () => {
      if (!current) onSelect(session.id);
      focusTerminal();
    });
    name.addEventListener('dblclick', () => startRename(tab, session));
    tab.append(name);

    if (drivenElsewhere) {
      const marker = document.createElement('span');
      marker.className = 'tab-driven';
      marker.title = 'Another window drives this session';
      marker.setAttribute('aria-label', 'driven by another window');
      tab.append(marker);
    }

    const close = button('tab-close', '×', `End ${session.name}`);
    close.addEventListener('click', () => {
      // confirm() takes the focus; give it back whatever the answer.
      if (window.confirm(`End ${session.name}?`)) onEnd(session.id);
      focusTerminal();
    });
    tab.append(close);
    return tab;
  }

  function startRename(tab, session) {
    renaming = session.id;
    const field = document.createElement('input');
    field.className = 'tab-rename';
    field.value = session.name;
    field.maxLength = 64;
    field.setAttribute('aria-label', `Rename ${session.name}`);
    let done = false;
    const finish = (commit) => {
      if (done) return;
      done = true;
      renaming = null;
      const value = field.value.trim();
      if (commit && value !== session.name) onRename(session.id, value); // empty: default name
      field.remove();
      rerender();
      focusTerminal();
    };
    field.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true);
      else if (event.key === 'Escape') finish(false);
      event.stopPropagation();
    });
    field.addEventListener('blur', () => finish(true));
    tab.querySelector('.tab-name').hidden = true;
    tab.prepend(field);
    field.focus();
    field.select();
  }

  let last = { sessions: [], attachedId: null, driving: null, windowId: null, online: false };
  function rerender() { render(last); }

  return {
    update(state) {
      last = { ...last, ...state };
      render(last);
    },
  };
}

function button(className, text, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.title = label;
  return b;
}
