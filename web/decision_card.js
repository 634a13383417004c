// Pending decisions (docs/protocol.md, "Decisions"): a guarded command a sandboxed
// session tried (`git push`, `gh pr merge`, ...) waits for a person. The card floats over
// the top of the terminal and shows, for the session on screen, each pending one: what
// it is, the exact command (monospace), the session, its directory and when it expires,
// with an optional note and Deny / Approve. Pending ones of other sessions are one line
// each under it with Show (their tabs carry a count too, tab_bar.js).
//
// Invariants:
// - The daemon's `decisions` list is the truth: a card is there exactly while its id is
//   in the last list. Approve and Deny only ask (the `decide` message); the card goes
//   when the list no longer has it, in every window at once.
// - It never takes the focus (the terminal keeps the keyboard) and never covers the whole
//   terminal: it is as tall as its content, at most the terminal's height less a margin,
//   and scrolls inside itself beyond that.
// - A region with a heading for screen readers; a new decision is said once, politely.
import { shortPath } from './capabilities.js';

const TICK_MS = 1000; // the expiry countdown while anything is shown
const BUSY_MS = 8000; // an answer that changed nothing gives the buttons back after this

// "4 min", "42 s": how long until `at` (ms since the epoch); null once it has passed.
export function untilText(at, now) {
  const s = Math.ceil((at - now) / 1000);
  if (!Number.isFinite(s) || s <= 0) return null;
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

// argv as one could type it: words with spaces or shell characters in single quotes.
export function commandText(argv) {
  if (!Array.isArray(argv)) return '';
  return argv.map((a) => {
    const word = String(a);
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
  }).join(' ');
}

// The card's headline: the daemon's `what` when it is a short name for the command
// ("git push"); when it is the whole command, which the card shows anyway, its first words.
export function headline(d) {
  const argv = Array.isArray(d.argv) ? d.argv.map(String) : [];
  const words = argv.slice(0, argv[0] === 'gh' ? 3 : 2).join(' ');
  if (typeof d.what === 'string' && d.what && (d.what !== commandText(argv) || !words)) return d.what;
  return words || 'A command';
}

export function createDecisionCard({ onDecide, onSelect, focusTerminal, now = () => Date.now() }) {
  const root = document.createElement('section');
  root.className = 'decisions';
  root.id = 'decisions';
  root.setAttribute('aria-labelledby', 'decisions-title');
  root.hidden = true;
  const title = document.createElement('h2');
  title.id = 'decisions-title';
  title.className = 'decisions-title';
  const list = document.createElement('ul');
  list.className = 'decisions-list';
  const others = document.createElement('ul');
  others.className = 'decisions-others';
  const said = document.createElement('span');
  said.className = 'decisions-said';
  said.setAttribute('aria-live', 'polite');
  root.append(title, list, others, said);
  document.body.append(root);

  let decisions = [];
  let attachedId = null;
  let names = new Map();
  const busy = new Map(); // id -> timer of an answer sent and not yet reflected
  const known = new Set(); // ids already announced
  let tick = 0;
  let drawn = null; // what the card shows now: a redraw only when that changes

  function nameOf(d) {
    return names.get(d.session) ?? d.session_name ?? `session ${d.session}`;
  }

  function card(d) {
    const li = document.createElement('li');
    li.className = 'decision';
    li.dataset.id = String(d.id);
    const head = document.createElement('div');
    head.className = 'decision-head';
    const what = document.createElement('strong');
    what.className = 'decision-what';
    what.textContent = headline(d);
    const expiry = document.createElement('span');
    expiry.className = 'decision-expiry';
    expiry.dataset.expires = String(d.expires_at_ms ?? '');
    head.append(what, expiry);
    const command = document.createElement('code');
    command.className = 'decision-command';
    command.id = `decision-${d.id}-command`;
    command.textContent = commandText(d.argv) || what.textContent;
    const where = document.createElement('p');
    where.className = 'decision-where';
    where.textContent = [nameOf(d), d.cwd ? `in ${shortPath(d.cwd)}` : null].filter(Boolean).join(' ');
    if (d.cwd) where.title = d.cwd;
    const note = document.createElement('input');
    note.type = 'text';
    note.className = 'decision-note';
    note.maxLength = 250; // the daemon takes at most 1000 bytes: 250 characters of any script
    note.autocomplete = 'off';
    note.placeholder = 'Note (optional)';
    note.setAttribute('aria-label', `Note for ${what.textContent}`);
    // Enter never answers: a decision is a click, not a key that was meant for elsewhere.
    note.addEventListener('keydown', (event) => { if (event.key === 'Enter') event.preventDefault(); });
    const buttons = document.createElement('div');
    buttons.className = 'decision-buttons';
    const deny = answerButton('Deny', 'deny');
    const approve = answerButton('Approve', 'approve primary');
    for (const b of [deny, approve]) b.setAttribute('aria-describedby', command.id);
    deny.addEventListener('click', () => answer(d.id, false, note, li));
    approve.addEventListener('click', () => answer(d.id, true, note, li));
    buttons.append(note, deny, approve);
    li.append(head, command, where, buttons);
    if (busy.has(d.id)) setBusy(li, true);
    return li;
  }

  function answerButton(text, className) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = className;
    b.textContent = text;
    return b;
  }

  function setBusy(li, on) {
    li.classList.toggle('busy', on);
    for (const b of li.querySelectorAll('button')) b.disabled = on || li.classList.contains('expired');
  }

  function answer(id, approve, note, li) {
    if (busy.has(id)) return;
    if (!onDecide(id, approve, note.value)) return; // offline: the card stays as it was
    busy.set(id, setTimeout(() => { busy.delete(id); render(true); }, BUSY_MS));
    setBusy(li, true);
    focusTerminal?.();
  }

  function otherRow(sessionId, items) {
    const li = document.createElement('li');
    li.className = 'decisions-other';
    const text = document.createElement('span');
    const first = items[0];
    const name = nameOf(first);
    text.textContent = items.length === 1
      ? `${headline(first)} waits in ${name}`
      : `${items.length} decisions wait in ${name}`;
    const show = answerButton('Show', 'decisions-show');
    show.setAttribute('aria-label', `Show ${name}`);
    show.addEventListener('click', () => { onSelect(sessionId); focusTerminal?.(); });
    li.append(text, show);
    return li;
  }

  function drawExpiry() {
    const at = now();
    for (const li of list.querySelectorAll('.decision')) {
      const el = li.querySelector('.decision-expiry');
      const expires = Number(el.dataset.expires);
      if (!expires) { el.textContent = ''; continue; }
      const left = untilText(expires, at);
      el.textContent = left ? `expires in ${left}` : 'expired';
      el.title = `expires at ${new Date(expires).toLocaleTimeString()}`;
      if (!left && !li.classList.contains('expired')) { li.classList.add('expired'); setBusy(li, true); }
    }
  }

  // Redraws only when what it shows changes: the sessions list arrives on every activity
  // change, and rebuilding under a pressed button would lose its click.
  function render(force = false) {
    const shown = JSON.stringify([attachedId, decisions.map((d) => [d.id, d.session, nameOf(d), d.expires_at_ms])]);
    if (!force && shown === drawn) return;
    drawn = shown;
    const mine = decisions.filter((d) => d.session === attachedId);
    const rest = new Map();
    for (const d of decisions) {
      if (d.session === attachedId) continue;
      if (!rest.has(d.session)) rest.set(d.session, []);
      rest.get(d.session).push(d);
    }
    // A note being typed survives a redraw of the list.
    const notes = new Map([...list.querySelectorAll('.decision')].map((li) => [li.dataset.id, li.querySelector('.decision-note')]));
    const focused = document.activeElement?.classList?.contains('decision-note') ? document.activeElement.closest('.decision')?.dataset.id : null;
    list.replaceChildren(...mine.map((d) => {
      const old = notes.get(String(d.id));
      const li = card(d);
      if (old?.value) li.querySelector('.decision-note').value = old.value;
      return li;
    }));
    if (focused) list.querySelector(`.decision[data-id="${focused}"] .decision-note`)?.focus();
    others.replaceChildren(...[...rest].map(([id, items]) => otherRow(id, items)));
    others.hidden = rest.size === 0;
    list.hidden = mine.length === 0;
    title.textContent = mine.length > 1 ? `${mine.length} decisions wait for you` : mine.length ? 'A decision waits for you' : 'Decisions in other sessions';
    title.classList.toggle('quiet', mine.length === 0);
    root.hidden = decisions.length === 0;
    root.dataset.mine = String(mine.length);
    drawExpiry();
    clearInterval(tick);
    tick = root.hidden ? 0 : setInterval(drawExpiry, TICK_MS);
  }

  return {
    element: root,
    // The daemon's list of every pending decision (the `decisions` message).
    decisions(items) {
      decisions = items.filter((d) => d && Number.isInteger(d.id));
      const ids = new Set(decisions.map((d) => d.id));
      for (const [id, timer] of busy) if (!ids.has(id)) { clearTimeout(timer); busy.delete(id); }
      const fresh = decisions.filter((d) => !known.has(d.id));
      for (const id of [...known]) if (!ids.has(id)) known.delete(id);
      for (const d of fresh) known.add(d.id);
      if (fresh.length) said.textContent = `${headline(fresh[0])} in ${nameOf(fresh[0])} waits for your decision.`;
      render();
    },
    // The page's session state: which session is on screen, and the sessions' names.
    update(state) {
      if (Array.isArray(state.sessions)) names = new Map(state.sessions.map((s) => [s.id, s.name]));
      if ('attachedId' in state) attachedId = state.attachedId;
      render();
    },
    // Pending decisions per session id, for the tab badges and the picker.
    counts() {
      const counts = new Map();
      for (const d of decisions) counts.set(d.session, (counts.get(d.session) ?? 0) + 1);
      return counts;
    },
  };
}
