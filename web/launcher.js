// The launcher: the panel under the chevron beside `+`. A session is one catalog entry
// in one directory, both fixed for its life, so the panel asks both at once: what to
// run (agents, shells and actions from /api/status's catalog; the known agents that are
// not installed are shown, disabled, so the person learns they exist) and where
// (suggestions from /api/dirs; anything inside the workspace can be typed, the daemon
// checks it), and what `wharf new` also takes: a name, a first prompt, environment
// variables (KEY=VALUE lines); and it says what the chosen program may do, with "Run in
// a sandbox" to change that (launcher_sandbox.js). Starting sends `new` and waits for the
// daemon's answer with the panel open: a refusal is shown beside the field that caused
// it (its error code says which), and only a start that worked closes the panel. The
// defaults stay where they are. Escape, the chevron again, or a click outside close it.
import { keyHeaders } from './credentials.js';
import { sandboxBlock } from './launcher_sandbox.js';

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
    const res = await fetch(path, { headers: keyHeaders(key), cache: 'no-store' });
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
    const sandbox = sandboxBlock(fieldError, status?.sandbox);
    panel.append(sandbox.element);

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
    const dirError = fieldError(label, 'launcher-cwd-error', input);

    const nameField = textField('Name', 'name', 'input', 'default: what it runs and its id');
    nameField.input.maxLength = 64;
    nameField.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); start(); }
    });
    const promptField = textField('First prompt', 'prompt', 'textarea', 'for agents that take one');
    promptField.input.rows = 2;
    const envField = textField('Environment', 'env', 'textarea', 'KEY=VALUE, one a line');
    envField.input.rows = 2;
    panel.append(nameField.label, promptField.label, envField.label);
    // Enter in a text area is a new line; Ctrl+Enter (Cmd+Enter) starts from anywhere.
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); start(); }
    });
    const generalError = document.createElement('p');
    generalError.className = 'launcher-error';
    generalError.id = 'launcher-general-error';
    generalError.setAttribute('role', 'alert');
    generalError.hidden = true;
    panel.append(generalError);
    const pickerError = fieldError(picker, 'launcher-entry-error', picker);

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
      const entry = catalog.find((e) => e.kind === kind && e.name === name);
      sandbox.show(entry?.capabilities, entry?.capabilities_error);
    }
    const errors = { cwd: dirError, name: nameField.error, prompt: promptField.error, env: envField.error,
      entry: pickerError, sandbox: sandbox.error,
      general: { show(text) { generalError.textContent = text; generalError.hidden = !text; } } };
    function clearErrors() {
      for (const e of Object.values(errors)) e.show('');
    }
    let starting = false;
    async function start() {
      if (!choice || starting) return;
      clearErrors();
      const env = parseEnv(envField.input.value);
      if (env.error) { errors.env.show(env.error); envField.input.focus(); return; }
      const request = { kind: choice.kind, entry: choice.name };
      const cwd = input.value.trim();
      if (cwd) request.cwd = cwd;
      const name = nameField.input.value.trim();
      if (name) request.name = name;
      const prompt = promptField.input.value;
      if (prompt.trim()) request.prompt = prompt;
      if (Object.keys(env.vars).length) request.env = env.vars;
      // Only a choice the person made goes out; otherwise the entry's own setting holds.
      if (sandbox.changed()) request.sandbox = sandbox.wanted();
      starting = true;
      go.disabled = true;
      go.textContent = 'Starting…';
      panel.setAttribute('aria-busy', 'true');
      const mine = token;
      let answer;
      try {
        answer = await onLaunch(request);
      } finally {
        starting = false;
      }
      if (mine !== token) return; // closed (or reopened) meanwhile
      panel.removeAttribute('aria-busy');
      go.disabled = false;
      go.textContent = `Start ${choice.name}`;
      if (!answer || answer.ok) {
        close(false);
        focusTerminal();
        return;
      }
      const field = fieldOf(answer);
      errors[field].show(answer.message || answer.code || 'wharf refused to start it.');
      const focusTarget = { cwd: input, name: nameField.input, prompt: promptField.input, env: envField.input,
        sandbox: sandbox.toggle, entry: radios.find((r) => r.getAttribute('aria-checked') === 'true') }[field];
      (focusTarget ?? go).focus();
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

// A labelled text field (input or textarea) with its error line under it.
function textField(caption, name, tag, placeholder) {
  const label = document.createElement('label');
  label.className = 'launcher-field';
  const text = document.createElement('span');
  text.textContent = caption;
  const input = document.createElement(tag);
  if (tag === 'input') input.type = 'text';
  input.name = name;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.placeholder = placeholder;
  label.append(text, input);
  // The error line sits after the label (outside it, so it is not part of its name).
  const wrap = document.createElement('div');
  wrap.append(label);
  return { label: wrap, input, error: fieldError(label, `launcher-${name}-error`, input) };
}

// An error line after `el`, tied to `input` (aria-describedby, aria-invalid) while shown.
function fieldError(el, id, input) {
  const line = document.createElement('p');
  line.className = 'launcher-error';
  line.id = id;
  line.hidden = true;
  el.after(line);
  return {
    show(text) {
      line.textContent = text;
      line.hidden = !text;
      if (text) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', id);
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    },
  };
}

// KEY=VALUE lines (blank lines and # comments skipped) as { KEY: VALUE }; the daemon
// refuses names it will not pass on (LD_PRELOAD and the like), and says so.
export function parseEnv(text) {
  const vars = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? line : line.slice(0, eq);
    if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      return { error: `Line ${i + 1}: write KEY=VALUE, the key a name like MY_VAR.` };
    }
    vars[name] = line.slice(eq + 1);
  }
  return { vars };
}

// Which field a refusal is about, from its code (docs/protocol.md) and, for bad_field,
// the field its message names.
function fieldOf({ code, message = '' }) {
  if (code === 'bad_directory') return 'cwd';
  if (code === 'bad_env') return 'env';
  if (['unknown_entry', 'not_installed', 'bad_entry'].includes(code)) return 'entry';
  if (/sandbox/.test(code ?? '') || /\b(sandbox|bubblewrap|bwrap|user namespaces?)\b/i.test(message)) return 'sandbox';
  if (code === 'bad_field') {
    if (/\bprompt\b/.test(message)) return 'prompt';
    if (/\bname\b/.test(message)) return 'name';
    if (/\b(cwd|directory)\b/.test(message)) return 'cwd';
    if (/\benv\b/.test(message)) return 'env';
  }
  return 'general';
}

function relative(path, root) {
  if (!path) return null;
  if (!root) return path;
  if (path === root) return '';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}
