// The power button at the right end of the bar: stops the daemon, and with it every
// session (browser and terminal alike), unless the daemon keeps its sessions
// (--keep-sessions, said in its hello): then they run on for the next start. It always
// asks first, naming every session, then POSTs /api/stop with the key in the X-Wharf-Key
// header. The daemon then tells every window `stopping` (the curtain takes it from there).
import { button, icon } from './tab_bar.js';
import { ask } from './confirm.js';
import { keyHeaders } from './credentials.js';

const POWER = 'M8 2v5.5M4.6 4.4a5 5 0 1 0 6.8 0';

export function createPower({ key, onStopping, onError, focusTerminal }) {
  let sessions = [];
  let keepsSessions = false;
  const power = button('tab-power', '', 'Stop wharf');
  power.append(icon(POWER));
  power.title = 'Stop wharf (ends every session)';
  power.addEventListener('click', async () => {
    const names = sessions.map((s) => s.name);
    const yes = await ask({
      title: 'Stop wharf?',
      text: !names.length ? 'The daemon stops. No session is running.'
        : keepsSessions
          ? `The daemon stops; ${names.length === 1 ? 'this session keeps' : `these ${names.length} sessions keep`} running for the next \`wharf serve\`:`
          : `The daemon stops and ${names.length === 1 ? 'this session ends' : `these ${names.length} sessions end`}:`,
      items: names,
      confirm: 'Stop wharf',
      danger: !keepsSessions,
      safeFocus: true, // stopping is never what a stray Enter should do
      anchor: power,
    });
    if (!yes) { focusTerminal(); return; }
    try {
      const res = await fetch('/api/stop', {
        method: 'POST',
        headers: keyHeaders(key, { 'Content-Type': 'application/json' }),
        body: '{}',
        cache: 'no-store',
      });
      if (res.ok) onStopping();
      else if (res.status === 404) onError('This wharf cannot be stopped from the page (it is older than its power button). Stop it on the machine.');
      else onError(`wharf refused to stop (HTTP ${res.status}).`);
    } catch {
      onStopping(); // the daemon went before it answered: that is what was asked
    }
  });
  return {
    element: power,
    update(state) { sessions = Array.isArray(state.sessions) ? state.sessions : []; },
    setKeepsSessions(keeps) {
      keepsSessions = keeps;
      power.title = keeps ? 'Stop wharf (its sessions keep running)' : 'Stop wharf (ends every session)';
    },
  };
}
