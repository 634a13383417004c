// Installing and offline: registers the service worker (sw.js) that keeps the page's
// shell, so a reload with the daemon unreachable shows the curtain rather than the
// browser's error page, and the page installs as an app (manifest.webmanifest).
//
// Invariants:
// - Service workers exist only in a secure context (https, or http on 127.0.0.1 /
//   localhost). Anywhere else (plain http on a LAN address) this does nothing, quietly:
//   the page works as before, it just cannot be kept.
// - It runs once the daemon has greeted this window, so the page's own URL (with its
//   key) still opens; the worker keeps it under the bare "/" (sw.js never stores a key).
// - The worker's URL carries the daemon's version, so an upgraded daemon registers a
//   new worker whose activation drops the old version's files.
let started = false;

export function keepShell() {
  if (started) return;
  started = true;
  // What happened is left on the page (data-shell) for the tests and for a curious reader
  // of the DOM: unavailable (not a secure context), kept, or failed.
  const say = (what) => { document.documentElement.dataset.shell = what; };
  if (!window.isSecureContext || !('serviceWorker' in navigator)) { say('unavailable'); return; }
  register().then(() => say('kept'), () => say('failed')); // best effort: the page works without it
}

async function register() {
  const health = await fetch('/api/v1/health', { cache: 'no-store' }).then((r) => r.json());
  const version = typeof health?.version === 'string' ? health.version : 'dev';
  await navigator.serviceWorker.register(`/static/sw.js?v=${encodeURIComponent(version)}`, {
    scope: '/', type: 'classic', updateViaCache: 'none',
  });
  const ready = await navigator.serviceWorker.ready;
  // The files this page loaded before the worker was in charge: its own document and
  // every same-origin static file (scripts, styles, icons).
  const urls = [location.href];
  for (const entry of performance.getEntriesByType('resource')) {
    const url = new URL(entry.name);
    if (url.origin === location.origin && url.pathname.startsWith('/static/')) urls.push(url.href);
  }
  for (const name of ['manifest.webmanifest', 'icon-192.png', 'icon-512.png', 'icon-maskable-512.png', 'apple-touch-icon.png'])
    urls.push(`/static/${name}`);
  const channel = new MessageChannel();
  const kept = new Promise((resolve) => { channel.port1.onmessage = (e) => resolve(e.data); });
  ready.active?.postMessage({ type: 'keep', urls: [...new Set(urls)] }, [channel.port2]);
  await kept;
}
