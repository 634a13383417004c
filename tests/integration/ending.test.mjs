// Ending a session, by request or by stopping the daemon, leaves nothing behind: no
// process of the session survives (even jobs that ignore SIGHUP and SIGTERM, in their
// own process groups), and the daemon keeps no zombie. Ending a session detaches its
// windows (they stay connected); stopping the daemon closes every window with 1000.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hostsOf, startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { openWs, attachedWindow, stopDaemon, sessionMembers, sessionPrograms, zombieChildrenOf, describeProcs, within, procStat, killSession, allProcesses, cmdline } from '../support/ws_client.mjs';

// Starts, in the attached shell, background jobs that a naive "SIGHUP the process group"
// would miss: HUP-ignoring jobs in their own process groups, a nohup child, a job that
// also ignores SIGTERM, a grandchild, a loop that starts a new child whenever its child
// is killed, and a stopped job. Resolves once all of them run.
async function startStubbornJobs(ws, shellPid) {
  const from = ws.textLength;
  ws.type("trap '' HUP; sleep 1000 & sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & (trap '' TERM; exec sleep 1003) & bash -c 'sleep 1004 & wait' & (trap '' TERM; while :; do sleep 1005; done) & sleep 1006 & kill -STOP $! ; echo jobs-$((3*3))\r");
  await ws.waitForOutput('jobs-9', { from });
  const members = await waitFor(() => {
    const m = sessionMembers(shellPid);
    const sleeps = m.filter((p) => p.comm === 'sleep');
    return sleeps.length >= 6 && m.some((p) => p.state === 'T') ? m : null;
  }, { what: 'six sleep jobs and a stopped job in the shell\'s session' });
  // The jobs really are spread over several process groups.
  assert.ok(new Set(members.map((p) => p.pgrp)).size >= 3, `jobs in several process groups:\n${describeProcs(members)}`);
  return members;
}

// Processes whose command line is exactly `argv`.
function processesRunning(argv) {
  return allProcesses().filter((p) => p.state !== 'Z' && JSON.stringify(cmdline(p.pid)) === JSON.stringify(argv));
}

