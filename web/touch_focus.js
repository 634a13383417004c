// Whether the terminal may take the focus, on a touch device. Focusing the terminal's
// textarea raises the soft keyboard, which covers half the screen; on a phone a tap is
// also how one scrolls and selects, and a tab switch is not a wish to type. So on a touch
// device the terminal takes the focus only when asked for on purpose (the toolbar's
// keyboard key, key_toolbar.js): taps on the terminal and the page's own calls to focus
// it (after a tab switch, a dialog, a reconnect) leave the keyboard down. `?focus=1`
// restores tap-to-focus; `?focus=0` turns it off on a desktop too. The operator's default
// for touch devices is config.toml's `[page] focus` (served as `page.focus` in
// /api/status, which settings.js fetches): it applies once it arrives, unless the URL
// says `?focus=`; it leaves a desktop alone.
//
// Invariants: a desktop (fine pointer, no ?focus) is untouched. Once the keyboard is up
// (raised on purpose) the page's focus calls keep it up; a blur of the textarea (the
// keyboard put away, another control focused) locks it again. Focus that lands anyway
// (xterm.js focuses its textarea on a press, through more than one path) is dropped
// rather than intercepted, so scrolling and selecting stay xterm.js's own.

// Whether a tap on the terminal may focus it: `?focus=0|1` wins, then the operator's
// default on a touch device (`operator`: true, false or undefined), else not on touch.
export function focusOnTapWanted(search = location.search, touch = false, operator = undefined) {
  const forced = new URLSearchParams(search).get('focus');
  if (forced === '1' || forced === 'on') return true;
  if (forced === '0' || forced === 'off') return false;
  if (touch && typeof operator === 'boolean') return operator;
  return !touch;
}

// view: the terminal view (its setFocusGate decides what view.focus may do).
export function installTouchFocus(view, container, { raiseOnTap }) {
  const term = view.term;
  let allowed = raiseOnTap; // the keyboard was asked for and has not been put away since
  const locked = () => !raiseOnTap && !allowed;
  const drop = () => { if (locked() && document.activeElement === term.textarea) term.textarea.blur(); };

  view.setFocusGate(() => !locked());
  term.textarea?.addEventListener('focus', () => { if (locked()) setTimeout(drop, 0); });
  term.textarea?.addEventListener('blur', () => { if (!raiseOnTap) allowed = false; });
  // A tap on an already focused textarea raises the keyboard again with no focus event.
  container.addEventListener('pointerdown', () => { if (locked()) setTimeout(drop, 0); }, true);
  drop(); // the view took the focus when it was made

  return {
    raisesOnTap: () => raiseOnTap,
    // The rule changed (the operator's default arrived): from the next tap on.
    setRaiseOnTap(on) {
      raiseOnTap = on;
      if (!on) allowed = document.activeElement === term.textarea && allowed;
      drop();
    },
    // The one deliberate request for the keyboard.
    raise() {
      allowed = true;
      term.focus();
      term.textarea?.focus();
    },
  };
}
