// The status strip's data (docs/page.md, "The status strip"; docs/protocol.md `status`):
// a bash session reports its directory (OSC 7) and its last command's exit status and
// duration (OSC 133) to the window as a `status` message and in `wharf ls --json`; Claude
// Code's status line (`wharf status-line`, fed a recorded payload inside a session)
// reports the agent's numbers; the same verb outside any session is refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { startDaemon, wharfBin, sanitizerOptions } from '../support/daemon.mjs';
import { openWs, stopDaemon, runWharf, killSession } from '../support/ws_client.mjs';

// What Claude Code 2.1.197 hands its status line (its fields, as its source builds them).
const CLAUDE_PAYLOAD = {
  hook_event_name: 'Status', session_id: 'c0ffee', transcript_path: '/nowhere/t.jsonl', cwd: '/tmp',
  model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' },
  workspace: { current_dir: '/tmp', project_dir: '/tmp', added_dirs: [] },
  version: '2.1.197', output_style: { name: 'default' },
  cost: { total_cost_usd: 0.3127, total_duration_ms: 1000, total_api_duration_ms: 800, total_lines_added: 0, total_lines_removed: 0 },
  context_window: { total_input_tokens: 84211, total_output_tokens: 1200, context_window_size: 200000, current_usage: null, used_percentage: 42.1, remaining_percentage: 57.9 },
  exceeds_200k_tokens: false, fast_mode: false, effort: { level: 'high' }, thinking: { enabled: true },
  rate_limits: { five_hour: { used_percentage: 12.5, resets_at: 1767312000 }, seven_day: { used_percentage: 3, resets_at: 1767744000 } },
};

async function bashWindow(t, d, entry = 'bash') {
  const ws = await openWs(d);
  t.after(() => ws.close());
  await ws.handshake();
  const attached = await ws.newSession({ kind: 'shell', entry });
  assert.equal(attached.type, 'attached', JSON.stringify(attached));
  t.after(() => killSession(attached.pid));
  await ws.waitForPrompt();
  return { ws, attached };
}

function statusOf(ws, session, from, pred) {
  return ws.waitForMessage((m) => m.type === 'status' && m.session === session && pred(m.status ?? {}), { from, what: 'a matching status message' });
}

async function lsJson(d) {
  const ls = await runWharf(['ls', '--json', '--state-dir', d.stateDir]);
  assert.equal(ls.code, 0, ls.stderr);
  return JSON.parse(ls.stdout);
}

