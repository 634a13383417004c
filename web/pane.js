// The web pane: the HTML page the attached session published (`wharf pane show`), beside
// the terminal on a wide window, or in place of it on a phone at the press of a button.
//
// The page is untrusted (an agent wrote it). It is loaded from /pane/SESSION/TOKEN into
// an iframe sandboxed with scripts and forms only: an opaque origin, so nothing of this
// page (its URL with the key, its DOM, its storage) is reachable; no top navigation, no
// popups. The daemon serves the document under a policy with no network access at all
// (core/pane.hpp). The token names one publication and is all the address holds: the key
// is never in a URL the page can read.
//
// The one way back is a form marked data-feedback: a script the daemon put in the page
// posts its fields here, and only a message whose source is this very frame's window is
// taken; it goes to the daemon (`pane_feedback`), which checks it against its caps, files
// it and types one line into the session. Everything about layout stays in this module:
// the width (a divider to drag, kept per browser), the collapse on a wide window, and the
// pane-or-terminal switch on a narrow one. The terminal container shrinks or grows with
// the pane and refits itself (terminal_view.js observes it); the PTY follows only when
// this window drives.
const WIDTH_KEY = 'wharf.paneWidth';
const COLLAPSED_KEY = 'wharf.paneCollapsed';
const NARROW_PX = 760; // below this the pane and the terminal take turns
const MIN_PX = 240;
const MAX_FEEDBACK_BYTES = 48 * 1024; // the daemon's cap (docs/page.md); checked here too

