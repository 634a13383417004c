// Links in the terminal, plain (found in the text) and OSC 8 (named by the program).
// Output is untrusted: a link opens only when the person holds Ctrl (Cmd on a Mac) while
// clicking, only if it is http(s), and always in a new tab that gets neither this page
// (noopener) nor its URL (noreferrer; the URL holds the key). Anything else, such as
// javascript:, file: or data:, does nothing at all.
export function safeWebUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

export function openLink(event, text) {
  if (!(event?.ctrlKey || event?.metaKey)) return false;
  const href = safeWebUrl(text);
  if (!href) return false;
  event.preventDefault?.();
  window.open(href, '_blank', 'noopener,noreferrer');
  return true;
}

// Hovering a link that can open says how (a tooltip on the terminal), as editors do.
const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
function hover(event, text) {
  const href = safeWebUrl(text);
  const screen = event?.target?.closest?.('.xterm');
  if (href && screen) screen.title = `${href}\n${isMac ? 'Cmd' : 'Ctrl'}+click to open`;
}
function leave(event) {
  const screen = event?.target?.closest?.('.xterm');
  if (screen) screen.removeAttribute('title');
}

// Options for the plain links (addon-web-links).
export const webLinkOptions = { hover, leave };

// xterm's handler for OSC 8 links. Non-http links reach `activate` too (so xterm shows
// no prompt of its own for them) and are ignored there.
export const linkHandler = {
  allowNonHttpProtocols: true,
  activate: (event, text) => { openLink(event, text); },
  hover,
  leave,
};
