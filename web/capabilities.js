// What a session may do, in words: the `capabilities` object the daemon puts on every
// session and catalog entry (docs/protocol.md) turned into the short texts the launcher,
// the tab tooltip, the status strip and the session picker show. One place writes them,
// so the four always say the same thing about the same session.
//
// Invariants:
// - Only what the daemon declared is said; nothing is guessed. An object without
//   `capabilities` (an older daemon) gives null, and callers then show nothing at all.
// - An unsandboxed session is always said to be one, in words that name the risk.
// - Paths are shortened with `~` only once the page knows HOME (learned from a shell's
//   own status report, where the daemon sent both the path and its `~` form); until
//   then they are shown as given.

let home = null;

// The daemon's status report carries `cwd` and `cwd_short` (HOME written as `~`): the
// difference between them is HOME. Nothing else tells the page where HOME is.
export function learnHome(status) {
  const cwd = status?.cwd;
  const short = status?.cwd_short;
  if (typeof cwd !== 'string' || typeof short !== 'string' || !cwd.startsWith('/')) return;
  if (short === '~') home = cwd;
  else if (short.startsWith('~/') && cwd.endsWith(short.slice(1))) home = cwd.slice(0, cwd.length - short.length + 1);
}

export function shortPath(path) {
  if (typeof path !== 'string') return '';
  if (home && home !== '/' && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

// host:port, without the port when it is HTTPS's own.
function endpoint(text) {
  return String(text).replace(/:443$/, '');
}

function list(items, max) {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} +${items.length - max} more`;
}

// { sandboxed, mark, line, writes, network } or null when the daemon said nothing.
// `mark`: one or two words for a badge; `line`: one line for a tooltip or the launcher.
export function describe(caps) {
  if (!caps || typeof caps !== 'object' || typeof caps.sandboxed !== 'boolean') return null;
  if (!caps.sandboxed) {
    return { sandboxed: false, mark: 'no sandbox', line: 'No sandbox: full access to your files and network' };
  }
  const writable = Array.isArray(caps.writable) ? caps.writable.map(shortPath) : [];
  const writes = writable.length ? `writes: ${list(writable, 2)}` : 'writes: nothing';
  const allow = Array.isArray(caps.allow) ? caps.allow.map(endpoint) : [];
  let network;
  if (caps.network === 'host') network = 'network: unrestricted';
  else if (caps.network === 'allow') network = allow.length ? `network: ${list(allow, 2)}` : 'no network';
  else network = 'no network';
  return { sandboxed: true, mark: 'sandbox', line: `Sandbox · ${writes} · ${network}`, writes, network };
}

// What the launcher says when the person turns the sandbox on for an entry that runs
// without one: the daemon did not send the limits it would get, so none are invented.
export const SANDBOX_ON_REQUESTED = 'Sandbox · limits as configured for this program';

// A small closed padlock, 12×12, for sandboxed sessions (decorative unless labelled).
export function lockIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 12 12');
  svg.setAttribute('width', '10');
  svg.setAttribute('height', '10');
  svg.setAttribute('aria-hidden', 'true');
  const body = document.createElementNS(ns, 'rect');
  for (const [k, v] of Object.entries({ x: '2', y: '5.5', width: '8', height: '5.5', rx: '1', fill: 'currentColor' })) body.setAttribute(k, v);
  const shackle = document.createElementNS(ns, 'path');
  for (const [k, v] of Object.entries({ d: 'M3.8 5.5V4a2.2 2.2 0 0 1 4.4 0v1.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.4' })) shackle.setAttribute(k, v);
  svg.append(body, shackle);
  return svg;
}

// The lock as an image named "sandboxed", its tooltip the capabilities line.
export function lockMark(caps, className) {
  const mark = document.createElement('span');
  mark.className = className;
  mark.setAttribute('role', 'img');
  mark.setAttribute('aria-label', 'sandboxed');
  mark.title = caps.line;
  mark.append(lockIcon());
  return mark;
}
