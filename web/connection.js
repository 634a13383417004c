// The connection: one WebSocket to the daemon, speaking docs/protocol.md version 1.
// It carries keystrokes in and output out, keeps the session's size in step with the
// view, and comes back by itself after a drop, except after the program exited: a
// new session then starts only when the person asks for one (Enter).
const PROTOCOL = 1;
const MAX_MESSAGE = 64 * 1024; // the server closes the connection on larger messages
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
const LIVENESS_MS = 5000; // how long a woken page waits for a pong before giving up

export function openConnection({ view, status, key = new URLSearchParams(location.search).get('k') }) {
  const { term } = view;
  const encoder = new TextEncoder();
  let ws = null;
  // connecting: until `ready`; attached: live; down: waiting to retry;
  // ended: the program exited, waiting for Enter; refused: this page cannot go on.
  let phase = 'connecting';
  let backoff = BACKOFF_FIRST_MS;
  let retryTimer = 0;
  let livenessTimer = 0;

  function connect() {
    clearTimeout(retryTimer);
    phase = 'connecting';
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = new URLSearchParams({ k: key, cols: term.cols, rows: term.rows });
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
        const hello = typeof data === 'string' ? parse(data) : null;
        if (hello?.type !== 'hello' || hello.protocol !== PROTOCOL) {
          // A newer or unknown server: guessing could type garbage into a session.
          refuse(`The wharf server speaks protocol ${hello?.protocol ?? '?'}; this page knows ${PROTOCOL}. Reload the page.`);
        }
        return;
      }
      if (typeof data !== 'string') term.write(new Uint8Array(data));
      else handle(parse(data));
    };
    sock.onclose = () => {
      if (sock !== ws) return;
      ws = null;
      dropped();
    };
  }

  function handle(msg) {
    switch (msg?.type) {
      case 'ready':
        phase = 'attached';
        backoff = BACKOFF_FIRST_MS;
        // The server sends the whole current screen next: paint it on a clean terminal.
        term.reset();
        status.attached();
        if (msg.cols !== term.cols || msg.rows !== term.rows) sendResize(term);
        break;
      case 'exit':
        phase = 'ended'; // the server closes next; that close must not reconnect
        status.ended(msg);
        break;
      case 'error':
        status.error(msg.message || msg.code || 'The server refused a request.');
        break;
      case 'size': // the view keeps its own fitted size; nothing to follow in protocol 1
      case 'pong': // only its arrival matters (see wake)
      default: // unknown types within the same protocol are additions: ignore them
        break;
    }
  }

  function dropped() {
    if (livenessTimer) { clearTimeout(livenessTimer); livenessTimer = 0; }
    if (phase === 'ended' || phase === 'refused') return;
    phase = 'down';
    status.down();
    retryTimer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  }

  function refuse(text) {
    phase = 'refused';
    const sock = ws;
    ws = null;
    sock?.close();
    status.fatal(text);
  }

  // Input goes out only while attached: typing into a half-open connection could land
  // in a session other than the one on screen.
  function sendBytes(bytes) {
    if (phase !== 'attached') return;
    for (let at = 0; at < bytes.length; at += MAX_MESSAGE) ws.send(bytes.subarray(at, at + MAX_MESSAGE));
  }

  function sendJson(msg) {
    if (phase === 'attached') ws.send(JSON.stringify(msg));
  }

  function sendResize({ cols, rows }) {
    sendJson({ type: 'resize', cols, rows });
  }

  // After sleep or a network change a socket can be dead without the browser knowing.
  // Prove it with a ping, or drop it and reconnect; retry at once if already down.
  function wake() {
    if (phase === 'down') {
      connect();
    } else if (phase === 'attached' && !livenessTimer) {
      sendJson({ type: 'ping' });
      livenessTimer = setTimeout(() => {
        livenessTimer = 0;
        const dead = ws;
        ws = null;
        dead?.close();
        dropped();
      }, LIVENESS_MS);
    }
  }

  term.onData((data) => {
    if (phase === 'ended') {
      if (data === '\r') {
        status.connecting();
        connect();
      }
      return;
    }
    sendBytes(encoder.encode(data));
  });
  // onBinary carries raw bytes as one char per byte (e.g. X10 mouse reports), not text.
  term.onBinary((data) => sendBytes(Uint8Array.from(data, (ch) => ch.charCodeAt(0) & 0xff)));
  term.onResize(sendResize);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') wake(); });
  window.addEventListener('online', wake);

  if (!key) {
    status.fatal('This page needs its key: open the full URL that wharf printed.');
    phase = 'refused';
    return;
  }
  status.connecting();
  connect();
}

function parse(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}
