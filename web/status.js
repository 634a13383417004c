// What the page tells the person about its state, in three places:
// - the status line, a small pill over the terminal's corner: connecting, a page that
//   cannot go on (an outage is the curtain's, see curtain.js), and brief
//   flashes (a refused request, a session that ended while we moved on);
// - the watcher notice: shown when this window's input was refused because another
//   window drives the session, or when it lost the drive. It points at the bar's one
//   "Take over" button (tab_bar.js) instead of carrying a second one;
// - the empty state, a panel over the terminal when this window is attached to nothing
//   (no session left, or the last one ended), with a "New session" button.
// Only the notice and the panel take clicks; the status line lets them fall through.
const FLASH_MS = 5000;
const NOTICE_MS = 8000; // after the last refused keystroke

export const WATCHING_TEXT = 'Watching — another window drives this session. Take over (in the bar) to type here.';

export function createStatus({ line, notice, empty }, { onTakeOver, onNewSession, onChoose, focusTerminal }) {
  let steady = null; // { text, kind } or null when there is nothing to say
  const alerts = createAlerts();
  let flash = null;
  let downTimer = 0;
  let flashTimer = 0;
  let noticeTimer = 0;

  function render() {
    const shown = flash ?? steady;
    line.hidden = !shown;
    line.textContent = shown?.text ?? '';
    line.dataset.kind = shown?.kind ?? '';
  }

  function setSteady(next) {
    clearTimeout(downTimer);
    downTimer = 0;
    steady = next;
    render();
  }

  // The notice: text only (the bar has the button), built once.
  const noticeText = document.createElement('span');
  noticeText.textContent = WATCHING_TEXT;
  notice.replaceChildren(noticeText);
  notice.hidden = true;
  keepFocusOut(notice);

  function hideNotice() {
    clearTimeout(noticeTimer);
    noticeTimer = 0;
    notice.hidden = true;
  }

  // The empty state: a heading, a line of explanation and one button.
  const emptyTitle = document.createElement('h2');
  const emptyText = document.createElement('p');
  const newButton = document.createElement('button');
  newButton.type = 'button';
  newButton.textContent = 'New session';
  newButton.addEventListener('click', () => { onNewSession(); focusTerminal(); });
  // "Choose…": the launcher (what to run, where), when the page has one.
  const chooseButton = document.createElement('button');
  chooseButton.type = 'button';
  chooseButton.className = 'secondary';
  chooseButton.textContent = 'Choose…';
  chooseButton.setAttribute('aria-label', 'Choose what to start and where');
  chooseButton.addEventListener('click', () => onChoose?.(chooseButton));
  const emptyButtons = document.createElement('div');
  emptyButtons.className = 'buttons';
  emptyButtons.append(newButton);
  if (onChoose) emptyButtons.append(chooseButton);
  const emptyHint = document.createElement('p');
  emptyHint.className = 'hint';
  emptyHint.textContent = 'or press Enter';
  const card = document.createElement('div');
  card.className = 'card';
  card.replaceChildren(emptyTitle, emptyText, emptyButtons, emptyHint);
  empty.replaceChildren(card);
  empty.hidden = true;
  keepFocusOut(empty);

  return {
    connecting() { setSteady({ text: 'Connecting…', kind: 'info' }); },
    // The server greeted us: whatever we were waiting for is over.
    up() { if (steady?.kind !== 'error') setSteady(null); },
    // Called on every drop. Buttons that need the server go away at once: they could
    // not work meanwhile. Saying so (after a grace) is the curtain's job (curtain.js).
    down() {
      hideNotice();
      empty.hidden = true;
      if (steady?.kind === 'info') setSteady(null);
    },
    // The page cannot go on by itself (no key, unknown protocol): stays until reload.
    fatal(text) {
      hideNotice();
      empty.hidden = true;
      setSteady({ text, kind: 'error' });
    },
    // Errors that matter (kind 'error': a refused request) stay until dismissed with
    // their ×; the rest (info, ended) flash for a few seconds. The status line is a polite
    // live region, the alerts an assertive one, so a screen reader hears both.
    error(text, kind = 'error') {
      if (kind === 'error') { alerts.add(text); return; }
      clearTimeout(flashTimer);
      flash = { text, kind };
      flashTimer = setTimeout(() => { flash = null; render(); }, FLASH_MS);
      render();
    },
    // A session ended and the page moved on (to a neighbour): say so briefly.
    ended(name, exit) { this.error(`${name} ended (${howEnded(exit)}).`, 'ended'); },
    attached() {
      empty.hidden = true;
      hideNotice();
    },
    // Attached to nothing. `ended`: { name, code, signal } when the session just ended.
    empty({ ended = null, others = 0 } = {}) {
      hideNotice();
      emptyTitle.textContent = ended ? `${ended.name} ended (${howEnded(ended)})` : 'No session';
      emptyText.textContent = others > 0
        ? 'Pick a session in the tab bar, or start a new one.'
        : 'No sessions are running.';
      empty.hidden = false;
    },
    isEmpty() { return !empty.hidden; },
    // Input was refused, or another window took the session: say why nothing happens.
    watching() {
      notice.hidden = false;
      clearTimeout(noticeTimer);
      noticeTimer = setTimeout(hideNotice, NOTICE_MS);
    },
    driving() { hideNotice(); },
  };
}

// The stack of errors that stay until dismissed, top right under the bar. The same text
// twice is one alert (a repeated refusal), brought to the end.
function createAlerts() {
  const box = document.createElement('div');
  box.id = 'alerts';
  box.setAttribute('role', 'alert');
  box.setAttribute('aria-live', 'assertive');
  document.body.append(box);
  const MAX = 4;
  return {
    add(text) {
      for (const old of box.children) if (old.dataset.text === text) old.remove();
      const item = document.createElement('div');
      item.className = 'alert';
      item.dataset.text = text;
      const words = document.createElement('span');
      words.textContent = text;
      const dismiss = document.createElement('button');
      dismiss.type = 'button';
      dismiss.className = 'alert-dismiss';
      dismiss.textContent = '×';
      dismiss.setAttribute('aria-label', 'Dismiss');
      dismiss.title = 'Dismiss';
      dismiss.addEventListener('mousedown', (event) => event.preventDefault()); // keep the terminal's focus
      dismiss.addEventListener('click', () => item.remove());
      item.append(words, dismiss);
      box.append(item);
      while (box.children.length > MAX) box.firstElementChild.remove();
    },
    clear() { box.replaceChildren(); },
  };
}

function howEnded({ code, signal }) {
  if (signal) return `killed by ${signal}`;
  return code == null ? 'exited' : `exit code ${code}`;
}

// Clicking a panel's background must not pull focus out of the terminal.
function keepFocusOut(el) {
  el.addEventListener('mousedown', (event) => { if (event.target === el) event.preventDefault(); });
}
