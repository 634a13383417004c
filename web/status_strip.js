// The status strip: one thin line between the terminal and the composer with what the
// attached session's program reports about itself (the daemon's `status` message,
// docs/protocol.md): a shell's directory and how its last command ended and how long it
// ran, an agent's model, context use, cost and quota. Hidden when there is nothing to
// show, so a session that reports nothing loses no row.
//
// The strip takes its height from the terminal (--strip-h, read by style.css), so the
// terminal refits when it appears or goes. It never takes focus or clicks. For screen
// readers it is a status region that does not announce each change (the duration moves
// after every command); only a command that failed is said, once, politely.
//
// It also says whether the session runs in a sandbox and what that allows
// (capabilities.js): a sandboxed session's lock comes first and shows the strip even
// when its program reports nothing; "no sandbox" only joins the end of a strip that shows
// anyway, so a machine without sandboxes does not grow a line on every tab to say so.
import { describe as describeCapabilities, lockIcon } from './capabilities.js';

export function createStatusStrip(root) {
  root.setAttribute('role', 'status');
  root.setAttribute('aria-live', 'off');
  root.setAttribute('aria-label', 'Session status');
  const line = document.createElement('span');
  line.className = 'strip-line';
  const said = document.createElement('span');
  said.className = 'strip-said';
  said.setAttribute('aria-live', 'polite');
  root.append(line, said);
  let shownFor = null; // the session whose status is shown
  let lastFailure = null;
  let lastStatus = {}; // the attached session's report, redrawn when its capabilities change
  let capabilities = null; // the attached session's, as the daemon sent them

  function setShown(visible) {
    root.hidden = !visible;
    document.documentElement.style.setProperty('--strip-h', visible ? `${root.offsetHeight || 22}px` : '0px');
  }

  function part(text, kind, title) {
    const span = document.createElement('span');
    span.className = 'strip-part';
    if (kind) span.dataset.kind = kind;
    if (title) span.title = title;
    span.textContent = text;
    return span;
  }

  function render(status) {
    lastStatus = status;
    const parts = [];
    if (typeof status.cwd_short === 'string' && status.cwd_short) {
      parts.push(part(status.cwd_short, 'cwd', status.cwd));
    }
    const command = status.command;
    if (command && typeof command === 'object') {
      if (command.running) parts.push(part('running…', 'running'));
      else if (Number.isInteger(command.exit_code)) {
        parts.push(part(`exit ${command.exit_code}`, command.exit_code === 0 ? 'ok' : 'failed'));
      }
      if (!command.running && Number.isFinite(command.duration_ms)) parts.push(part(duration(command.duration_ms), 'duration'));
    }
    const agent = status.agent;
    if (agent && typeof agent === 'object') {
      if (agent.model) parts.push(part(agent.effort ? `${agent.model} (${agent.effort})` : agent.model, 'model'));
      if (Number.isFinite(agent.context_percent)) {
        const of = Number.isFinite(agent.context_tokens) && Number.isFinite(agent.context_window)
          ? ` (${tokens(agent.context_tokens)} of ${tokens(agent.context_window)})` : '';
        parts.push(part(`context ${Math.round(agent.context_percent)}%${of}`, agent.context_percent >= 80 ? 'high' : 'context'));
      }
      if (Number.isFinite(agent.cost_usd)) parts.push(part(`$${agent.cost_usd.toFixed(2)}`, 'cost'));
      for (const [key, label] of [['five_hour', '5 h'], ['seven_day', '7 d']]) {
        const used = agent[`${key}_percent`];
        if (!Number.isFinite(used)) continue;
        const resets = agent[`${key}_resets_at`];
        const when = Number.isFinite(resets) ? ` (resets ${resetTime(resets)})` : '';
        parts.push(part(`${label} quota ${Math.round(used)}%${when}`, used >= 80 ? 'high' : 'quota'));
      }
      if (agent.version) parts.push(part(`${agent.agent ?? 'agent'} ${agent.version}`, 'version'));
    }
    const reported = parts.length > 0;
    const caps = describeCapabilities(capabilities); // here: paths shorten once HOME is known
    if (caps?.sandboxed) {
      // First, so that a narrow strip cuts the directory rather than the lock; a phone
      // shows only the word (sandbox.css), the details being in every other place.
      const lock = part('sandbox', 'sandbox', caps.line);
      const detail = document.createElement('span');
      detail.className = 'strip-detail';
      detail.textContent = `: ${caps.writes.replace(': ', ' ')}, ${caps.network.replace(': ', ' ')}`;
      lock.prepend(lockIcon());
      lock.append(detail);
      parts.unshift(lock);
    } else if (caps && reported) parts.push(part('no sandbox', 'nosandbox', caps.line));
    line.replaceChildren();
    parts.forEach((p, i) => {
      if (i > 0) line.append(part(' · ', 'sep'));
      line.append(p);
    });
    setShown(parts.length > 0);
    // A failed command is said once; a success or a new directory is not.
    const failure = command && !command.running && Number.isInteger(command.exit_code) && command.exit_code !== 0
      ? `${command.exit_code}:${command.duration_ms}` : null;
    if (failure && failure !== lastFailure) said.textContent = `Last command failed with exit status ${command.exit_code}.`;
    lastFailure = failure;
  }

  return {
    // A `status` message for the attached session; null: attached to nothing.
    status(msg) {
      if (!msg) { this.clear(); return; }
      shownFor = msg.session;
      render(msg.status && typeof msg.status === 'object' ? msg.status : {});
    },
    // The attached session's `capabilities` (from the session list); null: none known.
    capabilities(value) {
      if (JSON.stringify(value ?? null) === JSON.stringify(capabilities)) return;
      capabilities = value ?? null;
      render(lastStatus);
    },
    // Attached to nothing (or to another session, until its status arrives).
    clear() {
      shownFor = null;
      lastFailure = null;
      lastStatus = {};
      line.replaceChildren();
      said.textContent = '';
      setShown(false);
    },
    get session() { return shownFor; },
  };
}

function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function tokens(n) {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

function resetTime(seconds) {
  const at = new Date(seconds * 1000);
  const sameDay = at.toDateString() === new Date().toDateString();
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return sameDay ? time : `${at.toLocaleDateString([], { weekday: 'short' })} ${time}`;
}