// Every test has its own daemon, so they run side by side.
describe('ending a session', { concurrency: 3 }, () => {
  test('a job that left the terminal session with setsid still belongs to the session: it is treated as the session\'s, and ends with it', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await attachedWindow(t, d);
    const tag = String(4000 + Math.floor(Math.random() * 5000));
    let from = ws.textLength;
    // Two escapes: a setsid'd sleep, and a setsid'd shell that forks one more.
    ws.type(`setsid sleep ${tag} & setsid -f sh -c 'sleep ${tag}1 & wait' ; echo escaped-$((2*2))\r`);
    await ws.waitForOutput('escaped-4', { from });
    const escaped = await waitFor(() => {
      const found = [...processesRunning(['sleep', tag]), ...processesRunning(['sleep', `${tag}1`])];
      return found.length === 2 ? found : null;
    }, { what: 'both escaped sleeps running' });
    t.after(() => { for (const p of escaped) { try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ } } });
    for (const p of escaped) assert.notEqual(p.session, attached.pid, 'it really left the terminal session');
    // What it may do is what the session may do: a program inside a session may not
    // rotate the key, and neither may its escaped jobs.
    from = ws.textLength;
    ws.type(`setsid -w ${wharfBin} key rotate; echo "rc=$?"\r`);
    const out = await ws.waitForOutput(/rc=\d+/, { from });
    assert.match(out, /may not restart wharf or change its key/);
    assert.match(out, /rc=[1-9]/);

    ws.send({ type: 'end' });
    await ws.waitForMessage('exit', { timeout: 20000 });
    await waitFor(() => escaped.every((p) => { const st = procStat(p.pid); return !st || st.state === 'Z'; }), { timeout: 10000, what: 'the escaped jobs to end with the session' })
      .catch((e) => { e.message += `\n${describeProcs(escaped.map((p) => procStat(p.pid)).filter(Boolean))}`; throw e; });
  });

  test('`end` ends the shell and every process of its session, with exit to its windows (which stay connected), and no zombie is left', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await attachedWindow(t, d);
    const watcher = await openWs(d);
    t.after(() => watcher.close());
    assert.equal((await watcher.attach()).session, attached.session);
    const before = await startStubbornJobs(ws, attached.pid);
    const nw = watcher.messages.length;

    const n = ws.messages.length;
    ws.send({ type: 'end' });
    const exit = await ws.waitForMessage('exit', { from: n, timeout: 20000 });
    assert.equal(exit.session, attached.session);
    assert.ok(exit.code === null || Number.isInteger(exit.code), `exit.code: ${exit.code}`);
    assert.ok(exit.signal === null || typeof exit.signal === 'string', `exit.signal: ${exit.signal}`);
    assert.ok(exit.code !== null || exit.signal !== null, 'exit says how the program ended');
    assert.equal(exit.next, null, 'no other session to land on');
    const seen = await watcher.waitForMessage('exit', { from: nw });
    assert.deepEqual(seen, exit, 'the watching window gets the same exit');
    // Ending a session is not closing its windows.
    await ws.request({ type: 'ping' }, 'pong');
    await watcher.request({ type: 'ping' }, 'pong');
    assert.ok(ws.isOpen && watcher.isOpen);
    const list = await ws.waitForMessage((m) => m.type === 'sessions' && m.sessions.length === 0, { from: n });
    assert.deepEqual(list.sessions, []);

    await waitFor(() => sessionMembers(attached.pid).length === 0, { timeout: 5000, what: 'no process of the session left' })
      .catch((e) => { e.message += `\nsurvivors:\n${describeProcs(sessionMembers(attached.pid))}`; throw e; });
    for (const p of before) {
      const st = procStat(p.pid);
      assert.ok(!st || st.state === 'Z' || st.session !== attached.pid, `${p.pid} (${p.comm}) survived`);
    }
    await waitFor(() => zombieChildrenOf(d.child.pid).length === 0, { timeout: 5000, what: 'no zombie children of the daemon' })
      .catch((e) => { e.message += `\n${describeProcs(zombieChildrenOf(d.child.pid))}`; throw e; });
    await waitFor(() => sessionPrograms(d).length === 0, { timeout: 5000, what: 'no session program left' })
      .catch((e) => { e.message += `\n${describeProcs(sessionPrograms(d).map(procStat).filter(Boolean))}`; throw e; });
    // The session's host exits once the daemon has recorded the end.
    await waitFor(() => hostsOf(d.stateDir).length === 0, { timeout: 5000, what: 'no session host left' });
    assert.equal(d.child.exitCode, null, 'the daemon goes on');
  });

  for (const signal of ['SIGTERM', 'SIGINT']) {
    test(`${signal} to the daemon ends every live session and all their jobs, closes every window with 1000, then the daemon exits 0`, async (t) => {
      const d = await startDaemon();
      t.after(() => stopDaemon(d));
      const { ws, attached } = await attachedWindow(t, d);
      await startStubbornJobs(ws, attached.pid);
      // A second session with its own window, and a window attached to nothing.
      const second = await openWs(d);
      t.after(() => second.close());
      const other = await second.newSession();
      assert.equal(other.type, 'attached', JSON.stringify(other));
      t.after(() => killSession(other.pid));
      await second.waitForPrompt();
      const idle = await openWs(d);
      t.after(() => idle.close());
      assert.equal(sessionPrograms(d).length, 2);

      d.child.kill(signal);
      const { code, signal: sig } = await within(d.exited, 20000, `daemon to exit after ${signal}`);
      assert.equal(sig, null, `the daemon exits by itself, not by ${sig}`);
      assert.equal(code, 0, `exit code after ${signal}; stderr:\n${d.stderr}`);
      for (const pid of [attached.pid, other.pid]) {
        await waitFor(() => sessionMembers(pid).length === 0, { timeout: 3000, what: `no process of session ${pid} left` })
          .catch((e) => { e.message += `\nsurvivors:\n${describeProcs(sessionMembers(pid))}`; throw e; });
      }
      for (const w of [ws, second, idle]) {
        const closed = await w.waitForClose();
        assert.equal(closed.code, 1000, `window ${w.window}: the daemon closes the connection normally when stopping`);
      }
    });
  }
});
