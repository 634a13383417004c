// The real agent CLIs (Claude Code 2.1.197, Codex 0.171.0, opencode 1.18.33, installed by
// `make agents`) started from wharf's catalog, offline, each daemon with a temporary HOME
// of its own (docs/agents.md). Covered: each agent starts in the directory it was given
// and shows its own first screen on a machine where it never ran; the first Claude Code
// session of a daemon resumes the conversation recorded for its directory (the real
// `claude --continue` opens it) and the second one starts fresh, both with the context
// note; a first Claude Code where nothing was recorded starts fresh and stays up; Codex
// runs with --no-daemon and leaves no process behind when its session ends; the hooks that
// tell wharf an agent waits or finished (docs/agents.md): Codex's notify setting and
// opencode's plugin on their launch, opencode loading a plugin from OPENCODE_CONFIG_CONTENT
// and running wharf's, and Claude Code's Stop hook from wharf's settings file firing
// against a local stand-in for the Messages API. The daemons
// run in parallel (opencode alone takes 10-25 s to start offline). Every wait has a
// deadline; nothing sleeps.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { waitFor } from '../support/daemon.mjs';
import { describeProcs, killSession, openWs, sessionMembers } from '../support/ws_client.mjs';
import { renderWindow } from '../support/window_screen.mjs';
import {
  agentBinDir, agentDaemon, agentSandbox, isAlive, leader, listSessions, prepareClaudeHome, processesWithHome,
  CLAUDE_MAIN_SCREEN, readScreen, requireAgents, startAgent, waitForScreen, wharfOf, writeClaudeTranscript,
} from '../support/agents.mjs';

const NOTE_FLAG = '--append-system-prompt-file';

// The context note Claude Code is given: the flag, then a file that exists and says
// something. Returns the file's path.
function assertContextNote(argv) {
  const at = argv.indexOf(NOTE_FLAG);
  assert.ok(at > 0 && at + 1 < argv.length, `${NOTE_FLAG} <file> in ${JSON.stringify(argv)}`);
  const file = argv[at + 1];
  assert.ok(existsSync(file), `the context note ${file} exists`);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.trim().length > 0, `the context note ${file} is not empty`);
  // It tells the agent about the web pane, with a command that runs from its session.
  const pane = /`(\S+) pane show FILE --title TITLE`/.exec(text);
  assert.ok(pane && existsSync(pane[1]), `the note names wharf's own binary for the pane: ${text}`);
  return file;
}

