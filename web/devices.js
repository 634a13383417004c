// Paired devices, in the settings dialog (docs/remote.md, "Pairing a phone"): the list of
// browsers paired with this wharf (name, when paired, when last used; this browser
// marked) with a Revoke button each, and "Pair a device…", which asks the daemon for a
// one-time pairing link and shows it with its QR code for a phone's camera.
//
// Everything goes through /api/v1/devices (the same operations as `wharf devices` and
// `wharf pair`). Revoking asks twice in place (the button turns into "Revoke now" for a
// few seconds): a confirm outside the modal settings dialog could not be clicked. The QR
// code is the daemon's SVG, shown as an image (no markup from the network enters the
// page's DOM).
import { keyHeaders } from './credentials.js';

const CONFIRM_MS = 4000;

function when(seconds) {
  if (!seconds) return 'never';
  const date = new Date(seconds * 1000);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString([], { year: 'numeric', month: 'short', day: 'numeric' });
}

export function createDevices(fieldset, { key }) {
  async function call(path, body) {
    const res = await fetch(`/api/v1/${path}`, body === undefined
      ? { headers: keyHeaders(key), cache: 'no-store' }
      : { method: 'POST', headers: keyHeaders(key, { 'Content-Type': 'application/json' }), body: JSON.stringify(body), cache: 'no-store' });
    let answer = null;
    try { answer = await res.json(); } catch { /* not JSON */ }
    if (!res.ok || !answer?.ok) throw new Error(answer?.error?.message || `HTTP ${res.status}`);
    return answer;
  }

  const list = document.createElement('ul');
  list.className = 'devices-list';
  list.setAttribute('aria-label', 'Paired devices');
  const note = document.createElement('p');
  note.className = 'settings-hint';
  note.setAttribute('aria-live', 'polite');
  const pairButton = document.createElement('button');
  pairButton.type = 'button';
  pairButton.className = 'devices-pair';
  pairButton.textContent = 'Pair a device…';
  const intro = document.createElement('p');
  intro.className = 'settings-hint';
  intro.textContent = 'A paired browser stays signed in across restarts without the key in its address.';
  fieldset.append(intro, list, note, pairButton);

  function render(devices) {
    list.replaceChildren();
    if (devices.length === 0) {
      const li = document.createElement('li');
      li.className = 'devices-none';
      li.textContent = 'No paired devices yet.';
      list.append(li);
    }
    for (const d of devices) {
      const li = document.createElement('li');
      li.dataset.device = String(d.id);
      if (d.current) li.classList.add('current');
      const text = document.createElement('div');
      const name = document.createElement('span');
      name.className = 'devices-name';
      name.textContent = d.name;
      text.append(name);
      if (d.current) {
        const mark = document.createElement('span');
        mark.className = 'devices-current';
        mark.textContent = 'this browser';
        text.append(' ', mark);
      }
      const meta = document.createElement('span');
      meta.className = 'devices-meta';
      meta.textContent = `#${d.id} · paired ${when(d.created)} · last used ${when(d.last_used)}`;
      text.append(meta);
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.textContent = 'Revoke';
      revoke.setAttribute('aria-label', `Revoke ${d.name}${d.current ? ' (this browser)' : ''}`);
      let armed = 0;
      revoke.addEventListener('click', async () => {
        if (!armed) {
          revoke.textContent = 'Revoke now';
          revoke.classList.add('danger');
          armed = setTimeout(() => { armed = 0; revoke.textContent = 'Revoke'; revoke.classList.remove('danger'); }, CONFIRM_MS);
          return;
        }
        clearTimeout(armed);
        armed = 0;
        revoke.disabled = true;
        try {
          await call('devices/revoke', { device: d.id });
          note.textContent = `${d.name} was revoked.`;
        } catch (error) {
          note.textContent = `Not revoked: ${error.message}`;
        }
        refresh();
      });
      li.append(text, revoke);
      list.append(li);
    }
  }

  async function refresh() {
    try {
      const answer = await call('devices');
      render(answer.devices ?? []);
    } catch (error) {
      list.replaceChildren();
      note.textContent = `The devices could not be listed: ${error.message}`;
    }
  }

  // ---- the pairing dialog -------------------------------------------------------------
  const dialog = document.createElement('dialog');
  dialog.className = 'settings pair-dialog';
  dialog.id = 'pair-dialog';
  dialog.setAttribute('aria-labelledby', 'pair-title');
  const title = document.createElement('h2');
  title.id = 'pair-title';
  title.textContent = 'Pair a device';
  const how = document.createElement('p');
  how.className = 'pair-how';
  how.textContent = 'Scan the code with the phone\'s camera, or open the link on the device. It works once, for ten minutes.';
  const qr = document.createElement('img');
  qr.className = 'pair-qr';
  qr.alt = 'QR code of the pairing link';
  qr.hidden = true;
  const link = document.createElement('a');
  link.className = 'pair-link';
  link.target = '_blank';
  link.rel = 'noreferrer';
  const expires = document.createElement('p');
  expires.className = 'settings-hint pair-expires';
  const fingerprint = document.createElement('p');
  fingerprint.className = 'settings-hint pair-fingerprint';
  const error = document.createElement('p');
  error.className = 'pair-error';
  error.setAttribute('role', 'alert');
  const buttons = document.createElement('form');
  buttons.method = 'dialog';
  buttons.className = 'settings-buttons';
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.textContent = 'Copy link';
  const done = document.createElement('button');
  done.type = 'submit';
  done.className = 'primary';
  done.textContent = 'Done';
  buttons.append(copy, done);
  dialog.append(title, how, qr, link, expires, fingerprint, error, buttons);
  document.body.append(dialog);

  copy.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(link.href); copy.textContent = 'Copied'; } catch { copy.textContent = 'Copy failed'; }
    setTimeout(() => { copy.textContent = 'Copy link'; }, 2000);
  });
  dialog.addEventListener('close', () => { pairButton.focus(); refresh(); });
  dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close(); });

  pairButton.addEventListener('click', async () => {
    qr.hidden = true;
    link.textContent = '';
    link.removeAttribute('href');
    expires.textContent = '';
    fingerprint.textContent = '';
    error.textContent = '';
    copy.hidden = true;
    dialog.showModal();
    done.focus();
    try {
      const answer = await call('devices/pair', {});
      qr.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(answer.qr_svg)}`;
      qr.hidden = false;
      link.href = answer.url;
      link.textContent = answer.url;
      expires.textContent = `Works once, until ${new Date(answer.expires * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`;
      if (answer.fingerprint) fingerprint.textContent = `Certificate SHA-256: ${answer.fingerprint}`;
      copy.hidden = false;
    } catch (e) {
      error.textContent = `No pairing link: ${e.message}`;
    }
  });

  return { refresh };
}
