// The launcher's sandbox line and toggle (launcher.js): what the chosen catalog entry may
// do, as the daemon declared it (capabilities.js), and "Run in a sandbox" to change that
// for the one session about to start. The toggle starts at the entry's own setting and
// `sandbox` goes out in the `new` message only when the person changed it, so the
// operator's config decides everything nobody touched.
import { describe, SANDBOX_ON_REQUESTED } from './capabilities.js';

// The block is hidden while the entry has no capabilities (an older daemon, which would
// not take the field either). show() on another entry resets the toggle to its setting.
// `sandbox`: /api/status's `sandbox` ({ available, missing }); on a machine where no
// sandbox can start, the box cannot be ticked and says why.
export function sandboxBlock(fieldError, sandbox = null) {
  const element = document.createElement('div');
  element.className = 'launcher-caps';
  element.hidden = true;
  const line = document.createElement('p');
  line.className = 'launcher-caps-line';
  line.id = 'launcher-caps-line';
  const label = document.createElement('label');
  label.className = 'launcher-sandbox';
  const toggle = document.createElement('input');
  toggle.type = 'checkbox';
  toggle.name = 'sandbox';
  toggle.setAttribute('aria-describedby', 'launcher-caps-line');
  label.append(toggle, document.createTextNode('Run in a sandbox'));
  element.append(line, label);
  let declared = null; // describe() of the entry's capabilities
  const unavailable = sandbox?.available === false
    ? `Sandboxes cannot start here: ${sandbox.missing || 'bubblewrap or user namespaces are missing'}` : null;
  const why = document.createElement('p');
  why.className = 'launcher-caps-why';
  why.hidden = true;
  element.prepend(why);
  function draw() {
    const on = toggle.checked;
    const text = on ? (declared?.sandboxed ? declared.line : SANDBOX_ON_REQUESTED) : describe({ sandboxed: false }).line;
    line.textContent = text;
    element.dataset.sandboxed = String(on);
  }
  toggle.addEventListener('change', draw);
  const error = fieldError(label, 'launcher-sandbox-error', toggle);
  return {
    element,
    toggle,
    error,
    // `caps`: the entry's capabilities; `error`: its capabilities_error (what the daemon
    // refuses about its declaration, e.g. a path outside the allowed roots).
    show(caps, error) {
      declared = describe(caps);
      const problem = typeof error === 'string' && error ? error : null;
      element.hidden = declared === null && !problem;
      why.hidden = !(problem || (unavailable && !declared?.sandboxed));
      why.textContent = problem ?? unavailable ?? '';
      line.hidden = declared === null;
      label.hidden = declared === null;
      if (!declared) return;
      toggle.checked = declared.sandboxed;
      // Nothing to turn on where no sandbox can start; one that is on can still go off.
      toggle.disabled = Boolean(unavailable) && !declared.sandboxed;
      draw();
    },
    changed: () => declared !== null && toggle.checked !== declared.sandboxed,
    wanted: () => toggle.checked,
  };
}

