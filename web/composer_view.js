// The composer's elements, and nothing of its behaviour (composer.js): the row of image
// chips, the note, and the row with the attach button (and its hidden file input), the
// message box, the microphone and send. Every control carries an accessible name, which
// is how screen readers and the browser tests find it, and every button is
// type="button" so none can ever submit anything by itself. Icons are inline SVG lines
// stroked in the text colour: no icon font, no emoji font needed.
import { imageToken } from './drafts.js';

export function buildComposer(root, placeholder) {
  root.classList.add('composer');
  root.innerHTML = '';
  const chips = el('div', 'composer-chips');
  chips.setAttribute('aria-label', 'Attached images');
  const row = el('div', 'composer-row');
  const pick = button('composer-attach', 'Attach images', icon(ICONS.clip));
  const fileInput = document.createElement('input');
  fileInput.type = 'file';
  fileInput.accept = 'image/png,image/jpeg,image/gif,image/webp';
  fileInput.multiple = true;
  fileInput.hidden = true;
  fileInput.tabIndex = -1;
  const box = document.createElement('textarea');
  box.className = 'composer-text';
  box.rows = 1;
  box.spellcheck = true;
  box.placeholder = placeholder;
  box.setAttribute('aria-label', 'Message');
  const mic = button('composer-mic', 'Dictate', icon(ICONS.mic));
  const sendButton = button('composer-send', 'Send message (Enter)', icon(ICONS.send));
  const note = el('div', 'composer-note');
  note.setAttribute('role', 'status');
  note.hidden = true;
  row.append(pick, fileInput, box, mic, sendButton);
  root.append(chips, note, row);
  return { chips, pick, fileInput, box, mic, sendButton, note };
}

// One image's chip: its thumbnail (`preview`, a blob: URL, when this page load has the
// picture), its token and name or why it failed, and × (`onRemove`).
export function imageChip(image, preview, onRemove) {
  const chip = el('span', `composer-chip ${image.state}`);
  chip.title = image.state === 'ready' ? image.path : image.state === 'failed' ? image.error ?? 'upload failed' : 'uploading…';
  if (preview) {
    const thumb = document.createElement('img');
    thumb.className = 'composer-chip-thumb';
    thumb.src = preview;
    thumb.alt = '';
    chip.append(thumb);
  }
  const label = el('span', 'composer-chip-label');
  label.textContent = image.state === 'failed' ? `${image.name} — upload failed`
    : `${imageToken(image.n)} ${image.name}${image.state === 'uploading' ? ' …' : ''}`;
  const remove = button('composer-chip-remove', `Remove image ${image.n}`, '×');
  remove.addEventListener('click', onRemove);
  chip.append(label, remove);
  return chip;
}

function el(tag, className) {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function button(className, label, content) {
  const b = el('button', className);
  b.type = 'button';
  b.title = label;
  b.setAttribute('aria-label', label);
  if (typeof content === 'string') b.textContent = content;
  else b.append(content);
  return b;
}

// Line icons (24x24, stroked in the text colour): no icon font, no emoji font needed.
const ICONS = {
  clip: ['M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5'],
  mic: ['M12 2a3 3 0 0 0-3 3v7a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3z', 'M19 10v2a7 7 0 0 1-14 0v-2', 'M12 19v3', 'M8 22h8'],
  send: ['M22 2L11 13', 'M22 2l-7 20-4-9-9-4 20-7z'],
};

function icon(paths) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of paths) {
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