describe('the status strip', { concurrency: 2 }, () => {
  test('a bash session reports its directory and the last command\'s exit status and duration, to the window and in ls --json', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await bashWindow(t, d);
    const session = attached.session;
    // The attach itself carries the status (empty or not), right after the snapshot.
    assert.ok(ws.messages.some((m) => m.type === 'status' && m.session === session), 'a status message on attach');

    let from = ws.messages.length;
    ws.type('cd /tmp; false\r');
    const failed = await statusOf(ws, session, from, (s) => s.cwd === '/tmp' && s.command?.exit_code === 1);
    assert.equal(failed.status.command.running, false);
    assert.ok(Number.isInteger(failed.status.command.duration_ms) && failed.status.command.duration_ms >= 0);
    assert.equal(failed.status.cwd_short, '/tmp');

    const rows = await lsJson(d);
    const row = rows.find((r) => r.id === session);
    assert.equal(row.reported.cwd, '/tmp');
    assert.equal(row.reported.command.exit_code, 1);

    // A command that takes a while: its duration is measured from C to D.
    from = ws.messages.length;
    ws.type('sleep 0.4; (exit 3)\r');
    const slept = await statusOf(ws, session, from, (s) => s.command?.exit_code === 3 && !s.command.running);
    assert.ok(slept.status.command.duration_ms >= 350, `duration ${slept.status.command.duration_ms} ms`);
    // An empty command line ends no command: the last one stays.
    from = ws.messages.length;
    ws.type('\r');
    ws.type('cd ~\r');
    const home = await statusOf(ws, session, from, (s) => s.cwd_short === '~');
    assert.equal(home.status.command.exit_code, 0, 'cd ~ is the last command');
    // A directory with a space and a non-ASCII name arrives decoded.
    const odd = mkdtempSync(join(tmpdir(), 'wharf strip é-'));
    t.after(() => rmSync(odd, { recursive: true, force: true }));
    from = ws.messages.length;
    ws.type(`cd '${odd}'\r`);
    await statusOf(ws, session, from, (s) => s.cwd === realpathSync(odd) || s.cwd === odd);
  });

  test('a zsh session reports the same, percent-encoding included', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await bashWindow(t, d, 'zsh');
    const odd = mkdtempSync(join(tmpdir(), 'wharf zsh é%-'));
    t.after(() => rmSync(odd, { recursive: true, force: true }));
    const from = ws.messages.length;
    ws.type(`cd '${odd}'; false\r`);
    const m = await statusOf(ws, attached.session, from, (s) => s.command?.exit_code === 1 && !s.command.running);
    assert.equal(m.status.cwd, odd);
  });

  test('wharf status-line inside a session hands Claude\'s numbers to that session, and prints them', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await bashWindow(t, d);
    const dir = mkdtempSync(join(tmpdir(), 'wharf-status-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const payload = join(dir, 'payload.json');
    writeFileSync(payload, JSON.stringify(CLAUDE_PAYLOAD));
    const from = ws.messages.length;
    const out = ws.textLength;
    ws.type(`'${wharfBin}' status-line < '${payload}'\r`);
    await ws.waitForOutput('Opus 4.5 \u00b7 context 42% \u00b7 $0.31 \u00b7 5h quota 12%', { from: out });
    const m = await statusOf(ws, attached.session, from, (s) => s.agent?.model === 'Opus 4.5');
    assert.deepEqual(m.status.agent, {
      agent: 'claude', model: 'Opus 4.5', effort: 'high', version: '2.1.197', context_percent: 42.1,
      context_tokens: 84211, context_window: 200000, cost_usd: 0.3127, five_hour_percent: 12.5,
      five_hour_resets_at: 1767312000, seven_day_percent: 3, seven_day_resets_at: 1767744000,
    });
    const rows = await lsJson(d);
    assert.equal(rows.find((r) => r.id === attached.session).reported.agent.context_percent, 42.1);
  });

  test('a burst of reports reaches the window at most four times a second, ending with the last', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const { ws, attached } = await bashWindow(t, d);
    const dir = mkdtempSync(join(tmpdir(), 'wharf-status-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const n = 40;
    for (let i = 1; i <= n; i += 1) writeFileSync(join(dir, `p${i}.json`), JSON.stringify({ ...CLAUDE_PAYLOAD, cost: { total_cost_usd: i } }));
    const from = ws.messages.length;
    const began = performance.now();
    ws.type(`for i in $(seq ${n}); do '${wharfBin}' status-line --quiet < '${dir}'/p$i.json; done\r`);
    await statusOf(ws, attached.session, from, (s) => s.agent?.cost_usd === n);
    const elapsed = performance.now() - began;
    const sent = ws.messages.slice(from).filter((m) => m.type === 'status' && m.session === attached.session && m.status.agent);
    assert.ok(sent.length <= Math.ceil(elapsed / 250) + 1, `${sent.length} status messages in ${Math.round(elapsed)} ms`);
    assert.ok(sent.length < n, `merged: ${sent.length} messages for ${n} reports`);
  });

  test('wharf status-line outside any session is refused, and still prints the line; bad input fails', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const env = { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME };
    const run = (input) => spawnSync(wharfBin, ['status-line', '--state-dir', d.stateDir], { input, env, encoding: 'utf8', timeout: 10000 });
    const outside = run(JSON.stringify(CLAUDE_PAYLOAD));
    assert.equal(outside.status, 0);
    assert.match(outside.stdout, /^Opus 4\.5 · context 42%/);
    assert.match(outside.stderr, /only a program inside a session reports its status/);
    const bad = run('not json');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /not a status line's JSON object/);
    assert.equal(bad.stdout, '');
    // Nothing was reported anywhere.
    const rows = await lsJson(d);
    for (const row of rows) assert.equal(row.reported.agent, undefined);
  });

  test('claude sessions are started with wharf\'s status line settings, leaving the user\'s files alone', async (t) => {
    const d = await startDaemon();
    t.after(() => stopDaemon(d));
    const settings = JSON.parse(spawnSync('cat', [join(d.stateDir, 'claude-settings.json')], { encoding: 'utf8' }).stdout);
    assert.equal(settings.statusLine.type, 'command');
    assert.match(settings.statusLine.command, / status-line$/);
    assert.ok(settings.statusLine.command.includes(realpathSync(wharfBin)) || settings.statusLine.command.includes(wharfBin));
  });
});
