// Per-session memory of this browser tab: JSON values in sessionStorage, so they survive
// switching sessions and reloading but never leave the tab. Each kind of value (a draft,
// a history) has its own prefix, followed by the session's key: its id and start time,
// so a restarted daemon's session 1 never inherits what another session 1 left behind.
// Whatever is stored here goes when its session ends (forgetEnded), whichever kind it is.
// Storage that is full or refused (private mode) is no error: the value then lives only
// as long as the page does.
const kinds = new Set(); // prefixes of every store made, for forgetEnded

export function sessionKey(session) {
  return `${session.id}:${session.created ?? 0}`;
}

// The store of one kind of value, under `prefix` + session key.
export function sessionStore(prefix) {
  kinds.add(prefix);
  return {
    read(k) {
      try {
        return JSON.parse(sessionStorage.getItem(prefix + k) ?? 'null');
      } catch {
        return null;
      }
    },
    write(k, value) {
      try {
        sessionStorage.setItem(prefix + k, JSON.stringify(value));
      } catch { /* full or private mode: the value lives only in the page */ }
    },
    remove(k) { sessionStorage.removeItem(prefix + k); },
  };
}

// Drops every stored value whose session is not among `liveKeys` (a Set of session keys).
export function forgetEnded(liveKeys) {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const name = sessionStorage.key(i);
    const prefix = [...kinds].find((p) => name?.startsWith(p));
    if (prefix && !liveKeys.has(name.slice(prefix.length))) sessionStorage.removeItem(name);
  }
}
