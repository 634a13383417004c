// Terminal queries get exactly one answer, from the server's screen model, whether no
// window, one window or three windows are attached (issue 3); what watching windows send
// back (as a browser's emulator would answer the query) never reaches the program.
//
// The shell asks for the cursor position (CPR, after moving the cursor to row 3, column 7)
// and the device attributes (DA1), reads exactly one reply to each, then collects for a
// second whatever else arrives as input: a second answer would show up there.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, httpGet } from '../support/ws_client.mjs';

// The command typed into the shell: waits for GO (so a test can first detach every
// window), asks, reads one CPR and one DA reply (non-canonical, no echo), collects any
// stray input for one second, and writes what it got to RESULT (and to the terminal).
function queryCommand(dir) {
  const go = join(dir, 'go');
  const result = join(dir, 'result');
  return `stty -echo -icanon; while [ ! -e ${go} ]; do sleep 0.05; done; printf '\\033[3;7H\\033[6n\\033[c'; `
    + 'IFS= read -r -t 5 -d R cpr; IFS= read -r -t 5 -d c da; extra=$(timeout --foreground 1 cat -v); stty sane; '
    + `line="CPR<\${cpr#*[}> DA<\${da#*[}> ESC<$([ "\${cpr:0:1}" = $'\\033' ] && echo y)> EXTRA<\${extra}>"; echo "$line" > ${result}; echo "$line DONE-$((2*21))"\r`;
}

// Makes a window behave like a terminal emulator that answers queries itself (as a
// browser's xterm.js would): every CPR or DA1 request in its output is answered as input.
function answerQueries(w) {
  w.answered = 0;
  w.ws.on('message', (data, isBinary) => {
    if (!isBinary) return;
    const s = data.toString('latin1');
    if (s.includes('\x1b[6n')) { w.answered += 1; w.type('\x1b[3;7R'); }
    if (s.includes('\x1b[c')) { w.answered += 1; w.type('\x1b[?1;2c'); }
  });
}

const EXPECTED = 'CPR<3;7> DA<?1;2> ESC<y> EXTRA<>';

async function status(d) {
  return JSON.parse((await httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } })).body);
}

describe('terminal queries', { concurrency: 4 }, () => {
  test('with no window attached, the query is answered once', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attachedWindow(t, d, { query: '&cols=500&rows=30' });
    ws.type(queryCommand(d.stateDir));
    // Detach every window before the program asks: the screen model must answer alone.
    await ws.waitForOutput('DONE-$((2*21))', { what: 'the echo of the typed command' });
    await ws.close();
    await waitFor(async () => (await status(d)).attached === 0, { what: 'no window attached' });
    writeFileSync(join(d.stateDir, 'go'), '');
    await waitFor(() => existsSync(join(d.stateDir, 'result')) && readFileSync(join(d.stateDir, 'result'), 'utf8').endsWith('\n'), { timeout: 15000, what: 'the program to report what it read' });
    assert.equal(readFileSync(join(d.stateDir, 'result'), 'utf8').trim(), EXPECTED);
    // A window attaching afterwards sees the report on screen, and gets no query replayed
    // that it could answer.
    const late = await openWs(d);
    t.after(() => late.close());
    await late.attach();
    assert.ok(late.lastSnapshot.text.includes(`${EXPECTED} DONE-42`), JSON.stringify(late.lastSnapshot.text));
    assert.ok(!late.lastSnapshot.text.includes('\x1b[6n') && !late.lastSnapshot.text.includes('\x1b[c'), 'no query in the snapshot');
  });

  for (const windows of [1, 3]) {
    test(`with ${windows} window${windows > 1 ? 's' : ''} attached, the query is answered once${windows > 1 ? ', and the watchers\' own answers never reach the program' : ''}`, async (t) => {
      const d = await startDaemon();
      t.after(() => stopDaemon(d));
      const { ws } = await attachedWindow(t, d, { query: '&cols=500&rows=30' });
      const watchers = [];
      for (let i = 1; i < windows; i += 1) {
        const w = await openWs(d);
        t.after(() => w.close());
        assert.equal((await w.attach()).driver, false);
        answerQueries(w);
        watchers.push(w);
      }
      assert.equal((await status(d)).attached, windows);
      const from = ws.textLength;
      ws.type(queryCommand(d.stateDir));
      await ws.waitForOutput('DONE-$((2*21))', { from, what: 'the echo of the typed command' });
      writeFileSync(join(d.stateDir, 'go'), '');
      const out = await ws.waitForOutput('DONE-42', { from, timeout: 15000 });
      assert.equal(readFileSync(join(d.stateDir, 'result'), 'utf8').trim(), EXPECTED, out);
      for (const w of watchers) {
        await w.waitForOutput('DONE-42');
        assert.equal(w.answered, 2, 'the watcher saw both queries live and answered them');
        const refusals = w.messages.filter((m) => m.type === 'error');
        assert.ok(refusals.length >= 1 && refusals.every((m) => m.code === 'not_driver'), `the watcher's answers were refused: ${JSON.stringify(refusals)}`);
      }
    });
  }

  test('control: a second answer does show up (here typed by the driving window itself)', async (t) => {
    // Proves the check above can fail: the driver's input is accepted, so an emulator in
    // the driving window that answered too would be seen as stray input.
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws } = await attachedWindow(t, d, { query: '&cols=500&rows=30' });
    answerQueries(ws);
    const from = ws.textLength;
    ws.type(queryCommand(d.stateDir));
    await ws.waitForOutput('DONE-$((2*21))', { from });
    writeFileSync(join(d.stateDir, 'go'), '');
    await ws.waitForOutput('DONE-42', { from, timeout: 15000 });
    const got = readFileSync(join(d.stateDir, 'result'), 'utf8').trim();
    assert.match(got, /^CPR<3;7> DA<\?1;2> ESC<y> EXTRA<.+>$/, got);
    assert.match(got, /EXTRA<.*\^\[\[3;7R/, `the driver's own CPR arrived as a second answer: ${got}`);
  });
});
