// A composer message typed by the page itself, for a daemon that does not know the
// protocol's `paste` (it answers `unknown_type`): the same neutralisation the daemon
// does, done here. Control characters and escape sequences are removed (so nothing in
// the text can end a bracketed paste early or drive the terminal), line ends become CR
// (as a terminal types them), the text is wrapped in a bracketed paste when the program
// asked for one (xterm.js tracks mode 2004 from the output), and Enter follows.
export function neutralise(text) {
  return text
    .replace(/\r\n?/g, '\n')
    // C0 controls but tab and newline, DEL, and C1 controls (ESC included).
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

export function typedPaste(text, { bracketed, submit }) {
  const body = neutralise(text).replace(/\n/g, '\r');
  return (bracketed ? `\x1b[200~${body}\x1b[201~` : body) + (submit ? '\r' : '');
}
