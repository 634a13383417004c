// Programs driving sessions (issue 6) on the real daemon, through the CLI verbs and
// /api/v1: run_command with real output and exit status in bash and zsh sessions that
// carry wharf's shell integration, the timeout and truncation cases, send-keys and its
// refusals, send-text that no paste breakout can escape, wait --for / --idle, read-screen
// --since, the shared shell, and who may drive what when the caller is inside a session.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { httpGet, openWs, runWharf, stopDaemon } from '../support/ws_client.mjs';

// A home of our own: the shells read these startup files (and not root's, whose pyenv
// setup can stall a login shell), so the test also sees that the user's files still run.
function makeHome(t) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-drive-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, '.bashrc'), "export FROM_BASHRC=bashrc-ran\nPS1='bash-prompt\\$ '\n");
  writeFileSync(join(home, '.profile'), 'export FROM_PROFILE=profile-ran\n. ~/.bashrc\n');
  writeFileSync(join(home, '.zshrc'), "export FROM_ZSHRC=zshrc-ran\nPROMPT='zsh-prompt%# '\n");
  writeFileSync(join(home, '.zshenv'), 'export FROM_ZSHENV=zshenv-ran\n');
  mkdirSync(join(home, 'work'));
  return home;
}

async function daemon(t, { args = [] } = {}) {
  const home = makeHome(t);
  const d = await startDaemon({ args: ['--workspace', join(home, 'work'), ...args], env: { HOME: home } });
  t.after(() => stopDaemon(d));
  d.home = home;
  return d;
}

// --state-dir right after the verb: after `--` everything is the command.
const wharf = (d, [verb, ...args], opts = {}) => runWharf([verb, '--state-dir', d.stateDir, ...args], { timeout: 60000, ...opts });

async function newShell(d, shell = 'bash') {
  const r = await wharf(d, ['new', '--shell', shell]);
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.trim());
}

