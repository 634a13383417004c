// A small confirm, anchored under whatever asked (a tab's ×, the power button): a title
// saying what ends, a line of detail (or a list), Cancel and the action. The action
// button has the focus, so Enter confirms, unless the asker says `safeFocus` (stopping
// wharf): then Cancel has it, so an Enter that was meant for the terminal declines
// instead of ending everything. Escape, Cancel or a click elsewhere declines.
// One at a time: asking again declines the one that is open. Resolves true or false.
let open = null; // { close(answer) } of the confirm on screen

export function ask({ title, text = '', items = [], confirm = 'OK', danger = false, safeFocus = false, anchor = null }) {
  open?.close(false);
  return new Promise((resolve) => {
    const box = document.createElement('div');
    box.className = 'confirm';
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-modal', 'true');
    const heading = document.createElement('h2');
    heading.id = `confirm-title-${Date.now()}`;
    heading.textContent = title;
    box.setAttribute('aria-labelledby', heading.id);
    box.append(heading);
    if (text) {
      const p = document.createElement('p');
      p.id = `${heading.id}-text`;
      p.textContent = text;
      box.setAttribute('aria-describedby', p.id);
      box.append(p);
    }
    if (items.length) {
      const ul = document.createElement('ul');
      for (const item of items) {
        const li = document.createElement('li');
        li.textContent = item;
        ul.append(li);
      }
      box.append(ul);
    }
    const row = document.createElement('div');
    row.className = 'confirm-buttons';
    const no = document.createElement('button');
    no.type = 'button';
    no.textContent = 'Cancel';
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.textContent = confirm;
    yes.className = danger ? 'danger' : 'primary';
    row.append(no, yes);
    box.append(row);

    const previous = document.activeElement;
    let done = false;
    const close = (answer) => {
      if (done) return;
      done = true;
      open = null;
      box.remove();
      document.removeEventListener('pointerdown', outside, true);
      if (!answer && previous instanceof HTMLElement && previous.isConnected) previous.focus();
      resolve(answer);
    };
    const outside = (event) => { if (!box.contains(event.target)) close(false); };
    no.addEventListener('click', () => close(false));
    yes.addEventListener('click', () => close(true));
    box.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') { event.preventDefault(); close(false); }
      // Focus stays inside: Tab moves between the two buttons only.
      if (event.key === 'Tab') {
        event.preventDefault();
        (document.activeElement === yes ? no : yes).focus();
      }
    });
    document.body.append(box);
    place(box, anchor);
    document.addEventListener('pointerdown', outside, true);
    open = { close };
    (safeFocus ? no : yes).focus();
  });
}

// Under the anchor, kept inside the window.
function place(box, anchor) {
  const rect = anchor?.isConnected ? anchor.getBoundingClientRect() : null;
  const width = box.offsetWidth;
  const left = rect ? Math.min(Math.max(8, rect.left + rect.width / 2 - width / 2), window.innerWidth - width - 8)
    : (window.innerWidth - width) / 2;
  box.style.left = `${Math.max(8, left)}px`;
  box.style.top = `${rect ? rect.bottom + 6 : 48}px`;
}

export function closeConfirm() { open?.close(false); }
