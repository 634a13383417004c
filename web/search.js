// Search in the terminal's scrollback: Ctrl+F (Cmd+F) opens a small box over the top
// right corner of the terminal; typing searches as you go, Enter and Shift+Enter step
// to the next and previous match, Escape closes it and gives the focus back to the
// terminal. Matches are highlighted (xterm's search addon with decorations).
import { SearchAddon } from './vendor/addon-search/addon-search.mjs';

const DECORATIONS = {
  matchBackground: '#3b4a5e',
  matchBorder: '#5c7394',
  matchOverviewRuler: '#5c7394',
  activeMatchBackground: '#8a6d2f',
  activeMatchBorder: '#e5c07b',
  activeMatchColorOverviewRuler: '#e5c07b',
};

export function createSearch(term, container, { focusTerminal }) {
  const addon = new SearchAddon();
  term.loadAddon(addon);

  const box = document.createElement('div');
  box.className = 'term-search';
  box.setAttribute('role', 'search');
  box.hidden = true;
  const input = document.createElement('input');
  input.type = 'text';
  input.spellcheck = false;
  input.placeholder = 'Find';
  input.setAttribute('aria-label', 'Find in terminal');
  const count = document.createElement('span');
  count.className = 'term-search-count';
  count.setAttribute('aria-live', 'polite');
  const button = (label, text, action) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', () => { action(); input.focus(); });
    return b;
  };
  // Toggles, as in editors: match case, regular expression.
  const options = { caseSensitive: false, regex: false };
  const toggle = (label, text, option) => {
    const b = button(label, text, () => {
      options[option] = !options[option];
      b.setAttribute('aria-pressed', String(options[option]));
      find(true, true);
    });
    b.classList.add('term-search-toggle');
    b.setAttribute('aria-pressed', 'false');
    return b;
  };
  const matchCase = toggle('Match case', 'Aa', 'caseSensitive');
  const regex = toggle('Use regular expression', '.*', 'regex');
  const prev = button('Previous match (Shift+Enter)', '↑', () => find(false));
  const next = button('Next match (Enter)', '↓', () => find(true));
  const close = button('Close (Escape)', '×', () => hide());
  box.append(input, matchCase, regex, count, prev, next, close);
  container.append(box);

  addon.onDidChangeResults(({ resultIndex, resultCount }) => {
    if (!input.value) count.textContent = '';
    else if (resultCount === 0) count.textContent = 'No results';
    else if (resultIndex < 0) count.textContent = `${resultCount}+ matches`;
    else count.textContent = `${resultIndex + 1} of ${resultCount}`;
  });

  function find(forward, incremental = false) {
    const text = input.value;
    if (!text) {
      addon.clearDecorations();
      count.textContent = '';
      return;
    }
    const how = { ...options, decorations: DECORATIONS, incremental };
    let found = false;
    try {
      found = forward ? addon.findNext(text, how) : addon.findPrevious(text, how);
    } catch { /* an unfinished regular expression */ }
    if (!found) count.textContent = 'No results';
  }

  function show() {
    box.hidden = false;
    const selected = term.getSelection();
    if (selected && !selected.includes('\n')) input.value = selected;
    input.select();
    input.focus();
    if (input.value) find(true, true);
  }

  function hide() {
    if (box.hidden) return;
    box.hidden = true;
    addon.clearDecorations();
    count.textContent = '';
    focusTerminal();
  }

  input.addEventListener('input', () => find(true, true));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { e.preventDefault(); hide(); }
    else if (e.key === 'Enter') { e.preventDefault(); find(!e.shiftKey); }
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') { e.preventDefault(); input.select(); }
  });

  return { show, hide, get open() { return !box.hidden; } };
}
