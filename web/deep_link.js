// Deep links to a session: `#session=ID` (what a notification's link carries, built on
// the configured public_url) opens the page on that session. On load the id becomes the
// window's first attach (connection.js reads it as the session this tab was last on);
// afterwards a changed hash selects the session if it is listed. Either way the hash is
// cleared at once, so a reload or a shared link does not keep pulling the page back.

const LAST_SESSION_KEY = 'wharf.lastSession'; // connection.js's first attach reads it
const VIEWING_KEY = 'wharf.viewingEnded';

export function sessionFromHash(hash) {
  const match = /^#session=([1-9][0-9]{0,15})$/.exec(hash ?? '');
  return match ? Number(match[1]) : null;
}

function clearHash() {
  try { history.replaceState(history.state, '', location.pathname + location.search); } catch { /* sandboxed */ }
}

// Call before the connection opens. `select(id)`: attach to a listed session; `has(id)`.
export function installDeepLink({ select, has }) {
  const first = sessionFromHash(location.hash);
  if (first != null) {
    try {
      sessionStorage.setItem(LAST_SESSION_KEY, String(first));
      sessionStorage.removeItem(VIEWING_KEY);
    } catch { /* private mode: the daemon's landing session it is */ }
    document.documentElement.dataset.deepLink = String(first);
    clearHash();
  }
  window.addEventListener('hashchange', () => {
    const id = sessionFromHash(location.hash);
    if (id == null) return;
    clearHash();
    document.documentElement.dataset.deepLink = String(id);
    if (has(id)) select(id);
  });
}
