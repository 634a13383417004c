// Push notifications to this device (Web Push): the "Push notifications to this device"
// switch in the settings' "Sound and notifications" section, and the page's side of a
// tapped notification.
//
// Turning the switch on asks the browser for notifications, subscribes the service
// worker's push manager (sw.js) with the daemon's VAPID public key (GET /api/push) as
// applicationServerKey, and hands the subscription to the daemon (POST
// /api/push/subscriptions), which then pushes to this browser when a session waits for
// its user or finishes. Turning it off withdraws it on both sides.
//
// Invariants:
// - The switch shows what is true: on only while this browser holds a subscription made
//   with the daemon's current key (one made with an older key is dropped, since the push
//   service would refuse the daemon's pushes for it).
// - Push needs a secure context (https, or http on localhost): on plain http at another
//   address the switch is off and disabled, and the hint says why.
// - A tap on a notification (sw.js notificationclick) reaches an open page as the message
//   {type: 'open-session', session}; the page then opens that session through its
//   address (#session=ID), the same door a deep link uses.

function base64urlBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(subscription, publicKey) {
  const held = subscription?.options?.applicationServerKey;
  if (!held) return false;
  const a = new Uint8Array(held);
  const b = base64urlBytes(publicKey);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// The page opens the session a tapped notification names (sw.js posts it here).
let listening = false;
export function listenForTappedPushes() {
  if (listening || !('serviceWorker' in navigator)) return;
  listening = true;
  navigator.serviceWorker.addEventListener('message', (event) => {
    const msg = event.data;
    if (msg?.type !== 'open-session' || !Number.isInteger(msg.session) || msg.session <= 0) return;
    // The same address again would fire no hashchange: clear it first, quietly.
    if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
    location.hash = `session=${msg.session}`;
    window.dispatchEvent(new CustomEvent('wharf:open-session', { detail: { session: msg.session } }));
  });
}

// Adds the switch and its hint to `parent` (through settings.js's `row`).
export function addPushSwitch(parent, row, { key }) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = 'setting-push';
  box.name = 'push';
  const note = document.createElement('p');
  note.className = 'settings-hint';
  note.id = 'settings-push-note';
  note.setAttribute('aria-live', 'polite');
  row(parent, 'Push notifications to this device', box);
  box.setAttribute('aria-describedby', note.id);
  parent.append(note);
  listenForTappedPushes();

  const headers = (json) => ({
    ...(key ? { 'X-Wharf-Key': key } : {}),
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  });
  const say = (text) => { note.textContent = text; };
  const off = (text) => { box.checked = false; box.disabled = true; say(text); };
  let publicKey = '';

  async function registration() {
    // offline.js registers the worker once the daemon greeted this window; wait for it.
    const ready = navigator.serviceWorker.ready;
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('the service worker is not running')), 10000));
    return Promise.race([ready, late]);
  }

  async function check() {
    if (!window.isSecureContext) {
      off('Needs a secure page: https, or http on localhost. This page is plain http on another address, where browsers allow no push (docs/remote.md says how to serve https).');
      return;
    }
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined') {
      off('This browser has no Web Push.');
      return;
    }
    let status;
    try {
      const res = await fetch('/api/push', { headers: headers(false), cache: 'no-store' });
      status = await res.json();
      if (!res.ok) throw new Error(status?.error?.message ?? `HTTP ${res.status}`);
    } catch (error) {
      off(`Cannot ask wharf about push: ${error.message}`);
      return;
    }
    if (!status.enabled || !status.public_key) {
      off('Web Push is off in this wharf (its log says why).');
      return;
    }
    publicKey = status.public_key;
    box.disabled = false;
    const reg = await navigator.serviceWorker.getRegistration('/');
    let sub = await reg?.pushManager.getSubscription();
    if (sub && !sameKey(sub, publicKey)) { await sub.unsubscribe().catch(() => {}); sub = null; }
    box.checked = Boolean(sub);
    box.dataset.state = sub ? 'on' : 'off';
    say(sub ? 'This device gets a push when a session waits for you or finishes, even with wharf closed.'
      : 'A push when a session waits for you or finishes, even with wharf closed. Pushes pass through the browser maker\'s push service, encrypted.');
  }

  async function turnOn() {
    let permission = Notification.permission;
    if (permission === 'default') {
      try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
    }
    if (permission !== 'granted') throw new Error('the browser refused notifications for this page: allow them in its site settings, then turn this on again');
    const reg = await registration();
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameKey(sub, publicKey)) { await sub.unsubscribe(); sub = null; }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(publicKey) });
    const res = await fetch('/api/push/subscriptions', {
      method: 'POST', headers: headers(true), body: JSON.stringify(sub.toJSON()), cache: 'no-store',
    });
    if (!res.ok) {
      const answer = await res.json().catch(() => null);
      await sub.unsubscribe().catch(() => {});
      throw new Error(answer?.error?.message ?? `HTTP ${res.status}`);
    }
  }

  async function turnOff() {
    const reg = await navigator.serviceWorker.getRegistration('/');
    const sub = await reg?.pushManager.getSubscription();
    if (!sub) return;
    await fetch('/api/push/subscriptions', {
      method: 'DELETE', headers: headers(true), body: JSON.stringify({ endpoint: sub.endpoint }), cache: 'no-store',
    }).catch(() => {});
    await sub.unsubscribe();
  }

  box.addEventListener('change', async () => {
    const wanted = box.checked;
    box.disabled = true;
    say(wanted ? 'Subscribing…' : 'Unsubscribing…');
    let failure = null;
    try { await (wanted ? turnOn() : turnOff()); } catch (error) { failure = error; }
    await check();
    if (failure) say(`Push is not on: ${failure.message}.`);
  });

  check();
  return { element: box, refresh: check };
}
