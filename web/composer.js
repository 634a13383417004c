// The composer: a message box below the terminal that belongs to the session this window
// is in. Enter sends, Shift+Enter is a newline. A message goes as one `paste` with
// `submit` (docs/protocol.md): the daemon strips control characters and sends it as one
// bracketed paste followed by Enter, so a message of several lines is submitted once.
//
// Images (pasted, dropped or picked) are uploaded at once (uploads.js) and stand in the
// text as `[Image #N]` tokens; sending replaces each token with the path the server saved
// the image under, which is what the agent reads.
//
// Drafts and history live in sessionStorage (this browser tab, surviving switches and
// reloads), keyed by the session's id and start time so a restarted daemon's session 1
// never inherits another's draft. A draft is its text, its images and the number the
// next image gets, together: a token only means something next to its own list. Both go
// when the session ends. History stores what the agent received (tokens expanded), so
// sending a recalled message again means the same thing.
import { uploadFile, filesOf } from './uploads.js';

const DRAFT = 'wharf.draft.';
const HISTORY = 'wharf.history.';
const HISTORY_MAX = 100;
const MAX_PASTE = 48 * 1024; // the protocol's cap on a paste, in bytes of UTF-8
const MAX_WIRE = 63 * 1024; // a client message may be 64 KiB at most, envelope included
const TOKEN = /\[Image #(\d+)\]/g;
const PLACEHOLDER = 'Message — Enter sends, Shift+Enter adds a line';

export function createComposer(root, { key, paste }) {
  const encoder = new TextEncoder();
  root.classList.add('composer');
  root.innerHTML = '';
  const chips = el('div', 'composer-chips');
  chips.setAttribute('aria-label', 'Attached images');
  const row = el('div', 'composer-row');
  const pick = button('composer-attach', 'Attach images', icon(ICONS.clip));
  const fileInput = document.createElement('input');
  fileInput.type = 'file';
  fileInput.accept = 'image/png,image/jpeg,image/gif,image/webp';
  fileInput.multiple = true;
  fileInput.hidden = true;
  fileInput.tabIndex = -1;
  const box = document.createElement('textarea');
  box.className = 'composer-text';
  box.rows = 1;
  box.spellcheck = true;
  box.placeholder = PLACEHOLDER;
  box.setAttribute('aria-label', 'Message');
  const mic = button('composer-mic', 'Dictate', icon(ICONS.mic));
  mic.setAttribute('aria-pressed', 'false');
  const sendButton = button('composer-send', 'Send message (Enter)', icon(ICONS.send));
  const note = el('div', 'composer-note');
  note.setAttribute('role', 'status');
  note.hidden = true;
  row.append(pick, fileInput, box, mic, sendButton);
  root.append(chips, note, row);

  let current = null; // storage key of the attached session ("id:created"), or null
  let draft = emptyDraft();
  let walk = null; // index into the history while Up/Down recall is on, else null
  let initialList; // the connection's list before any `sessions` message (see update)
  const pending = new Map(); // storage key -> Set of upload promises
  const previews = new WeakMap(); // image -> blob: URL of its picture (this page load only)
  let noteTimer = 0;

  // ---- session following -------------------------------------------------------------

  function update({ sessions = [], attachedId = null, online = false, driving = null }) {
    if (initialList === undefined) initialList = sessions;
    box.placeholder = driving === false ? 'Watching — take over this session to send'
      : attachedId == null ? 'No session' : PLACEHOLDER;
    const session = sessions.find((s) => s.id === attachedId);
    const next = session ? `${session.id}:${session.created ?? 0}` : null;
    if (next !== current) {
      current = next;
      draft = next ? loadDraft(next) : emptyDraft();
      walk = null;
      show();
    }
    // Drafts of sessions that ended go with them. Only a list the server sent counts (the
    // one the connection starts with is empty but means nothing).
    if (online && sessions !== initialList) prune(new Set(sessions.map((s) => `${s.id}:${s.created ?? 0}`)));
  }

  function prune(live) {
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const name = sessionStorage.key(i);
      const prefix = name?.startsWith(DRAFT) ? DRAFT : name?.startsWith(HISTORY) ? HISTORY : null;
      if (prefix && !live.has(name.slice(prefix.length))) sessionStorage.removeItem(name);
    }
  }

  // ---- drafts --------------------------------------------------------------------------

  function emptyDraft() { return { text: '', images: [], next: 1 }; }

  function loadDraft(k) {
    const stored = read(DRAFT + k);
    if (!stored || typeof stored.text !== 'string' || !Array.isArray(stored.images)) return emptyDraft();
    // An upload cut short by a reload never finishes.
    for (const image of stored.images) if (image.state === 'uploading' && !pending.get(k)?.size) image.state = 'failed';
    return { text: stored.text, images: stored.images, next: Number(stored.next) || 1 };
  }

  function saveDraft(k = current, d = draft) {
    if (!k) return;
    if (!d.text && !d.images.length) sessionStorage.removeItem(DRAFT + k);
    else write(DRAFT + k, d);
  }

  function show() {
    if (box.value !== draft.text) box.value = draft.text;
    grow();
    chips.replaceChildren(...draft.images.map(chip));
    chips.hidden = draft.images.length === 0;
  }

  function chip(image) {
    const c = el('span', `composer-chip ${image.state}`);
    c.title = image.state === 'ready' ? image.path : image.state === 'failed' ? image.error ?? 'upload failed' : 'uploading…';
    const preview = previews.get(image);
    if (preview) {
      const thumb = document.createElement('img');
      thumb.className = 'composer-chip-thumb';
      thumb.src = preview;
      thumb.alt = '';
      c.append(thumb);
    }
    const label = el('span', 'composer-chip-label');
    label.textContent = image.state === 'failed' ? `${image.name} — upload failed`
      : `[Image #${image.n}] ${image.name}${image.state === 'uploading' ? ' …' : ''}`;
    const remove = button('composer-chip-remove', `Remove image ${image.n}`, '×');
    remove.addEventListener('click', () => {
      draft.images = draft.images.filter((i) => i !== image);
      forget(image);
      draft.text = withoutToken(box.value, image.n);
      saveDraft();
      show();
      box.focus();
    });
    c.append(label, remove);
    return c;
  }

  // ---- images ----------------------------------------------------------------------------

  function attach(files) {
    if (!current || !files.length) {
      if (files.length) flash('Open a session first: images go to the session you are in.');
      return;
    }
    const k = current;
    const d = draft;
    for (const file of files) {
      const image = { n: d.next++, name: file.name || 'pasted image', path: null, state: 'uploading' };
      if (/^image\//.test(file.type)) previews.set(image, URL.createObjectURL(file));
      d.images.push(image);
      insertAtCaret(`[Image #${image.n}]`);
      const job = uploadFile(file, key).then((answer) => {
        image.state = 'ready';
        image.path = answer.path;
      }, (err) => {
        image.state = 'failed';
        image.error = err.message;
        // Its token would reach the session as plain text: it goes, the chip says why.
        d.text = withoutToken(k === current ? box.value : d.text, image.n);
        flash(`Upload failed: ${err.message}`);
      }).finally(() => {
        pending.get(k)?.delete(job);
        saveDraft(k, d);
        if (k === current) show();
      });
      if (!pending.has(k)) pending.set(k, new Set());
      pending.get(k).add(job);
    }
    saveDraft();
    show();
  }

  function forget(image) {
    const url = previews.get(image);
    if (url) URL.revokeObjectURL(url);
    previews.delete(image);
  }

  function insertAtCaret(token) {
    const { selectionStart: start, selectionEnd: end, value } = box;
    const before = value.slice(0, start);
    const after = value.slice(end);
    const lead = before && !/\s$/.test(before) ? ' ' : '';
    const trail = after && !/^\s/.test(after) ? ' ' : '';
    box.value = before + lead + token + trail + after;
    const caret = (before + lead + token + trail).length;
    box.setSelectionRange(caret, caret);
    draft.text = box.value;
    walk = null;
  }

  function expand(text, images) {
    return text.replace(TOKEN, (token, n) => images.find((i) => i.n === Number(n) && i.path)?.path ?? token);
  }

  // ---- sending ------------------------------------------------------------------------------

  async function send() {
    const k = current;
    if (!k) return;
    const d = draft;
    const jobs = [...(pending.get(k) ?? [])];
    if (jobs.length) {
      flash('Waiting for the upload to finish…');
      await Promise.allSettled(jobs);
      if (k !== current || d !== draft) return; // moved on meanwhile: the draft stays
    }
    const text = expand(box.value, d.images);
    if (!text.trim()) return;
    // The text's cap, and the socket's cap on one message once JSON has escaped it.
    if (encoder.encode(text).length > MAX_PASTE || encoder.encode(JSON.stringify(text)).length > MAX_WIRE) {
      flash('This message is too long to send at once (48 KiB at most).');
      return;
    }
    if (!paste(text)) return; // not attached or not driving: the draft stays
    for (const image of d.images) forget(image);
    remember(k, text);
    draft = emptyDraft();
    walk = null;
    saveDraft();
    show();
    hideNote();
  }

  function history(k = current) {
    const list = read(HISTORY + k);
    return Array.isArray(list) ? list.filter((m) => typeof m === 'string') : [];
  }

  function remember(k, text) {
    const list = history(k);
    if (list[list.length - 1] !== text) list.push(text);
    write(HISTORY + k, list.slice(-HISTORY_MAX));
  }

  function recall(index, list) {
    walk = index;
    draft.text = index === null ? '' : list[index];
    box.value = draft.text;
    grow();
    const caret = box.value.length;
    box.setSelectionRange(caret, caret);
    saveDraft();
  }

  // ---- events ---------------------------------------------------------------------------------

  box.addEventListener('keydown', (e) => {
    if (e.isComposing || e.keyCode === 229) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      send();
      return;
    }
    if (e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || !current) return;
    if (e.key === 'ArrowUp') {
      const list = history();
      const onFirstLine = !box.value.slice(0, box.selectionStart).includes('\n');
      if (walk === null && box.value === '' && list.length) {
        e.preventDefault();
        recall(list.length - 1, list);
      } else if (walk !== null && onFirstLine) {
        e.preventDefault();
        if (walk > 0) recall(walk - 1, list);
      }
    } else if (e.key === 'ArrowDown' && walk !== null) {
      const onLastLine = !box.value.slice(box.selectionEnd).includes('\n');
      if (!onLastLine) return;
      e.preventDefault();
      const list = history();
      recall(walk + 1 < list.length ? walk + 1 : null, list);
    }
  });

  box.addEventListener('input', () => {
    walk = null; // typing ends a recall
    draft.text = box.value;
    saveDraft();
    grow();
  });

  box.addEventListener('paste', (e) => {
    const files = filesOf(e.clipboardData);
    if (!files.length) return;
    e.preventDefault();
    attach(files);
  });

  // Images pasted while the terminal (or anything else) has the focus, or dropped
  // anywhere on the page, go to the composer: the terminal cannot take them.
  document.addEventListener('paste', (e) => {
    if (e.target === box) return;
    const files = filesOf(e.clipboardData);
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    box.focus();
    attach(files);
  }, true);
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  window.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    root.classList.add('dropping');
  });
  window.addEventListener('dragleave', (e) => { if (!e.relatedTarget) root.classList.remove('dropping'); });
  window.addEventListener('drop', (e) => {
    root.classList.remove('dropping');
    if (!carriesFiles(e)) return;
    e.preventDefault();
    box.focus();
    attach(filesOf(e.dataTransfer));
  });

  pick.addEventListener('click', () => fileInput.click());
  fileInput.addEventListener('change', () => {
    attach([...fileInput.files]);
    fileInput.value = '';
    box.focus();
  });
  sendButton.addEventListener('click', () => { send(); box.focus(); });

  // Clicks on the composer's own controls leave the focus in the message box.
  root.addEventListener('mousedown', (e) => {
    if (e.target !== box && e.target !== fileInput) {
      e.preventDefault();
      box.focus();
    }
  });

  // ---- dictation -----------------------------------------------------------------------------

  const Recognition = window.SpeechRecognition ?? window.webkitSpeechRecognition;
  let listening = null;
  if (!Recognition) {
    mic.hidden = true;
  } else {
    mic.addEventListener('click', () => {
      if (listening) { listening.stop(); return; }
      let rec;
      try {
        rec = new Recognition();
      } catch {
        mic.hidden = true;
        return;
      }
      rec.continuous = true;
      rec.interimResults = false;
      rec.lang = navigator.language || 'en-US';
      rec.onresult = (event) => {
        for (let i = event.resultIndex; i < event.results.length; i++) {
          const result = event.results[i];
          if (!result.isFinal) continue;
          const words = result[0].transcript.trim();
          if (!words) continue;
          const { selectionStart: start, selectionEnd: end, value } = box;
          const before = value.slice(0, start);
          const text = (before && !/\s$/.test(before) ? ' ' : '') + words;
          box.setRangeText(text, start, end, 'end');
          draft.text = box.value;
          walk = null;
          saveDraft();
          grow();
        }
      };
      rec.onerror = (event) => {
        if (event.error === 'not-allowed' || event.error === 'service-not-allowed') flash('Dictation is not allowed in this browser.');
        else if (event.error !== 'no-speech' && event.error !== 'aborted') flash(`Dictation stopped: ${event.error}`);
      };
      rec.onend = () => {
        listening = null;
        mic.classList.remove('listening');
        mic.setAttribute('aria-pressed', 'false');
      };
      try {
        rec.start();
      } catch {
        return;
      }
      listening = rec;
      mic.classList.add('listening');
      mic.setAttribute('aria-pressed', 'true');
    });
  }

  // ---- layout ---------------------------------------------------------------------------------

  function grow() {
    box.style.height = 'auto';
    const border = box.offsetHeight - box.clientHeight; // scrollHeight leaves it out
    box.style.height = `${Math.min(box.scrollHeight + border, Math.round(window.innerHeight * 0.4))}px`;
  }
  // The terminal ends where the composer starts (style.css: --composer-h).
  new ResizeObserver(() => {
    document.documentElement.style.setProperty('--composer-h', `${root.offsetHeight}px`);
  }).observe(root);

  function flash(text) {
    note.textContent = text;
    note.hidden = false;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(hideNote, 6000);
  }
  function hideNote() {
    clearTimeout(noteTimer);
    note.hidden = true;
  }

  return { update, focus: () => box.focus(), element: box };
}

// The text without image n's token, and without the space that was put before it.
function withoutToken(text, n) {
  const token = `[Image #${n}]`;
  return text.split(` ${token}`).join('').split(`${token} `).join('').split(token).join('');
}

function el(tag, className) {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function button(className, label, content) {
  const b = el('button', className);
  b.type = 'button';
  b.title = label;
  b.setAttribute('aria-label', label);
  if (typeof content === 'string') b.textContent = content;
  else b.append(content);
  return b;
}

// Line icons (24x24, stroked in the text colour): no icon font, no emoji font needed.
const ICONS = {
  clip: ['M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5'],
  mic: ['M12 2a3 3 0 0 0-3 3v7a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3z', 'M19 10v2a7 7 0 0 1-14 0v-2', 'M12 19v3', 'M8 22h8'],
  send: ['M22 2L11 13', 'M22 2l-7 20-4-9-9-4 20-7z'],
};

function icon(paths) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of paths) {
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

function read(name) {
  try {
    return JSON.parse(sessionStorage.getItem(name) ?? 'null');
  } catch {
    return null;
  }
}

function write(name, value) {
  try {
    sessionStorage.setItem(name, JSON.stringify(value));
  } catch { /* full or private mode: the draft lives only in the page */ }
}
