// The launcher: the panel under the chevron beside `+`. A session is one catalog entry
// in one directory, both fixed for its life, so the panel asks both at once: what to
// run (agents, shells and actions from /api/status's catalog; the known agents that are
// not installed are shown, disabled, so the person learns they exist) and where
// (suggestions from /api/dirs; anything inside the workspace can be typed, the daemon
// checks it). Starting sends `new` with kind, entry and cwd, and nothing else moves:
// the defaults stay where they are. Escape, the chevron again, or a click outside close it.
const GROUPS = [['agent', 'Agents'], ['shell', 'Shells'], ['action', 'Actions']];

export function createLauncher({ key, onLaunch, onOpenChange, focusTerminal }) {
  const panel = document.createElement('div');
  panel.className = 'launcher';
  panel.id = 'launcher';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'Start a session');
  panel.hidden = true;
  document.body.append(panel);

  let anchor = null;
  let choice = null; // { kind, name }
  let token = 0; // the answers of an earlier opening are dropped

  async function fetchJson(path) {
    const res = await fetch(path, { headers: { 'X-Wharf-Key': key ?? '' }, cache: 'no-store' });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  }

  function build(status, dirs) {
    panel.replaceChildren();
    const title = document.createElement('h2');
    title.textContent = 'Start a session';
    panel.append(title);

    const picker = document.createElement('div');
    picker.className = 'launcher-entries';
    picker.setAttribute('role', 'radiogroup');
    picker.setAttribute('aria-label', 'Program');
    const catalog = Array.isArray(status?.catalog) ? status.catalog : [];
    const defaultKind = status?.default_kind ?? 'agent';
    const defaultName = status?.default_agent ?? null;
    const radios = [];
    for (const [kind, label] of GROUPS) {
      const entries = catalog.filter((e) => e.kind === kind);
      if (!entries.length) continue;
      const heading = document.createElement('div');
      heading.className = 'launcher-group';
      heading.textContent = label;
      picker.append(heading);
      for (const entry of entries) {
        const item = document.createElement('button');
        item.type = 'button';
        item.className = 'launcher-entry';
        item.setAttribute('role', 'radio');
        item.dataset.kind = entry.kind;
        item.dataset.name = entry.name;
        const name = document.createElement('span');
        name.textContent = entry.name;
        item.append(name);
        const installed = entry.installed !== false;
        if (!installed) {
          item.disabled = true;
          item.setAttribute('aria-disabled', 'true');
          const note = document.createElement('span');
          note.className = 'launcher-note';
          note.textContent = 'not installed';
          item.append(note);
        } else if (entry.kind === defaultKind && entry.name === defaultName) {
          const note = document.createElement('span');
          note.className = 'launcher-note';
          note.textContent = 'default';
          item.append(note);
        }
        item.setAttribute('aria-label', `${entry.name}${installed ? '' : ' (not installed)'}`);
        item.addEventListener('click', () => pick(entry.kind, entry.name));
        item.addEventListener('dblclick', () => { pick(entry.kind, entry.name); start(); });
        picker.append(item);
        radios.push(item);
      }
    }
    if (!radios.length) {
      const none = document.createElement('p');
      none.className = 'launcher-note';
      none.textContent = 'Nothing can start: the catalog is empty.';
      picker.append(none);
    }
    picker.addEventListener('keydown', (event) => {
      const live = radios.filter((r) => !r.disabled);
      const at = live.indexOf(document.activeElement);
      if (at < 0) return;
      let to = null;
      if (event.key === 'ArrowDown' || event.key === 'ArrowRight') to = (at + 1) % live.length;
      if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') to = (at - 1 + live.length) % live.length;
      if (to === null) return;
      event.preventDefault();
      pick(live[to].dataset.kind, live[to].dataset.name);
      live[to].focus();
    });
    panel.append(picker);

    const label = document.createElement('label');
    label.className = 'launcher-dir';
    const caption = document.createElement('span');
    caption.textContent = 'Directory';
    const input = document.createElement('input');
    input.type = 'text';
    input.name = 'cwd';
    input.setAttribute('aria-label', 'Directory');
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.setAttribute('list', 'launcher-dirs');
    input.placeholder = status?.workspace ? `inside ${status.workspace}` : 'a directory in the workspace';
    input.value = dirs?.default ?? relative(status?.default_cwd, status?.workspace) ?? '';
    const datalist = document.createElement('datalist');
    datalist.id = 'launcher-dirs';
    for (const dir of Array.isArray(dirs?.dirs) ? dirs.dirs : []) {
      const option = document.createElement('option');
      option.value = dir;
      datalist.append(option);
    }
    label.append(caption, input, datalist);
    panel.append(label);
    if (dirs?.truncated) {
      const more = document.createElement('p');
      more.className = 'launcher-note';
      more.textContent = 'Only part of the workspace is suggested; deeper directories can be typed.';
      panel.append(more);
    }
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); start(); }
    });

    const row = document.createElement('div');
    row.className = 'launcher-buttons';
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => close(true));
    const go = document.createElement('button');
    go.type = 'button';
    go.className = 'primary';
    go.textContent = 'Start';
    go.addEventListener('click', start);
    row.append(cancel, go);
    panel.append(row);

    function pick(kind, name) {
      choice = { kind, name };
      for (const r of radios) {
        const on = r.dataset.kind === kind && r.dataset.name === name;
        r.setAttribute('aria-checked', String(on));
        r.tabIndex = on ? 0 : -1;
      }
      go.textContent = `Start ${name}`;
    }
    function start() {
      if (!choice) return;
      const cwd = input.value.trim();
      const request = { kind: choice.kind, entry: choice.name };
      if (cwd) request.cwd = cwd;
      close(false);
      onLaunch(request);
      focusTerminal();
    }
    const first = radios.find((r) => r.dataset.kind === defaultKind && r.dataset.name === defaultName && !r.disabled)
      ?? radios.find((r) => !r.disabled);
    if (first) pick(first.dataset.kind, first.dataset.name);
    else go.disabled = true;
    return { focus: () => (radios.find((r) => r.getAttribute('aria-checked') === 'true') ?? input).focus() };
  }

  async function open(at) {
    anchor = at;
    const mine = ++token;
    panel.hidden = false;
    panel.replaceChildren(Object.assign(document.createElement('p'), { className: 'launcher-note', textContent: 'Loading…' }));
    place();
    onOpenChange?.(true);
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', escape, true);
    let status = null;
    let dirs = null;
    try {
      [status, dirs] = await Promise.all([fetchJson('/api/status'), fetchJson('/api/dirs').catch(() => null)]);
    } catch {
      if (mine !== token) return;
      panel.replaceChildren(Object.assign(document.createElement('p'), { className: 'launcher-note', textContent: 'The daemon did not answer; try again in a moment.' }));
      return;
    }
    if (mine !== token || panel.hidden) return;
    const built = build(status, dirs);
    place();
    built.focus();
  }

  function close(giveFocusBack) {
    if (panel.hidden) return;
    token++;
    panel.hidden = true;
    panel.replaceChildren();
    document.removeEventListener('pointerdown', outside, true);
    document.removeEventListener('keydown', escape, true);
    onOpenChange?.(false);
    if (giveFocusBack) focusTerminal();
  }

  function outside(event) {
    if (panel.contains(event.target) || anchor?.contains(event.target)) return;
    close(false);
  }
  function escape(event) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close(true);
  }

  function place() {
    const rect = anchor?.getBoundingClientRect();
    if (!rect) return;
    const width = panel.offsetWidth || 300;
    panel.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - width - 8))}px`;
    panel.style.top = `${rect.bottom + 4}px`;
  }

  return {
    toggle(at) { if (panel.hidden) open(at); else close(true); },
    open,
    close: () => close(false),
    isOpen: () => !panel.hidden,
  };
}

function relative(path, root) {
  if (!path) return null;
  if (!root) return path;
  if (path === root) return '';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
