// Who a caller on the control socket is, when a program inside a session tries to pass for
// the user (issue 16): a job that double-forks and calls setsid leaves the terminal
// session and its parent chain, and may outlive the session that started it; an
// environment may claim any WHARF_SESSION_ID. None of these makes it the user, so none
// may drive a session the browser started.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

async function daemon(t) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-owner-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, '.bashrc'), "PS1='owner-prompt\\$ '\n");
  mkdirSync(join(home, 'work'));
  const d = await startDaemon({ args: ['--workspace', join(home, 'work')], env: { HOME: home } });
  t.after(() => stopDaemon(d));
  d.home = home;
  return d;
}

const wharf = (d, [verb, ...args]) => runWharf([verb, '--state-dir', d.stateDir, ...args], { timeout: 60000 });

// A job that leaves its session every way a program can: fork, setsid, fork again with
// the middle process exiting (so the last is an orphan, adopted by the session's host),
// and out of the session's cgroup where the machine gave it one (a cgroup the user owns
// is the user's to leave). It says `ready`, waits for `go`, then tries `wharf ARGS` and
// writes what it printed and its exit status.
function orphanScripts(d, dir, args) {
  const orphan = join(dir, 'orphan.sh');
  writeFileSync(orphan, [
    '#!/bin/sh',
    `cd ${dir}`,
    'echo $$ > pid',
    'cg=$(sed -n "s/^0:://p" /proc/self/cgroup)',
    'mnt=$(awk \'{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup2") print $5; break } }\' /proc/self/mountinfo | head -n 1)',
    'if [ -n "$mnt" ] && [ -n "$cg" ] && [ "$cg" != "/" ]; then echo $$ > "$mnt$(dirname "$cg")/cgroup.procs" 2>/dev/null; fi',
    'sed -n "s/^0:://p" /proc/self/cgroup > cgroup',
    'echo ready > ready',
    'while [ ! -e go ]; do sleep 0.05; done',
    `${wharfBin} ${args.join(' ')} --state-dir ${d.stateDir} > out 2>&1`,
    'echo $? > rc',
  ].join('\n') + '\n', { mode: 0o755 });
  const launcher = join(dir, 'escape.sh');
  writeFileSync(launcher, `#!/bin/sh\nsetsid sh -c 'sh ${orphan} > /dev/null 2>&1 < /dev/null &' &\n`, { mode: 0o755 });
  return launcher;
}

async function startOrphan(d, t, session, args) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-orphan-'));
  t.after(() => {
    if (existsSync(join(dir, 'pid'))) { try { process.kill(Number(readFileSync(join(dir, 'pid'), 'utf8')), 'SIGKILL'); } catch {} }
    rmSync(dir, { recursive: true, force: true });
  });
  const launcher = orphanScripts(d, dir, args);
  const r = await wharf(d, ['send-text', String(session), launcher, '--submit']);
  assert.equal(r.code, 0, r.stderr);
  await waitFor(() => existsSync(join(dir, 'ready')), { timeout: 15000, what: 'the orphan of session A is ready' });
  return dir;
}

async function outcome(dir) {
  writeFileSync(join(dir, 'go'), '');
  await waitFor(() => existsSync(join(dir, 'rc')) && readFileSync(join(dir, 'rc'), 'utf8').endsWith('\n'),
    { timeout: 30000, what: 'the orphan tried wharf' });
  return { rc: Number(readFileSync(join(dir, 'rc'), 'utf8')), out: readFileSync(join(dir, 'out'), 'utf8') };
}

describe('a program inside a session is never the user', { concurrency: 2 }, () => {
  test('a double-forked setsid job of session A cannot drive the browser\'s session B', async (t) => {
    const d = await daemon(t);
    const w = await openWs(d);
    t.after(() => w.close());
    const b = (await w.newSession({ shell: 'bash' })).session;
    const a = Number((await wharf(d, ['new', '--shell', 'bash'])).stdout.trim());
    const dir = await startOrphan(d, t, a, ['send-text', String(b), 'escaped']);
    const { rc, out } = await outcome(dir);
    assert.notEqual(rc, 0, `the orphan drove session ${b}: ${out}`);
    assert.match(out, /may only use the sessions it started/);
  });

  test('a setsid job that outlives session A is still not the user', async (t) => {
    const d = await daemon(t);
    const w = await openWs(d);
    t.after(() => w.close());
    const b = (await w.newSession({ shell: 'bash' })).session;
    const a = Number((await wharf(d, ['new', '--shell', 'bash'])).stdout.trim());
    const dir = await startOrphan(d, t, a, ['send-text', String(b), 'escaped']);
    // A ends: its host goes, and the orphan (outside A's terminal session) may be left.
    assert.equal((await wharf(d, ['kill', String(a)])).code, 0);
    await waitFor(async () => {
      const r = await wharf(d, ['ls', '--json']);
      return r.code === 0 && !JSON.parse(r.stdout).some((s) => s.id === a);
    }, { timeout: 20000, what: `session ${a} ended` });
    assert.doesNotMatch(readFileSync(join(dir, 'cgroup'), 'utf8'), /wharf-session-/, 'the orphan left the session\'s cgroup');
    const { rc, out } = await outcome(dir);
    assert.notEqual(rc, 0, `the orphan of an ended session drove session ${b}: ${out}`);
    assert.match(out, /not_permitted|may only use|not permitted/);
  });

  test('claiming WHARF_SESSION_ID in the environment gains nothing', async (t) => {
    const d = await daemon(t);
    const w = await openWs(d);
    t.after(() => w.close());
    const b = (await w.newSession({ shell: 'bash' })).session;
    const a = Number((await wharf(d, ['new', '--shell', 'bash'])).stdout.trim());
    // Inside A, a call that says it is session B (or the browser's) is still A's.
    const script = join(d.home, 'claim.sh');
    writeFileSync(script, `#!/bin/sh\nWHARF_SESSION_ID=${b} ${wharfBin} send-text ${b} claimed --state-dir ${d.stateDir} > ${d.home}/claim.out 2>&1; echo $? > ${d.home}/claim.rc\n`, { mode: 0o755 });
    assert.equal((await wharf(d, ['send-text', String(a), script, '--submit'])).code, 0);
    await waitFor(() => existsSync(join(d.home, 'claim.rc')) && readFileSync(join(d.home, 'claim.rc'), 'utf8').endsWith('\n'), { timeout: 20000, what: 'the claim ran' });
    assert.notEqual(Number(readFileSync(join(d.home, 'claim.rc'), 'utf8')), 0, readFileSync(join(d.home, 'claim.out'), 'utf8'));
    // And outside any session the claim takes nothing away from the user either.
    const r = await runWharf(['send-text', String(b), 'mine', '--state-dir', d.stateDir], { timeout: 30000, env: { WHARF_SESSION_ID: String(a) } });
    assert.equal(r.code, 0, r.stderr);
  });
});
