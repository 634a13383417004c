// Uploads a file for the session to read: POST /api/upload?name=FILE with the file's
// bytes as the body and the page's key in X-Wharf-Key (docs/protocol.md). Resolves with
// the server's answer ({ok, path, name, bytes, type}); rejects with an Error whose
// message a person can read.
import { keyHeaders } from './credentials.js';

export async function uploadFile(file, key) {
  const name = file.name || 'pasted-image';
  let res;
  try {
    res = await fetch(`/api/upload?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: keyHeaders(key, { 'Content-Type': file.type || 'application/octet-stream' }),
      body: file,
      cache: 'no-store',
    });
  } catch {
    throw new Error(`${name}: the upload did not reach wharf`);
  }
  let answer = null;
  try { answer = await res.json(); } catch { /* not JSON */ }
  if (res.ok && answer?.ok && typeof answer.path === 'string') return answer;
  const why = answer?.error?.message
    ?? (res.status === 413 ? 'too large' : res.status === 415 ? 'not an image wharf accepts' : `HTTP ${res.status}`);
  throw new Error(`${name}: ${why}`);
}

// The files of a paste or a drop (DataTransfer), or of a file input.
export function filesOf(transfer) {
  if (!transfer) return [];
  const files = [...(transfer.files ?? [])];
  if (files.length) return files;
  return [...(transfer.items ?? [])].filter((item) => item.kind === 'file').map((item) => item.getAsFile()).filter(Boolean);
}
