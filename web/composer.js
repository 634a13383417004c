// The composer: a message box below the terminal that belongs to the session this window
// is in. Enter sends, Shift+Enter is a newline. A message goes as one `paste` with
// `submit` (docs/protocol.md): the daemon strips control characters and sends it as one
// bracketed paste followed by Enter, so a message of several lines is submitted once.
//
// Images (pasted, dropped or picked) are uploaded at once (uploads.js) and stand in the
// text as `[Image #N]` tokens; sending replaces each token with the path the server saved
// the image under, which is what the agent reads. Dictation (dictation.js) writes into
// the box like typing does.
//
// Each session has its own draft (drafts.js) and history of sent messages for Up and
// Down (message_history.js), both kept in this browser tab and gone with the session.
//
// The daemon answers a message with `pasted`; when it had to remove control characters
// (which could have acted as keys) the note above the box says how many.
import { uploadFile, filesOf } from './uploads.js';
import { sessionKey, forgetEnded } from './session_store.js';
import { emptyDraft, loadDraft, saveDraft, addImage, imageToken, withoutToken, expandTokens } from './drafts.js';
import { rememberSent, createRecall } from './message_history.js';
import { createDictation } from './dictation.js';
import { buildComposer, imageChip } from './composer_view.js';

const MAX_PASTE = 48 * 1024; // the protocol's cap on a paste, in bytes of UTF-8
const MAX_WIRE = 63 * 1024; // a client message may be 64 KiB at most, envelope included
const PLACEHOLDER = 'Message — Enter sends, Shift+Enter adds a line';

export function createComposer(root, { key, paste }) {
  const encoder = new TextEncoder();
  const { chips, pick, fileInput, box, mic, sendButton, note } = buildComposer(root, PLACEHOLDER);

  let current = null; // storage key of the attached session ("id:created"), or null
  let draft = emptyDraft();
  let initialList; // the connection's list before any `sessions` message (see update)
  const pending = new Map(); // storage key -> Set of upload promises
  const previews = new WeakMap(); // image -> blob: URL of its picture (this page load only)
  let noteTimer = 0;
  // Up/Down recall of sent messages (message_history.js): a recalled one is the draft.
  const recall = createRecall((text) => {
    draft.text = text;
    box.value = text;
    grow();
    box.setSelectionRange(text.length, text.length);
    saveCurrentDraft();
  });

  // ---- session following -------------------------------------------------------------

  function update({ sessions = [], attachedId = null, online = false, driving = null, viewingId = null }) {
    if (initialList === undefined) initialList = sessions;
    box.placeholder = driving === false ? 'Watching — take over this session to send'
      : attachedId == null ? (viewingId != null ? 'This session has ended' : 'No session') : PLACEHOLDER;
    const session = sessions.find((s) => s.id === attachedId);
    const next = session ? sessionKey(session) : null;
    if (next !== current) {
      current = next;
      draft = next ? loadDraft(next, pending.get(next)?.size > 0) : emptyDraft();
      recall.stop();
      show();
    }
    // Drafts and histories of sessions that ended go with them. Only a list the server
    // sent counts (the one the connection starts with is empty but means nothing).
    if (online && sessions !== initialList) forgetEnded(new Set(sessions.map(sessionKey)));
  }

  // ---- the draft on screen ---------------------------------------------------------------

  const saveCurrentDraft = () => saveDraft(current, draft);

  function show() {
    if (box.value !== draft.text) box.value = draft.text;
    grow();
    chips.replaceChildren(...draft.images.map(chip));
    chips.hidden = draft.images.length === 0;
  }

  function chip(image) {
    return imageChip(image, previews.get(image), () => {
      draft.images = draft.images.filter((i) => i !== image);
      forget(image);
      draft.text = withoutToken(box.value, image.n);
      saveCurrentDraft();
      show();
      box.focus();
    });
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
      const image = addImage(d, file.name || 'pasted image');
      if (/^image\//.test(file.type)) previews.set(image, URL.createObjectURL(file));
      insertAtCaret(imageToken(image.n));
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
    saveCurrentDraft();
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
    recall.stop();
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
    const text = expandTokens(box.value, d.images);
    if (!text.trim()) return;
    // The text's cap, and the socket's cap on one message once JSON has escaped it.
    if (encoder.encode(text).length > MAX_PASTE || encoder.encode(JSON.stringify(text)).length > MAX_WIRE) {
      flash('This message is too long to send at once (48 KiB at most).');
      return;
    }
    if (!paste(text)) return; // not attached or not driving: the draft stays
    for (const image of d.images) forget(image);
    rememberSent(k, text);
    draft = emptyDraft();
    recall.stop();
    saveCurrentDraft();
    show();
    hideNote();
  }

  // The daemon's answer to a message: say so when it had to take characters out.
  function pasted({ removed = 0 } = {}) {
    if (!(removed > 0)) return;
    // Control characters and whole escape sequences: counted in characters.
    flash(removed === 1 ? '1 character of control codes was removed from the message.'
      : `${removed} characters of control codes were removed from the message.`);
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
    // Up and Down recall sent messages where the history takes them, else move the caret.
    const before = box.value.slice(0, box.selectionStart);
    const after = box.value.slice(box.selectionEnd);
    let recalled = false;
    if (e.key === 'ArrowUp') recalled = recall.older(current, { empty: box.value === '', onFirstLine: !before.includes('\n') });
    else if (e.key === 'ArrowDown') recalled = recall.newer(current, { onLastLine: !after.includes('\n') });
    if (recalled) e.preventDefault();
  });

  box.addEventListener('input', () => {
    recall.stop(); // typing ends a recall
    draft.text = box.value;
    saveCurrentDraft();
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

  // ---- dictation (dictation.js): what is heard goes in at the caret ---------------------

  createDictation(mic, {
    onWords(words) {
      const { selectionStart: start, selectionEnd: end, value } = box;
      const before = value.slice(0, start);
      box.setRangeText((before && !/\s$/.test(before) ? ' ' : '') + words, start, end, 'end');
      draft.text = box.value;
      recall.stop();
      saveCurrentDraft();
      grow();
    },
    onProblem: flash,
  });

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

  return { update, pasted, focus: () => box.focus(), element: box };
}