export function createPane({ send, focusTerminal }) {
  const root = document.createElement('aside');
  root.id = 'pane';
  root.setAttribute('aria-label', 'Web pane');
  root.hidden = true;
  const divider = document.createElement('div');
  divider.className = 'pane-divider';
  divider.setAttribute('role', 'separator');
  divider.setAttribute('aria-orientation', 'vertical');
  divider.setAttribute('aria-label', 'Resize the web pane');
  divider.tabIndex = 0;
  const head = document.createElement('header');
  head.className = 'pane-head';
  const title = document.createElement('span');
  title.className = 'pane-title';
  const note = document.createElement('span');
  note.className = 'pane-note';
  note.setAttribute('role', 'status');
  note.setAttribute('aria-live', 'polite');
  const hide = document.createElement('button');
  hide.type = 'button';
  hide.className = 'pane-hide';
  hide.textContent = 'Hide';
  hide.title = 'Put the web pane away';
  head.append(title, note, hide);
  // A new frame for every page: nothing of the last one (a navigation it started, a timer,
  // a message it posts late) can reach the next.
  const makeFrame = (url, name) => {
    const f = document.createElement('iframe');
    f.className = 'pane-frame';
    // Scripts and forms only: no same-origin, no top navigation, no popups, no downloads.
    f.setAttribute('sandbox', 'allow-scripts allow-forms');
    f.setAttribute('referrerpolicy', 'no-referrer');
    f.setAttribute('allow', '');
    f.title = name ? `Web pane: ${name}` : 'Web pane';
    if (url) f.src = url;
    return f;
  };
  let frame = makeFrame();
  root.append(divider, head, frame);
  document.body.append(root);

  // The button in the tab bar: shows the pane again (wide) or switches pane and
  // terminal (narrow). Only there while the session has a page.
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'pane-toggle';
  toggle.hidden = true;
  toggle.title = 'Show the web pane';
  toggle.setAttribute('aria-label', toggle.title);
  toggle.innerHTML = '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><rect x="1.5" y="2.5" width="13" height="11" rx="1.5" fill="none" stroke="currentColor"/><path d="M9.5 2.5v11" stroke="currentColor"/><path d="M11 5.5h2M11 7.5h2M11 9.5h2" stroke="currentColor"/></svg>';

  let session = null; // the attached session this pane belongs to
  let page = null; // its page: { token, title, bytes, published, url } or null
  let collapsed = localStorage.getItem(COLLAPSED_KEY) === '1';
  let showingOnPhone = false; // narrow: the pane covers the terminal
  let fresh = false; // a page arrived while the pane was put away: the button has a dot
  let noteTimer = 0;

  const narrow = () => window.innerWidth < NARROW_PX;
  const savedWidth = () => Number(localStorage.getItem(WIDTH_KEY)) || Math.round(window.innerWidth * 0.4);
  const clampWidth = (px) => Math.max(MIN_PX, Math.min(px, window.innerWidth - 320));

  function layout() {
    const has = page !== null;
    const wide = !narrow();
    const open = has && (wide ? !collapsed : showingOnPhone);
    root.hidden = !open;
    toggle.hidden = !has;
    document.body.classList.toggle('pane-open', open && wide);
    document.body.classList.toggle('pane-phone', open && !wide);
    const width = wide ? clampWidth(savedWidth()) : 0;
    document.documentElement.style.setProperty('--pane-w', open && wide ? `${width}px` : '0px');
    toggle.setAttribute('aria-pressed', String(open));
    toggle.title = wide ? (open ? 'Hide the web pane' : 'Show the web pane')
      : (open ? 'Show the terminal' : 'Show the web pane');
    toggle.setAttribute('aria-label', toggle.title);
    if (open) fresh = false; // seen
    toggle.classList.toggle('fresh', has && !open && fresh);
  }

  function show(msg) {
    if (msg.page && typeof msg.page.url === 'string' && msg.page.url.startsWith('/pane/')) {
      const changed = !page || page.token !== msg.page.token || session !== msg.session;
      session = msg.session;
      page = msg.page;
      title.textContent = page.title || 'Web pane';
      if (changed) {
        setNote('');
        const next = makeFrame(page.url, page.title);
        frame.replaceWith(next);
        frame = next;
        fresh = true;
      }
    } else {
      session = msg.session;
      page = null;
      showingOnPhone = false;
      const empty = makeFrame();
      frame.replaceWith(empty);
      frame = empty;
    }
    layout();
  }

  function setNote(text, isError = false) {
    clearTimeout(noteTimer);
    note.textContent = text;
    note.classList.toggle('error', isError);
    if (text && !isError) noteTimer = setTimeout(() => { note.textContent = ''; }, 6000);
  }

  // Tells the page how its submission went, so it can say so itself.
  function answerFrame(ok, message) {
    frame.contentWindow?.postMessage({ type: 'wharf-feedback-result', ok, message }, '*');
  }

  window.addEventListener('message', (event) => {
    // Only this frame's own window; anything else (another frame, an extension) is not ours.
    if (!page || event.source !== frame.contentWindow) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'wharf-feedback') return;
    const fields = data.fields;
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return;
    let size = 0;
    try { size = new TextEncoder().encode(JSON.stringify(fields)).length; } catch { return; }
    if (size > MAX_FEEDBACK_BYTES) {
      setNote('The form holds too much to send (at most 48 KiB).', true);
      answerFrame(false, 'too large');
      return;
    }
    if (!send({ type: 'pane_feedback', session, page: page.token, fields })) {
      setNote('Not connected to wharf: nothing was sent.', true);
      answerFrame(false, 'offline');
    }
  });

  hide.addEventListener('click', () => {
    if (narrow()) showingOnPhone = false;
    else { collapsed = true; localStorage.setItem(COLLAPSED_KEY, '1'); }
    layout();
    focusTerminal?.();
  });
  toggle.addEventListener('click', () => {
    fresh = false;
    if (narrow()) showingOnPhone = !showingOnPhone;
    else { collapsed = !collapsed; localStorage.setItem(COLLAPSED_KEY, collapsed ? '1' : '0'); }
    layout();
    if (root.hidden) focusTerminal?.();
  });

  // The divider: drag (or arrow keys) to set the width; kept per browser.
  divider.addEventListener('pointerdown', (event) => {
    if (narrow()) return;
    event.preventDefault();
    divider.setPointerCapture(event.pointerId);
    root.classList.add('dragging'); // the frame must not swallow the pointer mid-drag
    const move = (e) => {
      const width = clampWidth(window.innerWidth - e.clientX);
      localStorage.setItem(WIDTH_KEY, String(width));
      layout();
    };
    const up = () => {
      root.classList.remove('dragging');
      divider.removeEventListener('pointermove', move);
      divider.removeEventListener('pointerup', up);
      divider.removeEventListener('pointercancel', up);
    };
    divider.addEventListener('pointermove', move);
    divider.addEventListener('pointerup', up);
    divider.addEventListener('pointercancel', up);
  });
  divider.addEventListener('keydown', (event) => {
    const step = event.shiftKey ? 80 : 20;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const width = clampWidth(savedWidth() + (event.key === 'ArrowLeft' ? step : -step));
    localStorage.setItem(WIDTH_KEY, String(width));
    layout();
  });
  window.addEventListener('resize', layout);

  return {
    toggle,
    // The daemon's `pane` message for the attached session.
    pane: show,
    // The daemon filed a submission (`pane_feedback`).
    filed(msg) {
      if (msg.session !== session) return;
      setNote(msg.typed ? 'Sent: the session was told where to read it.' : 'Saved; the session has ended, so nothing was typed.');
      answerFrame(true, msg.path);
    },
    // The daemon refused a submission: its reason, in the pane.
    refused(msg) {
      setNote(msg.message || 'The form was refused.', true);
      answerFrame(false, msg.code);
    },
    // The session list moved on: a pane belongs to the attached session only.
    update(state) {
      if (page && state.attachedId !== session) show({ session: state.attachedId, page: null });
    },
  };
}
