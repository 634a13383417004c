// The service worker: keeps the page's shell (the page and its static files) so that a
// reload with the daemon unreachable shows wharf's own curtain ("wharf is not
// answering") instead of the browser's error page, and so that the page installs as an
// app. It is registered by offline.js from /static/sw.js with scope "/" (the daemon
// sends Service-Worker-Allowed: / for this file only).
//
// Invariants:
// - The key is never stored. Everything is kept under its URL without the query (the
//   page under "/"), and a page whose body contains the key it was fetched with is not
//   kept at all. The key only passes through this worker's memory, in the one URL the
//   page hands over to fetch its own document (the `keep` message).
// - Only the shell is touched: GET of "/" (or /index.html) and of /static/*. Everything
//   else (/api/*, /ws, /pane/*, /mcp) goes to the network without this worker, so no
//   answer that carries a session, a token or a key is ever seen here, let alone kept.
// - Network first, always: with the daemon there, every answer is fresh (a new build is
//   never mixed with old modules) and refreshes what is kept; the cache is only the
//   fallback when the network fails.
// - One cache per wharf version (the `v` of this script's URL): a daemon of another
//   version registers another script, whose activation deletes every other cache.
// - Web Push (web_push.js subscribes): a push is shown as a notification at once, and a
//   tap opens the session it names on this worker's own origin; the address is made from
//   the session's id here, never taken from the message, and holds no key.
const VERSION = new URL(self.location.href).searchParams.get('v') || 'dev';
const CACHE = `wharf-shell-${VERSION}`;
const PAGE = '/';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// Where a request is kept: its key-less URL, or null when it is not part of the shell.
function shellKey(url) {
  if (url.origin !== self.location.origin) return null;
  if (url.pathname === '/' || url.pathname === '/index.html') return PAGE;
  if (url.pathname.startsWith('/static/')) return url.origin + url.pathname;
  return null;
}

// Keeps a good answer under its key-less URL. The page's body is checked for the key it
// was asked with: the shell is static and never holds one, and should that ever change,
// the answer is simply not kept.
async function keep(url, response) {
  const where = shellKey(url);
  if (!where || !response.ok || response.type !== 'basic') return;
  const key = url.searchParams.get('k');
  const body = await response.arrayBuffer();
  if (key && new TextDecoder().decode(body).includes(key)) return;
  const headers = new Headers();
  for (const name of ['content-type', 'content-security-policy']) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  const cache = await caches.open(CACHE);
  await cache.put(where, new Response(body, { status: 200, headers }));
}

async function networkFirst(request, url, where) {
  try {
    const response = await fetch(request);
    // Kept after answering; a failure to keep is not the page's problem.
    keep(url, response.clone()).catch(() => {});
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(where);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const where = shellKey(url);
  if (!where) return; // not the shell: the network, untouched
  event.respondWith(networkFirst(request, url, where));
});

// The page, once greeted by the daemon, names its own URL and the static files it
// loaded (which it fetched before this worker was in charge): fetch and keep them, so
// the very first reload without a network already finds the shell.
self.addEventListener('message', (event) => {
  const msg = event.data;
  if (msg?.type !== 'keep' || !Array.isArray(msg.urls)) return;
  const port = event.ports?.[0];
  event.waitUntil((async () => {
    let kept = 0;
    for (const href of msg.urls) {
      let url;
      try { url = new URL(href, self.location.origin); } catch { continue; }
      if (!shellKey(url)) continue;
      try {
        const response = await fetch(url.href, { cache: 'no-cache', credentials: 'same-origin' });
        await keep(url, response);
        kept += 1;
      } catch { /* offline already: nothing to keep now */ }
    }
    port?.postMessage({ type: 'kept', count: kept });
  })());
});

// ---- Web Push ------------------------------------------------------------------------
// A push from the daemon (app/web_push_channel.hpp), decrypted by the browser: {title,
// body, session, kind}. Shown at once (userVisibleOnly), one notification per session
// (its tag), replaced by the next. The URL it opens is made here from the session's id,
// on this worker's own origin, never taken from the message: "/#session=ID".
function pushedSession(value) {
  return Number.isInteger(value) && value > 0 ? value : null;
}

self.addEventListener('push', (event) => {
  let msg = {};
  try { msg = event.data?.json() ?? {}; } catch { msg = { title: event.data?.text() }; }
  const session = pushedSession(msg.session);
  const title = typeof msg.title === 'string' && msg.title ? msg.title.slice(0, 200) : 'wharf';
  const body = typeof msg.body === 'string' ? msg.body.slice(0, 1000) : '';
  event.waitUntil(self.registration.showNotification(title, {
    body,
    tag: session ? `wharf-session-${session}` : 'wharf',
    renotify: true,
    icon: '/static/icon-192.png',
    data: { session, url: session ? `/#session=${session}` : '/' },
  }));
});

// A tap: an open wharf page is focused and told which session to show (web_push.js
// listens); with none open, a new window opens on the session's address.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const session = pushedSession(event.notification.data?.session);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const page = windows.find((client) => {
      const url = new URL(client.url);
      return url.origin === self.location.origin && (url.pathname === '/' || url.pathname === '/index.html');
    });
    if (page) {
      await page.focus().catch(() => {});
      if (session) page.postMessage({ type: 'open-session', session });
      return;
    }
    await self.clients.openWindow(session ? `/#session=${session}` : '/');
  })());
});