// Fails unless the session stays listed as running and its leader alive for `ms`: the
// condition checked is the absence of an exit over that time.
async function assertStaysUp(d, session, ms) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    assert.ok(isAlive(session.pid), `session ${session.id} (pid ${session.pid}) is still alive`);
    const row = (await listSessions(d)).find((s) => s.id === session.id);
    assert.equal(row?.status, 'running', `session ${session.id} is still listed as running`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the real agent CLIs', { concurrency: true }, () => {
  test('claude, codex and opencode start from the catalog in their directory and show their first screen', { timeout: 150000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['apps/claude', 'apps/codex', 'apps/opencode'] });
    const d = await agentDaemon(box);

    // Claude through the browser protocol (`new` with a window attached, which records
    // everything it prints), the others through the CLI.
    const ws = await openWs(d);
    t.after(() => ws.close());
    const reply = await ws.newSession({ agent: 'claude', cwd: 'apps/claude' });
    assert.equal(reply.type, 'attached', JSON.stringify(reply));
    t.after(() => killSession(reply.pid));
    const claude = { id: reply.session, pid: reply.pid, ...leader(reply.pid) };
    // Listed now: offline, a claude that has never run leaves after its welcome screen
    // (about 8 s), which a slow (sanitizer) build can reach before the others are up.
    const listedFirst = await listSessions(d);
    const codex = await startAgent(d, 'codex', box.dirs['apps/codex']);
    const opencode = await startAgent(d, 'opencode', box.dirs['apps/opencode']);
    t.after(() => { killSession(codex.pid); killSession(opencode.pid); });
    Object.assign(codex, leader(codex.pid));
    Object.assign(opencode, leader(opencode.pid));

    // Each in its own directory, as its leader process sees it.
    assert.equal(claude.cwd, box.dirs['apps/claude']);
    assert.equal(codex.cwd, box.dirs['apps/codex']);
    assert.equal(opencode.cwd, box.dirs['apps/opencode']);
    const listed = await listSessions(d);
    for (const [s, name] of [[claude, 'claude'], [codex, 'codex'], [opencode, 'opencode']]) {
      const row = (name === 'claude' ? listedFirst : listed).find((r) => r.id === s.id);
      assert.equal(row?.entry, name);
      assert.equal(row?.kind, 'agent');
      assert.equal(row?.cwd, box.dirs[`apps/${name}`]);
      assert.equal(row?.pid, s.pid, `${name}'s leader`);
    }
    // Nothing to resume on a fresh machine: no agent is asked to.
    assert.ok(!claude.argv.includes('--continue'), JSON.stringify(claude.argv));
    assertContextNote(claude.argv);
    assert.ok(codex.argv.includes('--no-daemon'), JSON.stringify(codex.argv));
    assert.ok(!codex.argv.includes('resume'), JSON.stringify(codex.argv));
    // Codex takes the context note's text as a setting, and still starts (below).
    const setting = codex.argv[codex.argv.indexOf('-c') + 1] ?? '';
    assert.match(setting, /^developer_instructions=".*wharf.*"$/s, JSON.stringify(codex.argv));
    assert.deepEqual(opencode.argv, ['opencode'], 'opencode is started bare');
    // Their hooks for "waiting" and "finished" (agents.md), without touching their config
    // files: Codex's notify program on its command line, opencode's plugin in its env.
    const notify = codex.argv[codex.argv.lastIndexOf('-c') + 1] ?? '';
    assert.match(notify, /^notify=\[".*\/wharf", "notify", "finished", "--from-codex"\]$/, JSON.stringify(codex.argv));
    const pluginConfig = opencode.env.find((e) => e.startsWith('OPENCODE_CONFIG_CONTENT='))?.slice('OPENCODE_CONFIG_CONTENT='.length);
    const pluginUrl = JSON.parse(pluginConfig ?? '{}').plugin?.[0] ?? '';
    assert.match(pluginUrl, /^file:\/\/.*\/opencode\/wharf-notify\.js$/, String(pluginConfig));
    assert.ok(existsSync(new URL(pluginUrl).pathname), 'the plugin file exists');

    await Promise.all([
      (async () => {
        // Codex: its sign-in choice, drawn on the alternate screen.
        const screen = await waitForScreen(d, codex.id, ['Welcome to Codex', 'Sign in with ChatGPT', 'Press enter to continue'], { timeout: 60000 });
        assert.equal(screen.alternate_screen, true, 'codex draws on the alternate screen');
      })(),
      (async () => {
        // opencode: its home screen (logo, input box, key hints, its directory), on the
        // alternate screen, once its offline model list fetch gave up.
        const screen = await waitForScreen(d, opencode.id, ['ctrl+p commands', 'Ask anything', box.dirs['apps/opencode']], { timeout: 100000 });
        assert.equal(screen.alternate_screen, true, 'opencode draws on the alternate screen');
      })(),
      (async () => {
        // Claude Code: its welcome, inline on the normal screen. Offline, a Claude that
        // never ran then fails its own connectivity check and exits, so the screen is read
        // from the daemon's model while it is there and from the window's record after.
        let modelScreen = null;
        const seen = await waitFor(async () => {
          const screen = await readScreen(d, claude.id);
          if (screen?.text.includes('Welcome to Claude Code')) { modelScreen = screen; return 'model'; }
          const rendered = await renderWindow(ws);
          return rendered.lines.join('\n').includes('Welcome to Claude Code') ? 'window' : null;
        }, { timeout: 60000, interval: 200, what: 'Claude Code\'s welcome' })
          .catch(async (e) => { e.message += `\nwindow:\n${(await renderWindow(ws)).lines.join('\n')}`; throw e; });
        if (seen === 'model') {
          assert.equal(modelScreen.alternate_screen, false, 'Claude Code draws on the normal screen');
          assert.ok(modelScreen.lines.some((l) => l.trim() !== ''), 'a non-empty screen');
        }
        // What ends it, if anything, is Claude's own offline check, never a refused argument
        // (a missing context note file would be "Append system prompt file not found", an
        // argument it does not know "unknown option"). Its check's message is not always
        // left on screen (a sanitizer build's slower daemon saw it exit after the welcome
        // alone), so the test holds it to what a refusal would say.
        const ended = await waitFor(() => ws.messages.find((m) => m.type === 'exit' && m.session === claude.id) ?? (isAlive(claude.pid) ? null : 'gone'),
          { timeout: 30000, interval: 200, what: 'Claude Code to exit or go on' }).catch(() => null);
        const text = screenText(await renderWindow(ws));
        assert.doesNotMatch(text, /not found|unknown option|invalid argument|usage:/i, text);
        t.diagnostic(`claude: welcome read from the ${seen === 'model' ? 'daemon\'s screen model' : 'window'}; `
          + `${ended ? 'then it exited at its own connectivity check (offline)' : 'still running (online: onboarding)'}`);
      })(),
    ]);
  });

  test('the first claude of a daemon resumes the conversation of its directory; the second starts fresh', { timeout: 120000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['project-a'] });
    const a = box.dirs['project-a'];
    prepareClaudeHome(box.home, { trusted: [a] });
    const marker = `pelican-${randomBytes(4).toString('hex')}`;
    writeClaudeTranscript(box.home, a, marker);
    const d = await agentDaemon(box);

    const first = await startAgent(d, 'claude', a);
    t.after(() => killSession(first.pid));
    const firstArgv = leader(first.pid).argv;
    assert.ok(firstArgv.includes('--continue'), `the first claude resumes: ${JSON.stringify(firstArgv)}`);
    const note = assertContextNote(firstArgv);
    assert.equal(leader(first.pid).cwd, a);

    const second = await startAgent(d, 'claude', a);
    t.after(() => killSession(second.pid));
    const secondArgv = leader(second.pid).argv;
    assert.ok(!secondArgv.includes('--continue'), `the second claude starts fresh: ${JSON.stringify(secondArgv)}`);
    assert.equal(assertContextNote(secondArgv), note, 'the same note');

    await Promise.all([
      (async () => {
        // The real `claude --continue` accepted the transcript: the old exchange is shown.
        const screen = await waitForScreen(d, first.id, [`Please repeat ${marker}`, `Repeated: ${marker}`, CLAUDE_MAIN_SCREEN], { timeout: 60000 });
        assert.equal(screen.alternate_screen, false);
      })(),
      (async () => {
        const screen = await waitForScreen(d, second.id, ['Claude Code', CLAUDE_MAIN_SCREEN], { timeout: 60000 });
        assert.ok(!screen.text.includes(marker), `the second claude shows no old conversation:\n${screen.text}`);
      })(),
    ]);
    const rows = await listSessions(d);
    for (const s of [first, second]) assert.equal(rows.find((r) => r.id === s.id)?.status, 'running', `session ${s.id} runs`);
  });

  test('a first claude with nothing recorded for its directory starts fresh and stays up', { timeout: 120000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['project-a', 'project-b'] });
    const [a, b] = [box.dirs['project-a'], box.dirs['project-b']];
    prepareClaudeHome(box.home, { trusted: [a, b] });
    // Claude has conversations on this machine, only not in B.
    writeClaudeTranscript(box.home, a, 'elsewhere');
    const d = await agentDaemon(box);

    const s = await startAgent(d, 'claude', b);
    t.after(() => killSession(s.pid));
    const argv = leader(s.pid).argv;
    assert.ok(!argv.includes('--continue'), `nothing to resume in B: ${JSON.stringify(argv)}`);
    assertContextNote(argv);
    const screen = await waitForScreen(d, s.id, ['Claude Code', CLAUDE_MAIN_SCREEN], { timeout: 60000 });
    assert.doesNotMatch(screen.text, /No conversation found/);
    // `claude --continue` with nothing to continue would exit right after starting.
    await assertStaysUp(d, s, 5000);
    const after = await readScreen(d, s.id);
    assert.ok(after?.text.includes(CLAUDE_MAIN_SCREEN), `still on its main screen:\n${after?.text}`);
    // Its status line is wharf's (--settings, the user's files untouched), and what Claude
    // hands it reaches the session's status strip (docs/agents.md).
    const settings = argv[argv.indexOf('--settings') + 1] ?? '';
    assert.match(readFileSync(settings, 'utf8'), /"statusLine".*status-line/, JSON.stringify(argv));
    const reported = await waitFor(async () => (await listSessions(d)).find((r) => r.id === s.id)?.reported?.agent,
      { timeout: 30000, interval: 250, what: 'claude\'s status line reaching the strip' });
    assert.equal(reported.agent, 'claude');
    assert.equal(reported.version, '2.1.197');
  });

  test('codex runs with --no-daemon and leaves no process behind when its session ends', { timeout: 90000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['svc'] });
    const d = await agentDaemon(box);
    const s = await startAgent(d, 'codex', box.dirs.svc);
    t.after(() => killSession(s.pid));
    await waitForScreen(d, s.id, ['Welcome to Codex'], { timeout: 60000 });

    // The node entry point and the native program it runs: both told --no-daemon.
    const members = sessionMembers(s.pid);
    const codexes = members.filter((p) => leader(p.pid).argv?.some((arg) => /codex/.test(arg)));
    assert.ok(codexes.length >= 1, describeProcs(members));
    for (const p of codexes) assert.ok(leader(p.pid).argv.includes('--no-daemon'), describeProcs([p]));

    const killed = await wharfOf(d, ['kill', String(s.id)]);
    assert.equal(killed.code, 0, killed.stderr);
    await waitFor(async () => !(await listSessions(d)).some((r) => r.id === s.id), { timeout: 15000, what: 'the codex session to end' });
    // Nothing that ran with this HOME is left but the daemon: no app-server, no helper in
    // a session of its own.
    const leftovers = () => processesWithHome(box.home).filter((p) => p.pid !== d.child.pid);
    await waitFor(() => leftovers().length === 0, { timeout: 10000, what: 'no codex process left' })
      .catch((e) => { e.message += `\nsurvivors:\n${leftovers().map((p) => `${p.pid} ${JSON.stringify(p.argv)}`).join('\n')}`; throw e; });
    assert.ok(!existsSync(join(box.home, '.codex', 'packages')), 'codex copied no packages into ~/.codex');
  });
});

