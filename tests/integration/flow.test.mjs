// Nothing one side does can stall the daemon: input to a program that is not reading is
// queued without blocking the event loop, and a client that stops reading neither blocks
// the PTY (another window still sees the program run to its end) nor grows the daemon's
// memory without bound.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startDaemon, waitFor } from '../support/daemon.mjs';
import { openWs, stopDaemon, killSession, httpGet, within, isSanitized } from '../support/ws_client.mjs';

function rssKiB(pid) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return m ? Number(m[1]) : 0;
}

async function statusQuickly(d, what) {
  const started = Date.now();
  const res = await within(httpGet(d, '/api/status', { headers: { 'X-Wharf-Key': d.key } }), 2000, what);
  assert.equal(res.status, 200);
  return Date.now() - started;
}

// Every test has its own daemon, so they run side by side.
describe('flow control', { concurrency: 3 }, () => {
  test('input to a program that is not reading does not stall the daemon, and arrives once it reads', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const { ready } = await ws.handshake();
    t.after(() => killSession(ready.pid));
    await ws.waitForPrompt();
    let from = ws.textLength;
    // Raw mode, nobody reading for 2 s, then `head | wc -c` counts what was typed meanwhile.
    ws.type("stty raw -echo; echo st-$((1+1)); sleep 2; timeout 5 head -c 327680 | wc -c; stty sane; echo drained-$((2+3))\r");
    await ws.waitForOutput('st-2', { from });
    from = ws.textLength;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 5; i += 1) ws.ws.send(chunk, { binary: true });
    // While 320 KiB wait for the PTY, the daemon answers HTTP and pings at once.
    await statusQuickly(d, 'status while input is stuck');
    const n = ws.messages.length;
    ws.send({ type: 'ping' });
    await ws.waitForMessage('pong', { from: n, timeout: 2000 });
    const out = await ws.waitForOutput(/(\d+)\s*\r?\n?\s*drained-5/, { from, timeout: 15000 });
    assert.equal(Number(out.match(/(\d+)\s*\r?\n?\s*drained-5/)[1]), 5 * 64 * 1024, 'every typed byte reached the program, once');
  });

  test('input beyond 1 MiB pending for a program that is not reading is refused with input_refused, and the session goes on', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const ws = await openWs(d);
    t.after(() => ws.close());
    const { ready } = await ws.handshake();
    t.after(() => killSession(ready.pid));
    await ws.waitForPrompt();
    let from = ws.textLength;
    ws.type("stty raw -echo; echo held-$((1+1)); sleep 2; timeout 2 cat >/dev/null; stty sane; echo resumed-$((2+5))\r");
    await ws.waitForOutput('held-2', { from });
    from = ws.textLength;
    const n = ws.messages.length;
    const chunk = Buffer.alloc(64 * 1024, 'z');
    for (let i = 0; i < 24; i += 1) ws.ws.send(chunk, { binary: true }); // 1.5 MiB
    const err = await ws.waitForMessage((m) => m.type === 'error', { from: n, timeout: 5000, what: 'input_refused' });
    assert.equal(err.code, 'input_refused');
    assert.equal(typeof err.message, 'string');
    assert.ok(ws.isOpen, 'the connection stays open');
    await ws.waitForOutput('resumed-7', { from, timeout: 15000 });
    const after = ws.textLength;
    ws.type('\x15echo alive-$((3+4))\r');
    await ws.waitForOutput('alive-7', { from: after });
  });

  test('a client that stops reading blocks neither the PTY nor other windows, and the daemon\'s memory stays bounded', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const watcher = await openWs(d);
    t.after(() => watcher.close());
    const { ready } = await watcher.handshake();
    t.after(() => killSession(ready.pid));
    await watcher.waitForPrompt();
    const stalled = await openWs(d);
    t.after(() => stalled.close());
    await stalled.handshake();
    stalled.ws._socket.pause(); // stops reading: TCP buffers fill, then the daemon must cope
    const rssBefore = rssKiB(d.child.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => { peak = Math.max(peak, rssKiB(d.child.pid)); }, 20);
    t.after(() => clearInterval(sampler));
    const from = watcher.textLength;
    // 64 MiB of output.
    watcher.type('yes "$(printf %0127d 0)" | head -c 67108864; echo flood-$((9*9))\r');
    await watcher.waitForOutput('flood-81', { from, timeout: 30000 });
    clearInterval(sampler);
    await statusQuickly(d, 'status after the flood');
    const grewMiB = (peak - rssBefore) / 1024;
    if (isSanitized(d.child.pid)) {
      t.diagnostic(`sanitizer build: its allocator quarantine makes RSS meaningless (grew ${grewMiB.toFixed(1)} MiB); bound not checked`);
    } else {
      assert.ok(grewMiB < 32, `the daemon grew by ${grewMiB.toFixed(1)} MiB while 64 MiB went to a stalled client`);
    }
    // The stalled client, once it reads again, is either closed with 4001 (fell behind) or
    // still attached; it is never left hanging.
    stalled.ws._socket.resume();
    await waitFor(() => stalled.closeInfo || stalled.output.includes('flood-81') || stalled.byteLength > 0, { timeout: 10000, what: 'the stalled client to be served or dropped' });
    if (stalled.closeInfo) assert.equal(stalled.closeInfo.code, 4001, JSON.stringify(stalled.closeInfo));
  });
});
