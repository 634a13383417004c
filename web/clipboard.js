// OSC 52: a program in the session sets the clipboard (an agent's TUI that owns the
// mouse copies its own selection this way). There is one clipboard, the machine's, so
// only a copy made in the window in front may write it:
// - only while this window has the focus (a window in the background would otherwise
//   replace what the person just copied in another application);
// - only from live output, never while a snapshot is replayed (a switch, a reload or a
//   reconnect repaints the past; its copies were made long ago);
// - a read request ("?") is never answered: nothing in a session may pull the
//   machine's clipboard out through the page.
// The payload is base64 of bytes, decoded as UTF-8 (bare atob would mangle non-ASCII).
const MAX_BASE64 = 1024 * 1024; // a bigger payload is dropped, not decoded

export function installClipboard(view, { hasFocus = () => document.hasFocus() } = {}) {
  const decoder = new TextDecoder('utf-8');
  view.term.parser.registerOscHandler(52, (data) => {
    // "Pc;Pd": selection targets (c, p, s, 0-7, or empty), then base64 or "?".
    const semi = data.indexOf(';');
    if (semi < 0) return true;
    const payload = data.slice(semi + 1);
    if (payload === '?') return true; // a read request: swallowed, never answered
    if (view.isReplaying() || !hasFocus() || payload.length > MAX_BASE64) return true;
    const text = decodeBase64Utf8(payload, decoder);
    if (text === null) return true;
    navigator.clipboard?.writeText(text).catch(() => { /* not allowed here: ignore */ });
    return true;
  });
}

export function decodeBase64Utf8(payload, decoder = new TextDecoder('utf-8')) {
  let binary;
  try {
    binary = atob(payload.replace(/\s+/g, ''));
  } catch {
    return null; // not base64
  }
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return decoder.decode(bytes);
}
