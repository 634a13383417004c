// The connection: one WebSocket to the daemon, speaking docs/protocol.md version 2.
// One socket is one window: it sees every session (the tab bar), is attached to at most
// one, drives it or watches it, and acknowledges the output its terminal has processed
// (flow control). After a drop it comes back by itself with backoff and re-attaches to
// the session this window last viewed; only the first connection of a page load may
// start a session, so reconnecting never starts one.
const PROTOCOL = 2;
const MAX_MESSAGE = 64 * 1024; // the server closes the connection on larger messages
const ACK_EVERY = 64 * 1024; // acknowledge at least this often while output streams
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
const LIVENESS_MS = 5000; // how long a woken page waits for a pong before giving up
const LAST_SESSION_KEY = 'wharf.lastSession'; // per window (tab): sessionStorage
const VIEWING_KEY = 'wharf.viewingEnded'; // the ended session this window shows, if any
const TOKEN_KEY = 'wharf.windowToken'; // who this tab is, across its reloads: sessionStorage
const NOTHING = new Uint8Array(0);
// The `error` codes that refuse a pane form's submission (docs/protocol.md).
const PANE_REFUSALS = ['bad_feedback', 'too_soon', 'too_many_feedback', 'no_page'];
// The `error` codes that refuse a `new` (docs/protocol.md): the launcher shows them.
const NEW_REFUSALS = ['bad_field', 'bad_env', 'bad_directory', 'bad_entry', 'unknown_entry',
  'not_installed', 'limit_reached', 'start_failed', 'bad_config', 'no_sandbox'];

// This tab's window token: 128 random bits in sessionStorage, which a reload keeps and a
// new tab does not. The daemon keeps a driver's lease for it for a few seconds after its
// socket closes (docs/protocol.md, "Driving"). null where storage is refused: such a
// tab reloads as a watcher, as before.
function tabToken() {
  try {
    let token = sessionStorage.getItem(TOKEN_KEY);
    if (!/^[0-9a-f]{32}$/.test(token ?? '')) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      sessionStorage.setItem(TOKEN_KEY, token);
    }
    return token;
  } catch {
    return null;
  }
}

