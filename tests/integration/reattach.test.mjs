// Sessions outlive their windows, and any window that attaches gets the exact current
// screen from the server's screen model (issue 3): a dropped connection loses nothing, a
// reconnect lands on a live session and never starts one, and a program in the alternate
// screen is restored as such.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, sessionPrograms, httpGet, procStat } from '../support/ws_client.mjs';
import { renderSnapshot, renderWindow, visibleState } from '../support/window_screen.mjs';

async function status(d) {
  return JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
}

// Every test has its own daemon, so they run side by side.
describe('reattaching', { concurrency: 4 }, () => {
  test('a marker printed, the socket dropped, a new socket attached without start: same session, the marker in the snapshot, the same screen', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await attachedWindow(t, d, { query: '&cols=100&rows=20' });
    const id = randomBytes(4).toString('hex');
    const marker = `mark-${id}-42`;
    const from = ws.textLength;
    ws.type(`echo mark-${id}-$((6*7))\r`);
    await ws.waitForOutput(new RegExp(`${marker}\\r\\n[^\\n]*[#$] (\\x1b\\]133;B\\x07)?$`), { from, what: 'the marker and the prompt after it' });
    const before = visibleState(await renderWindow(ws));

    await ws.drop(); // no close frame: a lost network or a killed tab
    await waitFor(async () => (await status(d)).attached === 0, { what: 'the daemon to notice the dropped window' });
    assert.ok(procStat(attached.pid), 'the shell still runs');

    // The same browser window comes back, asking for the same size.
    const again = await openWs(d, { query: '&cols=100&rows=20' });
    t.after(() => again.close());
    assert.deepEqual(again.lastSessions.map((s) => s.id), [attached.session], 'the new window is told about the live session');
    const n = again.messages.length;
    const back = await again.attach(); // no `start`: reconnecting never starts a session
    assert.equal(back.session, attached.session, 'the same session');
    assert.equal(back.pid, attached.pid);
    assert.equal(back.driver, true, 'the dropped window no longer drives; the new one does');
    const snap = again.lastSnapshot;
    assert.equal(snap.meta.session, attached.session);
    assert.equal(snap.meta.bytes, snap.bytes.length);
    assert.equal(snap.meta.cols, 100);
    assert.equal(snap.meta.rows, 20);
    assert.ok(snap.text.includes(marker), `the snapshot carries the marker: ${JSON.stringify(snap.text.slice(-400))}`);
    assert.equal(again.messages.slice(n).filter((m) => m.type === 'snapshot').length, 1, 'one snapshot');
    // Rendered by the page's emulator, the snapshot is the screen the dropped window had.
    assert.deepEqual(visibleState(await renderSnapshot(snap)), before);
    assert.equal(sessionPrograms(d).length, 1, 'no second session was started');
    // And the shell takes input from the new window.
    const f = again.textLength;
    again.type('echo back-$((2+3))\r');
    await again.waitForOutput('back-5', { from: f });
  });

  test('reattach lands on the session asked for, else on the newest live one', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached: one } = await attachedWindow(t, d);
    const two = await ws.newSession();
    assert.equal(two.type, 'attached', JSON.stringify(two));
    await ws.waitForPrompt();
    await waitFor(() => sessionPrograms(d).length === 2, { what: 'two shells' });
    const w = await openWs(d);
    t.after(() => w.close());
    assert.equal((await w.attach({ session: one.session })).session, one.session, 'the session this window last viewed');
    assert.equal((await w.attach({ session: two.session })).session, two.session);
    assert.equal((await w.attach({ session: 999 })).session, two.session, 'a session that is not live: the newest one');
    assert.equal((await w.attach({})).session, two.session, 'none named: the newest one');
    assert.equal(sessionPrograms(d).length, 2, 'nothing was started');
  });

  test('attaching without start to a daemon with no session gets detached no_sessions and starts nothing', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    assert.deepEqual(ws.lastSessions, []);
    for (const fields of [{}, { start: false }, { session: 1 }, { session: 1, start: false }]) {
      const reply = await ws.tryAttach(fields);
      assert.deepEqual(reply, { type: 'detached', session: null, reason: 'no_sessions' }, `attach ${JSON.stringify(fields)}`);
    }
    const again = await openWs(d);
    t.after(() => again.close());
    assert.equal((await again.tryAttach({})).reason, 'no_sessions');
    await ws.request({ type: 'ping' }, 'pong');
    assert.deepEqual(sessionPrograms(d), [], 'no child process');
    const s = await status(d);
    assert.equal(s.sessions, 0);
    assert.equal(s.attached, 0);
    assert.ok(!ws.messages.some((m) => m.type === 'attached' || (m.type === 'sessions' && m.sessions.length > 0)), 'no session appeared');
  });

  test('a program in the alternate screen: a new window\'s snapshot is that alternate screen, without the primary screen\'s text after the switch', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attachedWindow(t, d, { query: '&cols=80&rows=24' });
    const id = randomBytes(4).toString('hex');
    const primary = `primary-${id}-63`;
    let from = ws.textLength;
    ws.type(`echo primary-${id}-$((9*7))\r`);
    await ws.waitForOutput(new RegExp(`${primary}\\r\\n[^\\n]*[#$] (\\x1b\\]133;B\\x07)?$`), { from });
    from = ws.textLength;
    // Typed so that the typed line (echoed on the primary screen) does not contain the mark.
    ws.type("printf '\\033[?1049h\\033[2J\\033[5;10H%s-%s' alt-screen mark; sleep 1000\r");
    await ws.waitForOutput('alt-screen-mark', { from });

    const w = await openWs(d);
    t.after(() => w.close());
    await w.attach();
    const text = w.lastSnapshot.text;
    const at = text.lastIndexOf('\x1b[?1049h');
    assert.ok(at >= 0, `the snapshot switches to the alternate screen: ${JSON.stringify(text)}`);
    const alt = text.slice(at);
    assert.ok(alt.includes('alt-screen-mark'), `the alternate screen's text follows the switch: ${JSON.stringify(alt)}`);
    assert.ok(!alt.includes(primary), `the primary screen's text is not drawn on the alternate screen: ${JSON.stringify(alt)}`);
    // As the page's emulator shows it.
    const screen = await renderSnapshot(w.lastSnapshot);
    assert.equal(screen.altScreen, true, 'the alternate screen is active');
    assert.equal(screen.lines[4], `${' '.repeat(9)}alt-screen-mark`, `row 5, column 10:\n${screen.lines.join('\n')}`);
    assert.deepEqual(screen.cursor, { row: 4, col: 24 }, 'the cursor is where the program left it');
    assert.ok(!screen.lines.some((l) => l.includes(primary)), `no primary text on the visible screen:\n${screen.lines.join('\n')}`);
    assert.deepEqual(visibleState(screen), visibleState(await renderWindow(ws)), 'the same screen the driving window shows');
  });

  test('a window that attached while the program was in the alternate screen shows the real primary screen (text and cursor) once the program leaves it', async (t) => {
    // The snapshot must carry the primary screen (and the cursor 1049 saved) underneath
    // the alternate one, or this window shows an empty primary screen after a full-screen
    // program (an editor, a TUI agent) exits while every other window shows the shell's
    // history.
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attachedWindow(t, d, { query: '&cols=80&rows=24' });
    const id = randomBytes(4).toString('hex');
    const primary = `primary-${id}-63`;
    let from = ws.textLength;
    ws.type(`echo primary-${id}-$((9*7))\r`);
    await ws.waitForOutput(new RegExp(`${primary}\\r\\n[^\\n]*[#$] (\\x1b\\]133;B\\x07)?$`), { from });
    from = ws.textLength;
    ws.type("printf '\\033[?1049h\\033[2J\\033[5;10H%s-%s' alt-screen mark; sleep 1000\r");
    await ws.waitForOutput('alt-screen-mark', { from });
    const w = await openWs(d);
    t.after(() => w.close());
    await w.attach();
    assert.equal((await renderSnapshot(w.lastSnapshot)).altScreen, true);

    const f = ws.textLength;
    ws.type('\x03');
    await ws.waitForOutput(/[#$] (\x1b\]133;B\x07)?$/, { from: f });
    const g = ws.textLength;
    ws.type("printf '\\033[?1049l'; echo left-$((4+4))\r");
    await ws.waitForOutput(/left-8\r\n[^\n]*[#$] (\x1b\]133;B\x07)?$/, { from: g });
    await w.waitForOutput(/left-8\r\n[^\n]*[#$] (\x1b\]133;B\x07)?$/);
    const late = await openWs(d);
    t.after(() => late.close());
    await late.attach();
    const truth = visibleState(await renderSnapshot(late.lastSnapshot));
    assert.equal(truth.altScreen, false);
    assert.ok(truth.lines.some((l) => l.includes(primary)), `the primary screen kept its text:\n${truth.lines.join('\n')}`);
    assert.deepEqual(visibleState(await renderWindow(ws)), truth, 'the driving window');
    assert.deepEqual(visibleState(await renderWindow(w)), truth, 'the window that attached during the alternate screen');
  });
});
