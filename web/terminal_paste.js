// Pasting into the terminal. Whatever way text is pasted (Ctrl+Shift+V, Shift+Insert,
// the browser's context menu, Cmd+V, a script calling term.paste), it reaches the
// session through the daemon's paste cleaning (`paste` in docs/protocol.md,
// core/paste_text.hpp), never as raw bytes from xterm.js: a clipboard may hold control
// characters and escape sequences, among them the end-of-paste marker ESC [ 2 0 1 ~,
// which would end a bracketed paste early and let the rest run as typed keys (a command
// at a shell prompt). The daemon removes them and brackets the paste itself when the
// program asked for it.
//
// Invariants: the browser's paste event never reaches xterm.js's own handler (it is
// stopped on its way down, in the capture phase); images on the clipboard are the
// composer's (it takes them before this listener sees the event); a paste larger than
// one message goes as several, each cut on a character boundary and never between the
// CR and LF of one line ending.
const CHUNK = 8 * 1024; // UTF-16 units: at most 24 KiB of UTF-8, 48 KiB once JSON-escaped

export function installTerminalPaste(view, container, { paste }) {
  const send = (text) => {
    if (!text) return;
    for (const piece of pieces(text)) if (!paste(piece)) return;
  };
  container.addEventListener('paste', (event) => {
    // Only the terminal's own: the search box (search.js) lives in the same container.
    if (!view.term.element?.contains(event.target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    send(event.clipboardData?.getData('text/plain') ?? '');
  }, true);
  // xterm.js's own paste entry point (used by scripts and add-ons) goes the same way.
  view.term.paste = (text) => send(String(text ?? ''));
}

// The text cut into pieces of at most CHUNK units.
export function pieces(text, size = CHUNK) {
  const out = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    if (end < text.length) {
      const code = text.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--; // a surrogate pair stays whole
      else if (text[end - 1] === '\r' && text[end] === '\n') end--; // so does CRLF
      if (end <= at) end = Math.min(at + 2, text.length);
    }
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}
