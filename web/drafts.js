// Drafts: what is being written in the composer, one per session, kept in this browser
// tab (session_store.js) so it survives a switch and a reload and goes when the session
// ends. A draft is its text, its images and the number the next image gets, stored
// together: an `[Image #N]` token only means something next to its own image list, and
// a number is never given twice within a draft, so removing image 1 cannot make image
// 2's token point at another picture. An empty draft is not stored at all.
//
// An image is { n, name, path, state, load }: state is 'uploading', 'ready' (path is
// where the server saved it) or 'failed' (error says why); `load` names the page load
// that added it. A failed chip says why once, in the page load where it failed: a
// reload drops it, and an upload a reload cut short goes too (with its token), since
// neither can ever reach the session.
import { sessionStore } from './session_store.js';

const store = sessionStore('wharf.draft.');
const TOKEN = /\[Image #(\d+)\]/g;
const PAGE_LOAD = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function emptyDraft() {
  return { text: '', images: [], next: 1 };
}

// `stillUploading`: whether this page load still uploads for that session. Otherwise an
// image stored as uploading was cut short by a reload: it never finishes.
export function loadDraft(k, stillUploading) {
  const stored = store.read(k);
  if (!stored || typeof stored.text !== 'string' || !Array.isArray(stored.images)) return emptyDraft();
  let text = stored.text;
  const images = stored.images.filter((image) => {
    const earlier = image.load !== PAGE_LOAD;
    const lost = image.state === 'failed' ? earlier : image.state === 'uploading' && (earlier || !stillUploading);
    if (lost) text = withoutToken(text, image.n);
    return !lost;
  });
  return { text, images, next: Number(stored.next) || 1 };
}

export function saveDraft(k, draft) {
  if (!k) return;
  if (!draft.text && !draft.images.length) store.remove(k);
  else store.write(k, draft);
}

// A new image of the draft, numbered, still uploading; its token is imageToken(image.n).
export function addImage(draft, name) {
  const image = { n: draft.next++, name, path: null, state: 'uploading', load: PAGE_LOAD };
  draft.images.push(image);
  return image;
}

export function imageToken(n) {
  return `[Image #${n}]`;
}

// The text without image n's token, and without the space that was put before it.
export function withoutToken(text, n) {
  const token = imageToken(n);
  return text.split(` ${token}`).join('').split(`${token} `).join('').split(token).join('');
}

// The text as the session should read it: each token of an uploaded image replaced by
// the path the server saved it under (the agent opens that file).
export function expandTokens(text, images) {
  return text.replace(TOKEN, (token, n) => images.find((i) => i.n === Number(n) && i.path)?.path ?? token);
}
