// The status line: one small overlay that says what the page is waiting for or why it
// cannot go on. A steady state (connecting, reconnecting, ended, refused) stays until
// the next one; a server error flashes briefly over it and then gives way again.
const DOWN_GRACE_MS = 3000; // short blips reconnect silently; only a real outage is shown
const FLASH_MS = 5000;

export function createStatus(el) {
  let steady = null; // { text, kind } or null when there is nothing to say
  let flash = null;
  let downTimer = 0;
  let flashTimer = 0;

  function render() {
    const shown = flash ?? steady;
    el.hidden = !shown;
    el.textContent = shown?.text ?? '';
    el.dataset.kind = shown?.kind ?? '';
  }

  function setSteady(next) {
    clearTimeout(downTimer);
    downTimer = 0;
    steady = next;
    render();
  }

  return {
    connecting() { setSteady({ text: 'Connecting…', kind: 'info' }); },
    attached() { setSteady(null); },
    // Called on every drop; the message appears only if the outage outlasts the grace.
    down() {
      if (downTimer || steady?.kind === 'warn') return;
      downTimer = setTimeout(() => {
        downTimer = 0;
        steady = { text: 'Disconnected. Reconnecting…', kind: 'warn' };
        render();
      }, DOWN_GRACE_MS);
    },
    ended({ code, signal }) {
      const how = signal ? `killed by ${signal}` : code == null ? 'exited' : `exit code ${code}`;
      setSteady({ text: `Session ended (${how}). Press Enter to start a new session.`, kind: 'ended' });
    },
    // The page cannot go on by itself (no key, unknown protocol): stays until reload.
    fatal(text) { setSteady({ text, kind: 'error' }); },
    error(text) {
      clearTimeout(flashTimer);
      flash = { text, kind: 'error' };
      flashTimer = setTimeout(() => { flash = null; render(); }, FLASH_MS);
      render();
    },
  };
}