// `hooks` (all optional) hear what the page around the terminal needs: `up()` once
// greeted, `down()` on every drop, `stopping()`, `chime(id)` and `pasted(msg)` from the
// daemon.
export function openConnection({ view, status, tabs, hooks = {}, key = new URLSearchParams(location.search).get('k') }) {
  const { term } = view;
  const encoder = new TextEncoder();
  let ws = null;
  // connecting: socket opening, no hello yet; open: greeted; down: waiting to retry;
  // refused: this page cannot go on (no key, another protocol).
  let phase = 'connecting';
  let mayStart = true; // until the first attach of this page load has been sent
  let backoff = BACKOFF_FIRST_MS;
  let retryTimer = 0;
  let livenessTimer = 0;

  let windowId = null;
  const windowToken = tabToken();
  let sessions = []; // the last `sessions` list, in tab order
  // The session this window is attached to: { id, name, driver, cols, rows } or null.
  // cols/rows: the session's size as the server last told us (or as we asked, driving).
  let attached = null;
  let lastEnded = null; // { name, code, signal } of the session whose exit left us empty
  let exited = null; // id of the session whose `exit` we just handled
  // Set when the socket dropped while this window drove a session: { session, window }.
  // If the server still counts that dead socket as the driver when we come back, the
  // drive is ours to take back.
  let ghost = null;
  let snapshotNext = null; // the `snapshot` message whose binary frame comes next
  // Ended sessions (docs/protocol.md, "Ended sessions"): the daemon's list, the one this
  // window shows (read-only, ended_view.js), and, after a reload that showed one, the
  // id to show again once the first list says it is still there.
  let ended = [];
  let viewing = null;
  let viewAfterList = null;
  // The launcher's start waiting for its answer: { resolve } until `attached` (started)
  // or an `error` (refused: the launcher shows why, by the field that caused it).
  let pendingNew = null;
  const pasteOrigins = []; // who sent each paste not yet answered: 'composer' or 'terminal'

  // Flow control: bytes of binary output processed by xterm.js since `attached`.
  // `epoch` changes on every attach and every socket, so callbacks of writes queued for
  // an earlier session or socket never count towards the current one.
  let epoch = 0;
  let processed = 0;
  let acked = 0;
  let queued = 0; // writes xterm.js has not finished, whatever their epoch
  // Set from asking for another session (attach, new) until the answer: the server
  // counts from its next `attached`, so acknowledging the old session's bytes now would
  // be counted against the new one.
  let switching = false;

  function connect() {
    clearTimeout(retryTimer);
    phase = 'connecting';
    epoch++;
    pasteOrigins.length = 0; // answers come on the socket that carried the paste
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const { cols, rows } = view.proposedSize(); // only used if this socket starts a session
    // A paired browser sends no key: its device cookie goes with the handshake.
    const query = new URLSearchParams(key ? { k: key, cols, rows } : { cols, rows });
    let sock;
    try {
      sock = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
    } catch {
      dropped();
      return;
    }
    ws = sock;
    sock.binaryType = 'arraybuffer';
    let greeted = false;
    sock.onmessage = ({ data }) => {
      if (sock !== ws) return; // a socket we already gave up on
      if (livenessTimer) { clearTimeout(livenessTimer); livenessTimer = 0; }
      if (!greeted) {
        greeted = true;
        greet(typeof data === 'string' ? parse(data) : null);
        return;
      }
      if (typeof data === 'string') handle(parse(data));
      else output(new Uint8Array(data));
    };
    sock.onclose = () => {
      if (sock !== ws) return;
      ws = null;
      dropped();
    };
  }

  function greet(hello) {
    if (hello?.type !== 'hello' || hello.protocol !== PROTOCOL) {
      // A newer or unknown server: guessing could type garbage into a session.
      refuse(`The wharf server speaks protocol ${hello?.protocol ?? '?'}; this page knows ${PROTOCOL}. Reload the page.`);
      return;
    }
    phase = 'open';
    backoff = BACKOFF_FIRST_MS;
    windowId = hello.window ?? null;
    status.up();
    hooks.up?.(hello);
    let shown = null;
    try { shown = Number(sessionStorage.getItem(VIEWING_KEY)); } catch { /* private mode */ }
    if (Number.isInteger(shown) && shown > 0) {
      viewAfterList = shown; // the list, right after hello, says whether it is still kept
      showTabs();
      return;
    }
    attachFirst();
  }

  function attachFirst() {
    const last = Number(sessionStorage.getItem(LAST_SESSION_KEY));
    const msg = { type: 'attach', start: mayStart };
    if (Number.isInteger(last) && last > 0) msg.session = last;
    mayStart = false;
    request(msg);
    showTabs();
  }

  function handle(msg) {
    switch (msg?.type) {
      case 'sessions':
        sessions = Array.isArray(msg.sessions) ? msg.sessions : [];
        ended = Array.isArray(msg.ended) ? msg.ended : [];
        if (viewAfterList != null) {
          const id = viewAfterList;
          viewAfterList = null;
          if (ended.some((e) => e.id === id)) viewEnded(id);
          else { stopViewing(); attachFirst(); }
        } else if (viewing != null && !attached) {
          const record = ended.find((e) => e.id === viewing);
          if (record) hooks.endedShow?.(record);
          else leaveEnded(); // closed, here or in another window
        }
        if (attached) attached.name = nameOf(attached.id) ?? attached.name;
        if (!attached && status.isEmpty()) status.empty({ ended: lastEnded, others: sessions.length });
        showTabs();
        break;
      case 'attached':
        stopViewing();
        epoch++;
        processed = 0;
        acked = 0;
        switching = false;
        snapshotNext = null;
        lastEnded = null;
        exited = null;
        pendingNew?.resolve({ ok: true, session: msg.session });
        pendingNew = null;
        attached = { id: msg.session, name: nameOf(msg.session) ?? `session ${msg.session}`,
          driver: msg.driver === true, cols: msg.cols, rows: msg.rows };
        try { sessionStorage.setItem(LAST_SESSION_KEY, String(msg.session)); } catch { /* private mode */ }
        status.attached();
        // Becoming the driver: our size is the session's from now on, say it at once.
        if (attached.driver) sendSize(view.proposedSize(), true);
        else if (ghost?.session === msg.session && driverOf(msg.session) === ghost.window) send({ type: 'take' });
        ghost = null;
        showTabs();
        break;
      case 'snapshot':
        snapshotNext = msg;
        break;
      case 'detached':
        if (msg.session != null && msg.session === exited) break; // `exit` already moved us on
        if (viewing != null) { leave(); showTabs(); break; } // we left to show an ended one
        leave();
        if (msg.reason === 'ended' && sessions.some((s) => s.id !== msg.session)) {
          // Ended without an `exit` telling where to land: the server picks.
          request({ type: 'attach', start: false });
        } else {
          status.empty({ ended: lastEnded, others: sessions.filter((s) => s.id !== msg.session).length });
        }
        showTabs();
        break;
      case 'exit': {
        const name = nameOf(msg.session) ?? attached?.name ?? `session ${msg.session}`;
        const how = { name, code: msg.code ?? null, signal: msg.signal ?? null };
        leave();
        exited = msg.session;
        if (msg.kept === true) {
          // A failure: the tab stays, ended, with the screen the terminal shows now.
          const s = sessions.find((x) => x.id === msg.session);
          const record = ended.find((e) => e.id === msg.session) ?? { id: msg.session, name,
            program: s?.program ?? '', created: s?.created ?? null, ended: Date.now(),
            code: msg.code ?? null, signal: msg.signal ?? null, crashed: false };
          viewing = msg.session;
          rememberViewing();
          term.write('\x1b[?25l'); // no cursor: nothing can be typed there any more
          hooks.endedShow?.(record);
        } else if (msg.next != null) {
          status.ended(name, how);
          request({ type: 'attach', session: msg.next, start: false });
        } else {
          lastEnded = how;
          status.empty({ ended: how, others: 0 });
        }
        showTabs();
        break;
      }
      case 'driver':
        if (!attached || msg.session !== attached.id) break;
        attached.driver = msg.driver === true;
        if (attached.driver) {
          status.driving();
          sendSize(view.proposedSize(), true);
          inOrder(() => { if (attached?.driver) view.fitToContainer(); });
        } else {
          status.watching(); // another window took it: say so once
          const { cols, rows } = attached;
          inOrder(() => view.showSize(cols, rows));
        }
        showTabs();
        break;
      case 'size':
        if (!attached) break;
        attached.cols = msg.cols;
        attached.rows = msg.rows;
        // A watcher shows the session at its size, in step with the output around it.
        if (!attached.driver) inOrder(() => { if (attached && !attached.driver) view.showSize(msg.cols, msg.rows); });
        break;
      case 'error':
        // A refused new (or attach) leaves us where we were: acknowledge again.
        if (switching && ['limit_reached', 'start_failed', 'no_session'].includes(msg.code)) {
          switching = false;
          flushAck();
        }
        // A refused start the launcher waits for: it shows the error by its field.
        if (pendingNew && NEW_REFUSALS.includes(msg.code)) {
          if (switching) { switching = false; flushAck(); } // still where we were
          pendingNew.resolve({ ok: false, code: msg.code, message: msg.message ?? '' });
          pendingNew = null;
          break;
        }
        // A refused pane form: the pane says why, beside the form.
        if (PANE_REFUSALS.includes(msg.code) && hooks.paneRefused) {
          hooks.paneRefused(msg);
          break;
        }
        if (msg.code === 'not_driver') status.watching();
        // An ack the server no longer expects: it crossed an exit or a switch on the
        // wire. Nothing for a person to do about it.
        else if (msg.code === 'bad_field' && /^ack\b/.test(msg.message ?? '')) break;
        else status.error(msg.message || msg.code || 'The server refused a request.');
        break;
      case 'chime':
        hooks.chime?.(msg.session);
        break;
      case 'stopping':
        hooks.stopping?.(msg.sessions_kept === true);
        break;
      case 'ended_screen': // the last screen of the ended session this window shows
        if (msg.session !== viewing || attached) break;
        inOrder(() => {
          if (viewing !== msg.session || attached) return;
          view.fitToContainer();
          term.reset();
          // Plain text, written as lines; nothing typed while it shows goes anywhere.
          term.write(`${String(msg.screen ?? '').replace(/\r?\n/g, '\r\n')}\x1b[?25l`);
        });
        if (msg.ended) hooks.endedShow?.(msg.ended);
        break;
      case 'key_rotated': // the connection closes next; this link's key is spent
        hooks.keyRotated?.();
        break;
      case 'device_revoked': // the connection closes next; this browser is no longer paired
        phase = 'refused';
        hooks.deviceRevoked?.();
        break;
      case 'pasted': // the answer to a paste, in the order they were sent (see paste below)
        hooks.pasted?.(msg, pasteOrigins.shift() ?? 'composer');
        break;
      case 'pane': // the attached session's web pane page (pane.js), on attach and on change
        if (attached && msg.session === attached.id) hooks.pane?.(msg);
        break;
      case 'status': // what the attached session's program reports (status_strip.js)
        if (attached && msg.session === attached.id) hooks.status?.(msg);
        break;
      case 'decisions': // every pending decision, on attach and on each change (decision_card.js)
        hooks.decisions?.(Array.isArray(msg.decisions) ? msg.decisions : []);
        break;
      case 'pane_feedback': // a pane form was filed
        hooks.paneFiled?.(msg);
        break;
      case 'hello': // only ever first
      case 'pong': // only its arrival matters (see wake)
      default: // unknown types within the same protocol are additions: ignore them
        break;
    }
  }

  // Binary frames: the snapshot announced just before, or live output.
  function output(bytes) {
    if (!attached) return; // nothing of ours (the server sends none while detached)
    const snap = snapshotNext;
    snapshotNext = null;
    if (snap) {
      // A clean terminal at the session's size, in order after what is already queued.
      inOrder(() => {
        term.reset();
        view.showSize(snap.cols ?? attached?.cols ?? term.cols, snap.rows ?? attached?.rows ?? term.rows);
      });
      // The snapshot replays the past: marked (whatever the epoch) so that clipboard.js
      // ignores the OSC 52 in it. xterm.js runs write callbacks between chunks, in order.
      term.write(NOTHING, () => view.replaying(true));
      write(bytes, () => {
        // Driving: the session follows this window, so the terminal fits the window
        // again; the server resizes the PTY and the program repaints.
        if (attached?.driver) {
          view.fitToContainer();
          sendSize(term, false);
        }
      });
      term.write(NOTHING, () => view.replaying(false));
    } else {
      write(bytes);
    }
  }

  // Writes output and counts it once xterm.js has processed it; acknowledges every
  // ACK_EVERY bytes and whenever the write queue drains.
  function write(bytes, then) {
    const mine = epoch;
    queued++;
    term.write(bytes, () => {
      queued--;
      if (mine === epoch) {
        processed += bytes.length;
        then?.();
      }
      if (processed - acked >= ACK_EVERY || queued === 0) flushAck();
    });
  }

  // Runs `fn` once xterm.js has processed everything written so far, unless this
  // window attached elsewhere (or reconnected) in the meantime.
  function inOrder(fn) {
    const mine = epoch;
    queued++;
    term.write(NOTHING, () => {
      queued--;
      if (mine === epoch) fn();
      if (queued === 0) flushAck();
    });
  }

  // Acknowledges what xterm.js has processed since `attached`, if anything is new.
  function flushAck() {
    if (!attached || switching || processed <= acked) return;
    acked = processed;
    send({ type: 'ack', bytes: processed });
  }

  // A request that moves this window to another session (or to one at all). Every
  // attach says who this tab is, so a driver back from a reload gets its lease back.
  function request(msg) {
    if (attached) switching = true;
    if (msg.type === 'attach' && windowToken) msg.window_token = windowToken;
    send(msg);
  }

  // Shows the ended session `id` in this window: off the live one (if any), then its
  // last screen from the daemon.
  function viewEnded(id) {
    const record = ended.find((e) => e.id === id);
    if (!record) return;
    if (attached) { send({ type: 'detach' }); leave(); }
    viewing = id;
    rememberViewing();
    status.attached(); // no empty panel, no watcher notice
    hooks.endedShow?.(record);
    send({ type: 'ended_screen', session: id });
    showTabs();
  }

  function rememberViewing() {
    try { sessionStorage.setItem(VIEWING_KEY, String(viewing)); } catch { /* private mode */ }
  }

  function stopViewing() {
    if (viewing == null) return;
    viewing = null;
    try { sessionStorage.removeItem(VIEWING_KEY); } catch { /* private mode */ }
    hooks.endedHide?.();
  }

  // The ended session on screen was closed: land where a person expects, a live session
  // (the daemon picks the most recent) or the empty panel.
  function leaveEnded() {
    stopViewing();
    term.reset();
    if (sessions.length) request({ type: 'attach', start: false });
    else status.empty({ others: 0 });
    showTabs();
  }

  function leave() {
    if (attached) hooks.status?.(null);
    attached = null;
    snapshotNext = null;
    switching = false;
    epoch++;
    processed = 0;
    acked = 0;
  }

  function dropped() {
    if (livenessTimer) { clearTimeout(livenessTimer); livenessTimer = 0; }
    if (phase === 'refused') return;
    phase = 'down';
    pendingNew?.resolve({ ok: false, code: 'offline', message: 'The connection to wharf dropped.' });
    pendingNew = null;
    if (attached?.driver && windowId != null) ghost = { session: attached.id, window: windowId };
    leave();
    status.down();
    hooks.down?.();
    showTabs();
    retryTimer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  }

  function refuse(text) {
    phase = 'refused';
    const sock = ws;
    ws = null;
    sock?.close();
    leave();
    status.fatal(text);
    showTabs();
  }

  function send(msg) {
    if (phase === 'open' && ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  // Input goes out only while attached: typing into a half-open connection could land
  // in a session other than the one on screen. A watcher's input goes out too: the
  // server refuses it with `not_driver`, and the notice tells the person why.
  function sendBytes(bytes) {
    if (phase !== 'open' || !attached || ws?.readyState !== WebSocket.OPEN) return;
    for (let at = 0; at < bytes.length; at += MAX_MESSAGE) ws.send(bytes.subarray(at, at + MAX_MESSAGE));
  }

  // Only the driver's size counts; a watcher never sends one.
  function sendSize({ cols, rows }, force) {
    if (!attached?.driver) return;
    if (!force && cols === attached.cols && rows === attached.rows) return;
    attached.cols = cols;
    attached.rows = rows;
    send({ type: 'resize', cols, rows });
  }

  function nameOf(id) {
    return sessions.find((s) => s.id === id)?.name;
  }

  function driverOf(id) {
    return sessions.find((s) => s.id === id)?.driver ?? null;
  }

  function showTabs() {
    const name = attached ? nameOf(attached.id) ?? attached.name : null;
    const gone = viewing != null ? ended.find((e) => e.id === viewing)?.name : null;
    document.title = name ? `${name} — wharf` : gone ? `${gone} (ended) — wharf` : 'wharf';
    tabs.update({ sessions, attachedId: attached?.id ?? null, driving: attached ? attached.driver : null,
      windowId, online: phase === 'open', ended, viewingId: viewing });
  }

  // After sleep or a network change a socket can be dead without the browser knowing.
  // Prove it with a ping, or drop it and reconnect; retry at once if already down.
  function wake() {
    if (phase === 'down') {
      connect();
    } else if (phase === 'open' && !livenessTimer) {
      send({ type: 'ping' });
      livenessTimer = setTimeout(() => {
        livenessTimer = 0;
        const dead = ws;
        ws = null;
        dead?.close();
        dropped();
      }, LIVENESS_MS);
    }
  }

  const actions = {
    select(id) {
      if (ended.some((e) => e.id === id)) { if (id !== viewing) viewEnded(id); return; }
      if (id !== attached?.id || viewing != null) request({ type: 'attach', session: id, start: false });
    },
    // Closes an ended session's tab, in every window.
    dismiss(id) { send({ type: 'dismiss', session: id }); },
    // The new session's driver (this window) sends its size once attached.
    // `what`: { kind, entry, cwd } from the launcher; nothing: the daemon's default.
    // The launcher adds name, prompt and env ({ NAME: value }) and waits for the answer:
    // the promise resolves { ok: true } once attached, { ok: false, code, message } when
    // refused (then nothing else reports it), { ok: false, code: 'offline' } if it cannot go.
    newSession(what, { wait = false } = {}) {
      const msg = { type: 'new' };
      for (const field of ['kind', 'entry', 'cwd', 'name', 'prompt']) if (typeof what?.[field] === 'string' && what[field]) msg[field] = what[field];
      if (what?.env && typeof what.env === 'object' && Object.keys(what.env).length) msg.env = what.env;
      if (typeof what?.sandbox === 'boolean') msg.sandbox = what.sandbox; // only when the person chose
      if (!wait) { request(msg); return undefined; }
      if (phase !== 'open' || ws?.readyState !== WebSocket.OPEN) return Promise.resolve({ ok: false, code: 'offline', message: 'Not connected to wharf.' });
      pendingNew?.resolve({ ok: false, code: 'superseded', message: '' });
      return new Promise((resolve) => { pendingNew = { resolve }; request(msg); });
    },
    reorder(order) { send({ type: 'reorder', order }); },
    seen(id) { send({ type: 'seen', session: id }); },
    // Whether a person looks at this window (looking.js); false when not connected.
    looking(on) {
      if (phase !== 'open' || ws?.readyState !== WebSocket.OPEN) return false;
      send({ type: 'looking', looking: on });
      return true;
    },
    end(id) { send({ type: 'end', session: id }); },
    rename(id, name) { send({ type: 'rename', session: id, name }); },
    take() { send({ type: 'take' }); },
    // Answers a pending decision; false when there is no connection to send it on.
    decide(id, approve, note) {
      if (phase !== 'open' || ws?.readyState !== WebSocket.OPEN) return false;
      const msg = { type: 'decide', id, approve: approve === true };
      if (typeof note === 'string' && note.trim()) msg.note = note.trim();
      send(msg);
      return true;
    },
    // A web pane form's fields (pane.js); false when there is no connection to send on.
    paneFeedback(msg) {
      if (phase !== 'open' || ws?.readyState !== WebSocket.OPEN) return false;
      send(msg);
      return true;
    },
    // The composer's message: typed into the attached session as one paste, then Enter
    // (the daemon neutralises it). False when it cannot go: nothing attached, or this
    // window only watches (the notice offers to take over). A paste into the terminal
    // (terminal_paste.js) goes the same way without the Enter (`submit: false`).
    paste(text, { submit = true, from = 'composer' } = {}) {
      if (phase !== 'open' || !attached || ws?.readyState !== WebSocket.OPEN) return false;
      if (!attached.driver) { status.watching(); return false; }
      send({ type: 'paste', text, submit });
      pasteOrigins.push(from);
      if (pasteOrigins.length > 64) pasteOrigins.shift(); // answers lost to a refusal
      return true;
    },
  };

  term.onData((data) => {
    // In the empty state Enter starts a session, as the panel says.
    if (!attached) {
      if (data === '\r' && phase === 'open' && status.isEmpty()) actions.newSession();
      return;
    }
    sendBytes(encoder.encode(data));
  });
  // onBinary carries raw bytes as one char per byte (e.g. X10 mouse reports), not text.
  term.onBinary((data) => sendBytes(Uint8Array.from(data, (ch) => ch.charCodeAt(0) & 0xff)));
  view.onFitted((size) => sendSize(size, false));
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') wake(); });
  window.addEventListener('online', wake);

  // No key in the address: the page was opened with the device cookie (the daemon served
  // it only for that), which the socket's handshake carries too.
  status.connecting();
  connect();
  return actions;
}

function parse(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}