// `command` is a line for the shell (-c); after -- the words are an exact argv.
async function runJson(d, session, command, extra = []) {
  const r = await wharf(d, ['run', '--session', String(session), '--json', ...extra, '-c', command]);
  assert.ok(r.stdout.trim().startsWith('{'), `run printed no JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  return { ...JSON.parse(r.stdout), code: r.code };
}

async function screenJson(d, session, extra = []) {
  const r = await wharf(d, ['read-screen', String(session), '--json', ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('run_command', { concurrency: 2 }, () => {
  test('returns only the command\'s output and its exit status, in bash, with the user\'s startup files run', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    const plain = await wharf(d, ['run', '--session', String(id), '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
    assert.equal(plain.code, 3, `${plain.stdout}\n${plain.stderr}`);
    assert.equal(plain.stdout, 'out\nerr\n', 'the output, without the echo of the command line');
    const json = await runJson(d, id, 'echo "$FROM_BASHRC $FROM_PROFILE"; (exit 7)');
    assert.equal(json.code, 7);
    assert.equal(json.exit_code, 7);
    assert.equal(json.output, 'bashrc-ran profile-ran\n');
    assert.equal(json.timed_out, false);
    assert.equal(json.truncated, false);
    assert.equal(typeof json.duration_ms, 'number');
    // The user's prompt is the one on screen.
    const screen = await screenJson(d, id);
    assert.ok(screen.lines.some((l) => l.startsWith('bash-prompt')), screen.lines.join('\n'));
    // Something a person left half-typed, the cursor moved back into it, never joins the
    // command: the whole line is cleared first, not just what lies before the cursor.
    await wharf(d, ['send-text', String(id), 'echo half-typed']);
    await wharf(d, ['send-keys', String(id), 'Left', 'Left', 'Left']);
    await waitFor(async () => (await screenJson(d, id)).lines.some((l) => l.endsWith('echo half-typed')), { what: 'the half-typed line' });
    const clean = await runJson(d, id, 'echo clean-$((1+1))');
    assert.equal(clean.exit_code, 0, clean.output);
    assert.equal(clean.output, 'clean-2\n');
  });

  test('the words after -- are the exact argv: quoted for the shell, the exit status kept', async (t) => {
    const d = await daemon(t);
    for (const shell of ['bash', 'zsh']) {
      const id = await newShell(d, shell);
      const seven = await wharf(d, ['run', '--session', String(id), '--', 'sh', '-c', 'exit 7']);
      assert.equal(seven.code, 7, `${shell}: ${seven.stdout}\n${seven.stderr}`);
      const spaced = await wharf(d, ['run', '--session', String(id), '--', 'echo', 'a    b']);
      assert.equal(spaced.code, 0, spaced.stderr);
      assert.equal(spaced.stdout, 'a    b\n', shell);
      // Nothing in a word is the shell's: no expansion, no second command, quotes kept.
      const words = ['$HOME', "it's", '`id`;', '*', '', 'x|y'];
      const literal = await wharf(d, ['run', '--session', String(id), '--', 'printf', '[%s]', ...words]);
      assert.equal(literal.stdout, words.map((w) => `[${w}]`).join(''), shell);
      // -c hands the shell a line as it is.
      const line = await wharf(d, ['run', '--session', String(id), '-c', 'echo a | tr a b; exit_status_is() { return 3; }; exit_status_is']);
      assert.equal(line.code, 3, line.stderr);
      assert.equal(line.stdout, 'b\n');
    }
  });

  test('works in zsh sessions too, with the user\'s zsh files run', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d, 'zsh');
    const json = await runJson(d, id, 'echo "$FROM_ZSHENV $FROM_ZSHRC"; false');
    assert.equal(json.exit_code, 1);
    assert.equal(json.output, 'zshenv-ran zshrc-ran\n');
    const again = await runJson(d, id, 'print -r -- $((6*7))');
    assert.equal(again.exit_code, 0);
    assert.equal(again.output, '42\n');
  });

  test('a command printing 10 MB: capped, its beginning and end kept, and said so', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    const json = await runJson(d, id, "seq -f 'line-%08g-padding-padding-padding-padding-padding-padding-padding' 1 150000; echo the-end", ['--timeout', '120']);
    assert.equal(json.exit_code, 0);
    assert.equal(json.truncated, true);
    assert.ok(json.output_bytes > 10_000_000, `counted ${json.output_bytes} bytes of output`);
    assert.ok(json.output.length <= 65536 + 200, `kept ${json.output.length} bytes`);
    assert.match(json.output, /^line-00000001-padding/);
    assert.match(json.output, /\[wharf: \d+ bytes of output omitted\]/);
    assert.match(json.output, /line-00150000-padding.*\nthe-end\n$/s);
  });

  test('a command outliving its timeout keeps running and is reported; --interrupt presses C-c', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    const started = performance.now();
    const slow = await wharf(d, ['run', '--session', String(id), '--timeout', '1', '-c', 'sleep 5; echo slept']);
    assert.equal(slow.code, 124, slow.stderr);
    assert.ok(performance.now() - started < 4500, 'answered at the timeout, not when the command ended');
    assert.match(slow.stderr, /timed out.*still running/);
    // Still running: another run is refused as busy, then the sleep finishes on screen.
    const busy = await wharf(d, ['run', '--session', String(id), '--timeout', '2', '--', 'echo', 'next']);
    assert.notEqual(busy.code, 0);
    assert.match(busy.stderr, /running a command/);
    await waitFor(async () => (await screenJson(d, id)).lines.includes('slept'), { timeout: 15000, what: 'the sleep to finish' });
    const interrupted = await runJson(d, id, 'sleep 30', ['--timeout', '1', '--interrupt']);
    assert.equal(interrupted.timed_out, true);
    assert.equal(interrupted.interrupted, true);
    assert.equal(interrupted.exit_code, 130, 'the shell reported the interrupted command');
    const after = await runJson(d, id, 'echo back');
    assert.equal(after.output, 'back\n');
  });

  test('refuses sessions without shell integration, with a reason, and bad command lines', async (t) => {
    const d = await daemon(t);
    const sh = await newShell(d, 'sh');
    const r = await wharf(d, ['run', '--session', String(sh), '--', 'echo', 'hi']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no shell integration/);
    const bash = await newShell(d);
    const multi = await wharf(d, ['run', '--session', String(bash), '-c', 'echo a\necho b']);
    assert.equal(multi.code, 1);
    assert.match(multi.stderr, /one non-empty command line/);
    const missing = await wharf(d, ['run', '--session', '999', '--', 'true']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no live session 999/);
    const noShared = await wharf(d, ['run', '--', 'true']);
    assert.equal(noShared.code, 1);
    assert.match(noShared.stderr, /--shared-shell/);
  });
});

describe('the shared shell', () => {
  test('runs commands when no session is named, a person sees them in it, and it comes back after it ends', async (t) => {
    const d = await daemon(t, { args: ['--shared-shell'] });
    let shared;
    await waitFor(async () => {
      const r = await wharf(d, ['ls', '--json']);
      shared = JSON.parse(r.stdout).find((s) => s.shared_shell);
      return shared;
    }, { what: 'the shared shell' });
    assert.equal(shared.name, 'shared shell');
    const r = await wharf(d, ['run', '-c', 'echo from-$((40+2))']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'from-42\n');
    // A window on it shows the command line and its output.
    const w = await openWs(d);
    t.after(() => w.close());
    await w.attach({ session: shared.id });
    assert.match(w.lastSnapshot.text, /echo from-\$\(\(40\+2\)\)/);
    assert.match(w.lastSnapshot.text, /from-42/);
    assert.equal((await wharf(d, ['kill', String(shared.id)])).code, 0);
    await waitFor(async () => !JSON.parse((await wharf(d, ['ls', '--json'])).stdout).some((s) => s.id === shared.id), { what: 'the shell to end' });
    const again = await wharf(d, ['run', '--', 'echo', 'again']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'again\n');
    const sessions = JSON.parse((await wharf(d, ['ls', '--json'])).stdout);
    assert.equal(sessions.filter((s) => s.shared_shell).length, 1);
  });
});

describe('keys, text, waiting and reading', { concurrency: 2 }, () => {
  test('send-keys presses named keys; one unknown name and nothing is sent', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    await runJson(d, id, 'true'); // the prompt is up
    let r = await wharf(d, ['send-text', String(id), 'echo typed-$((2+3))']);
    assert.equal(r.code, 0, r.stderr);
    r = await wharf(d, ['send-keys', String(id), 'Enter', 'Bogus']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Bogus/);
    await waitFor(async () => (await screenJson(d, id)).lines.some((l) => l.endsWith('echo typed-$((2+3))')), { what: 'the typed line' });
    assert.ok(!(await screenJson(d, id)).lines.includes('typed-5'), 'Enter was not sent');
    r = await wharf(d, ['send-keys', String(id), 'Enter']);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(async () => (await screenJson(d, id)).lines.includes('typed-5'), { what: 'the command to run' });
    // C-c interrupts a running program.
    await wharf(d, ['send-text', String(id), 'sleep 60; echo not-interrupted', '--submit']);
    await waitFor(async () => (await screenJson(d, id)).lines.some((l) => l.includes('sleep 60')), { what: 'the sleep' });
    r = await wharf(d, ['send-keys', String(id), 'C-c']);
    assert.equal(r.code, 0, r.stderr);
    const after = await runJson(d, id, 'echo prompt-back');
    assert.equal(after.output, 'prompt-back\n');
    assert.ok(!(await screenJson(d, id)).lines.includes('not-interrupted'));
  });

  test('send-text cannot break out of a paste: an injected command never runs', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    await runJson(d, id, 'true');
    const marker = join(d.home, 'pwned');
    const attack = `echo harmless\x1b[201~\rtouch ${marker}\r\x9b201~\x03\x15touch ${marker}\n`;
    const r = await wharf(d, ['send-text', String(id), attack, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const sent = JSON.parse(r.stdout);
    assert.equal(sent.bracketed, true, 'bash asked for bracketed paste');
    // Both end markers go whole (ESC [ 2 0 1 ~, and U+009B, 8-bit CSI, with its 2 0 1 ~),
    // and so do C-c and C-u: 6 + 5 + 2 characters.
    assert.equal(sent.removed, 13, `removed ${sent.removed} characters`);
    // Everything sits in the line editor, unexecuted; it is then thrown away with keys
    // (C-c's SIGINT can reach bash between reads, and then bash keeps the line).
    await waitFor(async () => (await screenJson(d, id)).lines.filter((l) => l.includes(`touch ${marker}`)).length >= 2, { what: 'the pasted text' });
    assert.ok(!(await screenJson(d, id)).lines.some((l) => l.includes('201~')), 'no part of an end marker was typed');
    assert.equal(existsSync(marker), false, 'nothing ran while the paste was read');
    await wharf(d, ['send-keys', String(id), 'C-e', 'C-u']);
    const after = await runJson(d, id, 'echo checked');
    assert.equal(after.output, 'checked\n');
    assert.equal(existsSync(marker), false, 'the injected command never ran');
  });

  test('send-text: a line break is never Enter; without bracketed paste, multi-line text is refused whole', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    await runJson(d, id, 'true');
    // At bash's prompt bracketed paste is on: two lines go in as one paste and run nothing.
    const marker = join(d.home, 'ran');
    let r = await wharf(d, ['send-text', String(id), `echo first\ntouch ${marker}\n`, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).bracketed, true);
    await waitFor(async () => (await screenJson(d, id)).lines.some((l) => l.includes(`touch ${marker}`)), { what: 'the pasted lines' });
    assert.equal(existsSync(marker), false, 'a pasted line break did not press Enter');
    await wharf(d, ['send-keys', String(id), 'C-e', 'C-u']);
    // cat runs with bracketed paste off: a line break there would be Enter, so it is refused.
    await wharf(d, ['send-text', String(id), 'cat', '--submit']);
    await waitFor(async () => (await screenJson(d, id)).lines.some((l) => /[#$] cat$/.test(l)), { what: 'cat typed' });
    // bash turns bracketed paste off as it starts cat, then all is quiet.
    assert.equal((await wharf(d, ['wait', String(id), '--idle', '300', '--timeout', '10'])).code, 0);
    r = await wharf(d, ['send-text', String(id), 'line-one\nline-two']);
    assert.notEqual(r.code, 0, 'refused');
    assert.match(r.stderr, /bracketed paste/);
    r = await wharf(d, ['send-text', String(id), 'single-line', '--submit']);
    assert.equal(r.code, 0, r.stderr);
    await waitFor(async () => (await screenJson(d, id)).lines.filter((l) => l === 'single-line').length === 2, { what: 'cat echoing the line' });
    const lines = (await screenJson(d, id)).lines;
    assert.ok(!lines.some((l) => l.includes('line-one') || l.includes('line-two')), 'nothing of the refused text was typed');
    // The same rule over HTTP: one path for every door.
    const h = await httpGet(d, `/api/v1/sessions/${id}/text`, { method: 'POST', headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'a\r\nb' }) });
    assert.equal(h.status, 422, h.body);
    assert.equal(JSON.parse(h.body).error.code, 'needs_bracketed_paste');
    await wharf(d, ['send-keys', String(id), 'C-d']);
  });

  test('wait --for and --idle return when they should and time out when they should', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    await runJson(d, id, 'true');
    await wharf(d, ['send-text', String(id), 'sleep 1; echo READY-$((40+2))', '--submit']);
    let started = performance.now();
    let r = await wharf(d, ['wait', String(id), '--for', 'READY-\\d+', '--timeout', '10', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const found = JSON.parse(r.stdout);
    assert.equal(found.matched, true);
    assert.equal(found.match, 'READY-42');
    assert.ok(performance.now() - started >= 500, 'it waited for the text to appear');
    started = performance.now();
    r = await wharf(d, ['wait', String(id), '--for', 'NEVER-THERE', '--timeout', '1']);
    assert.equal(r.code, 124);
    assert.ok(performance.now() - started >= 900);
    r = await wharf(d, ['wait', String(id), '--idle', '300', '--timeout', '5']);
    assert.equal(r.code, 0, r.stderr);
    await wharf(d, ['send-text', String(id), 'while :; do echo tick; sleep 0.1; done', '--submit']);
    await waitFor(async () => (await screenJson(d, id)).lines.includes('tick'), { what: 'the ticking' });
    r = await wharf(d, ['wait', String(id), '--idle', '500', '--timeout', '2']);
    assert.equal(r.code, 124, 'never quiet for 500 ms');
    r = await wharf(d, ['wait', String(id), '--for', '(', '--timeout', '1']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not a valid regular expression/);
    await wharf(d, ['send-keys', String(id), 'C-c']);
  });

  test('read-screen --since answers only the rows that changed', async (t) => {
    const d = await daemon(t);
    const id = await newShell(d);
    await runJson(d, id, 'clear');
    const first = await screenJson(d, id);
    assert.equal(typeof first.seq, 'number');
    await runJson(d, id, 'echo since-marker');
    const changes = await screenJson(d, id, ['--since', String(first.seq)]);
    assert.equal(changes.full, false);
    assert.ok(changes.seq > first.seq);
    const texts = changes.changed.map((c) => c.text);
    assert.ok(texts.includes('since-marker'), JSON.stringify(changes));
    assert.ok(changes.changed.length < first.rows, 'not every row');
    const none = await screenJson(d, id, ['--since', String(changes.seq)]);
    assert.deepEqual(none.changed, []);
    // Blank rows below the content are not sent; the size says how many there are.
    const whole = await screenJson(d, id);
    assert.equal(whole.rows, 24);
    assert.equal(whole.shown_rows, whole.lines.length);
    assert.ok(whole.lines.length < whole.rows, `${whole.lines.length} lines of ${whole.rows}`);
    assert.notEqual(whole.lines.at(-1), '', 'the last line sent has text');
    // A row that turns blank is still reported to --since, exactly.
    await runJson(d, id, 'clear');
    const cleared = await screenJson(d, id, ['--since', String(whole.seq)]);
    assert.ok(cleared.full || cleared.changed.some((c) => c.text === ''), JSON.stringify(cleared));
  });
});

describe('/api/v1', () => {
  test('the same operations over HTTP with the key; refusals have their status', async (t) => {
    const d = await daemon(t);
    const key = { 'X-Wharf-Key': d.key };
    const json = { ...key, 'Content-Type': 'application/json' };
    let r = await httpGet(d, '/api/v1/sessions', {});
    assert.equal(r.status, 401, 'no key');
    r = await httpGet(d, '/api/v1/sessions', { method: 'POST', headers: json, body: JSON.stringify({ shell: 'bash' }) });
    assert.equal(r.status, 201, r.body);
    const id = JSON.parse(r.body).session;
    r = await httpGet(d, `/api/v1/sessions/${id}/run`, { method: 'POST', headers: json, body: JSON.stringify({ command: 'echo api-$((1+1)); (exit 4)' }) });
    assert.equal(r.status, 200, r.body);
    let body = JSON.parse(r.body);
    assert.equal(body.output, 'api-2\n');
    assert.equal(body.exit_code, 4);
    r = await httpGet(d, `/api/v1/sessions/${id}/screen?scrollback=5`, { headers: key });
    assert.equal(r.status, 200);
    body = JSON.parse(r.body);
    assert.ok(body.lines.includes('api-2'));
    r = await httpGet(d, `/api/v1/sessions/${id}/keys`, { method: 'POST', headers: json, body: JSON.stringify({ keys: ['Nope'] }) });
    assert.equal(r.status, 400);
    assert.equal(JSON.parse(r.body).error.code, 'bad_key');
    r = await httpGet(d, `/api/v1/sessions/${id}/keys`, { method: 'POST', headers: { ...json, Origin: 'http://evil.example' }, body: JSON.stringify({ keys: ['Enter'] }) });
    assert.equal(r.status, 403, 'a foreign Origin');
    r = await httpGet(d, '/api/v1/sessions', { method: 'POST', headers: json, body: JSON.stringify({ command: 'rm -rf /' }) });
    assert.equal(r.status, 400);
    assert.match(JSON.parse(r.body).error.message, /no 'command' field/);
    r = await httpGet(d, '/api/v1/sessions/999/screen', { headers: key });
    assert.equal(r.status, 404);
    r = await httpGet(d, `/api/v1/sessions/${id}`, { method: 'DELETE', headers: key });
    assert.equal(r.status, 200);
  });
});

describe('/api/v1/openapi.json', () => {
  test('documents every route the daemon serves, and nothing it does not', async (t) => {
    const d = await daemon(t);
    const key = { 'X-Wharf-Key': d.key };
    assert.equal((await httpGet(d, '/api/v1/openapi.json', {})).status, 401, 'the key, like all of /api');
    const r = await httpGet(d, '/api/v1/openapi.json', { headers: key });
    assert.equal(r.status, 200, r.body);
    const doc = JSON.parse(r.body);
    assert.equal(doc.openapi, '3.1.0');
    const id = await newShell(d);
    const methods = ['get', 'post', 'put', 'patch', 'delete'];
    const calls = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const concrete = `/api/v1${path.replace('{session}', String(id))}`;
      for (const method of methods) {
        if (!(method in item)) {
          // A method the document does not give is not served there.
          const other = await httpGet(d, concrete, { method: method.toUpperCase(), headers: { ...key, 'Content-Type': 'application/json' }, body: method === 'get' ? undefined : '{}' });
          assert.equal(other.status, 405, `${method} ${path} is undocumented but answered ${other.status}`);
          continue;
        }
        calls.push({ method, path, concrete, op: item[method] });
      }
    }
    assert.ok(calls.length >= 13, `${calls.length} documented operations`);
    // Routes the router serves itself, outside the route table, are documented too.
    const routerSource = readFileSync(new URL('../../src/server/router.cpp', import.meta.url), 'utf8');
    const special = [...routerSource.matchAll(/"\/api\/v1(\/[a-z._]+)"/g)].map((m) => m[1]);
    assert.ok(special.includes('/openapi.json'), special.join());
    for (const path of special) assert.ok(doc.paths[path]?.get, `the router serves ${path}, undocumented`);
    assert.deepEqual(doc.paths['/health'].get.security, [], 'health needs no key');
    assert.equal((await httpGet(d, '/api/v1/health', {})).status, 200);
    // Every documented route answers (with arguments it refuses, so nothing is changed;
    // ending the session goes last).
    calls.sort((a, b) => (a.method === 'delete') - (b.method === 'delete'));
    for (const { method, path, concrete, op } of calls) {
      const body = method === 'post' ? JSON.stringify({ probe_only: true }) : undefined;
      const res = await httpGet(d, concrete, { method: method.toUpperCase(), headers: { ...key, 'Content-Type': 'application/json' }, body });
      assert.ok(res.status !== 404 && res.status !== 405, `${method} ${path} answered ${res.status}: ${res.body}`);
      if (method === 'post') {
        assert.equal(res.status, 400, `${method} ${path}: ${res.body}`);
        const { error } = JSON.parse(res.body);
        assert.equal(error.code, 'bad_argument');
        assert.match(error.message, /^unknown argument 'probe_only' \(known: /);
        if (path === '/sessions') assert.doesNotMatch(error.message, /command|argv|exec|program/, 'forbidden fields are not offered');
      } else {
        assert.equal(res.status, 200, `${method} ${path}: ${res.body}`);
        assert.ok(op.responses['200'], `${method} ${path} documents its answer`);
      }
      if (method !== 'post' || path !== '/sessions') continue;
      // The one documented 201 is real: a session started over HTTP.
      assert.ok(op.responses['201']);
      const made = await httpGet(d, concrete, { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: JSON.stringify({ shell: 'bash' }) });
      assert.equal(made.status, 201, made.body);
    }
  });
});

describe('who may drive what', () => {
  test('a wharf call from inside session A cannot read or drive the browser\'s session, and can drive one A started', async (t) => {
    const d = await daemon(t);
    // B: started by the browser (a key holder).
    const w = await openWs(d);
    t.after(() => w.close());
    const b = (await w.newSession({ shell: 'bash' })).session;
    // A: started from this terminal.
    const a = await newShell(d);
    const inA = (args) => { const [verb, ...rest] = args.split(' '); return runJson(d, a, `${wharfBin} ${verb} --state-dir ${d.stateDir} ${rest.join(' ')}`); };
    let r = await inA(`read-screen ${b}`);
    assert.equal(r.exit_code, 1);
    assert.match(r.output, /may only use the sessions it started/);
    r = await inA(`send-keys ${b} Enter`);
    assert.equal(r.exit_code, 1);
    assert.match(r.output, /not permitted|may only use/);
    r = await inA(`kill ${b}`);
    assert.equal(r.exit_code, 1);
    r = await inA('new --shell bash');
    assert.equal(r.exit_code, 0, r.output);
    const c = Number(r.output.trim());
    r = await inA(`run --session ${c} -- echo child-$((3*3))`);
    assert.equal(r.exit_code, 0, r.output);
    assert.equal(r.output, 'child-9\n');
    r = await inA('ls --json');
    const visible = JSON.parse(r.output).map((s) => s.id);
    assert.ok(visible.includes(c) && !visible.includes(b), `session A sees ${visible}`);
    const all = JSON.parse((await wharf(d, ['ls', '--json'])).stdout);
    assert.equal(all.find((s) => s.id === c).creator, `session:${a}`);
    assert.equal(all.find((s) => s.id === b).creator, 'key');
    assert.equal(all.find((s) => s.id === a).creator, 'local');
  });
});