// Run after the suite above, one at a time: a second opencode starting beside the first
// one's 10-25 s start on a busy machine pushed that one past its deadline.
describe("the agents' hooks for waiting and finished", () => {
  test("opencode loads a plugin given in OPENCODE_CONFIG_CONTENT, and wharf's plugin run inside it marks the session", { timeout: 150000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['apps/opencode'] });
    const d = await agentDaemon(box);
    // opencode only fires session.idle and permission.asked after talking to a model. A
    // probe plugin, loaded the way wharf's is (a file:// URL in OPENCODE_CONFIG_CONTENT;
    // set for the session, it replaces wharf's own), hands wharf's plugin a session.idle
    // as soon as opencode starts it: the real opencode (Bun) runs the real plugin, whose
    // `wharf notify finished` comes from inside the session.
    const wharfPlugin = join(d.stateDir, 'opencode', 'wharf-notify.js');
    assert.ok(existsSync(wharfPlugin), 'wharf wrote its plugin');
    const probe = join(box.root, 'probe.js');
    writeFileSync(probe, `import { WharfNotify } from ${JSON.stringify('file://' + wharfPlugin)};
export const Probe = async (ctx) => {
  const hooks = await WharfNotify(ctx);
  await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'probe' } } });
  return {};
};
`);
    const content = JSON.stringify({ plugin: [`file://${probe}`] });
    const opencode = await startAgent(d, 'opencode', box.dirs['apps/opencode'], ['--env', `OPENCODE_CONFIG_CONTENT=${content}`]);
    t.after(() => killSession(opencode.pid));
    assert.ok(leader(opencode.pid).env.includes(`OPENCODE_CONFIG_CONTENT=${content}`), "the session's own setting wins over wharf's");
    await waitFor(() => new RegExp(`session ${opencode.id} is finished \\(its own word\\)`).test(d.stderr),
      { timeout: 100000, what: `opencode's plugin marking session ${opencode.id}:\n${d.stderr}` });
  });
  test("claude's Stop hook, from the settings file wharf passes it, fires against a local stand-in for the API and marks the session", { timeout: 120000 }, async (t) => {
    requireAgents();
    const box = agentSandbox(t, { dirs: ['apps/claude'] });
    const d = await agentDaemon(box);
    // The Messages API, as much of it as one short answer needs (a streamed "Done.").
    const requests = [];
    const api = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        requests.push(`${req.method} ${req.url}`);
        if (req.method !== 'POST' || !req.url.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
          res.writeHead(req.url.includes('count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
          res.end(req.url.includes('count_tokens') ? '{"input_tokens":5}' : '{}');
          return;
        }
        const asked = JSON.parse(body || '{}');
        const message = { id: 'msg_1', type: 'message', role: 'assistant', model: asked.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } };
        if (!asked.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...message, content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        event('message_start', { message });
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Done.' } });
        event('content_block_stop', { index: 0 });
        event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } });
        event('message_stop', {});
        res.end();
      });
    });
    await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
    t.after(() => api.close());

    const ws = await openWs(d);
    t.after(() => ws.close());
    const shell = await ws.newSession({ kind: 'shell', entry: 'bash', cwd: 'apps/claude' });
    assert.equal(shell.type, 'attached', JSON.stringify(shell));
    t.after(() => killSession(shell.pid));
    await ws.waitForPrompt();
    const settings = join(d.stateDir, 'claude-settings.json');
    ws.type(`ANTHROPIC_BASE_URL=http://127.0.0.1:${api.address().port} ANTHROPIC_API_KEY=sk-ant-test CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 '${join(agentBinDir, 'claude')}' -p 'say done' --settings '${settings}'\r`);
    const marked = () => new RegExp(`session ${shell.session} is finished \\(its own word\\)`).test(d.stderr);
    try {
      await waitFor(marked, { timeout: 60000, what: `claude's Stop hook marking session ${shell.session}` });
    } catch (err) {
      err.message += `\nAPI requests: ${requests.join(', ')}\nscreen:\n${(await readScreen(d, shell.session))?.text}\n${d.stderr}`;
      throw err;
    }
    assert.ok(requests.some((r) => r.startsWith('POST /v1/messages')), 'claude asked the stand-in');
  });
});

function screenText(screen) {
  return screen.lines.join('\n');
}
