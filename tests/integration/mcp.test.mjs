// wharf's MCP server with a real client nobody here wrote: @modelcontextprotocol/sdk's
// Client, over stdio (`wharf mcp`) and over Streamable HTTP (/mcp on the daemon). It
// lists the tools, starts a shell, runs a command, reads the screen and ends the session;
// refusals come back as isError results a model can read; /mcp without the key or from a
// foreign Origin is refused; versions are negotiated.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { sanitizerOptions, startDaemon, wharfBin } from '../support/daemon.mjs';
import { httpGet, stopDaemon } from '../support/ws_client.mjs';

const TOOLS = ['answer_decision', 'end_session', 'list_decisions', 'list_devices', 'list_entries', 'list_sessions', 'move_session', 'new_session', 'notify', 'pair_device', 'pane_clear', 'pane_show', 'read_screen', 'rename_session', 'revoke_device', 'run_command', 'send_keys', 'send_text', 'wait_for'];

async function daemon(t) {
  const home = mkdtempSync(join(tmpdir(), 'wharf-mcp-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  writeFileSync(join(home, '.bashrc'), "PS1='mcp$ '\n");
  mkdirSync(join(home, 'work'));
  const d = await startDaemon({ args: ['--workspace', join(home, 'work')], env: { HOME: home } });
  t.after(() => stopDaemon(d));
  return d;
}

async function connect(t, transport) {
  const client = new Client({ name: 'wharf-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

// The whole conversation a model would have; the same over both transports.
async function driveAShell(client) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((x) => x.name).sort(), TOOLS);
  const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
  assert.equal(byName.read_screen.annotations.readOnlyHint, true);
  assert.equal(byName.end_session.annotations.destructiveHint, true);
  assert.equal(byName.run_command.inputSchema.type, 'object');
  assert.ok(byName.run_command.inputSchema.required.includes('command'));
  assert.ok(!('command' in byName.new_session.inputSchema.properties), 'no command field to start a session');
  // Every tool says what its answer looks like; every answer below is checked against it
  // (by the SDK client itself, and here with a JSON Schema 2020-12 validator).
  const ajv = new Ajv2020({ strict: false });
  const validators = {};
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an outputSchema`);
    validators[tool.name] = ajv.compile(tool.outputSchema);
    assert.equal(tool.annotations.openWorldHint, tool.name === 'run_command', `${tool.name} openWorldHint`);
    assert.ok(tool.description.length > 40, `${tool.name} is described`);
  }
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError ?? false, false, JSON.stringify(r));
    assert.ok(validators[name](r.structuredContent), `${name}: ${ajv.errorsText(validators[name].errors)} in ${JSON.stringify(r.structuredContent)}`);
    return r;
  };
  const entries = await call('list_entries', {});
  assert.ok(entries.structuredContent.entries.some((e) => e.kind === 'shell' && e.entry === 'bash' && e.installed), JSON.stringify(entries.structuredContent));

  const started = await call('new_session', { kind: 'shell', entry: 'bash' });
  const session = started.structuredContent.session;
  assert.ok(Number.isInteger(session));

  const ran = await call('run_command', { session, command: "echo mcp-$((6*7)); sh -c 'exit 5'" });
  assert.equal(ran.structuredContent.output, 'mcp-42\n');
  assert.equal(ran.structuredContent.exit_code, 5);
  assert.match(ran.content[0].text, /mcp-42\n\[exit code 5\]/);

  const screen = await call('read_screen', { session });
  assert.equal(screen.structuredContent.shown_rows, screen.structuredContent.lines.length);
  await call('read_screen', { session, since: screen.structuredContent.seq, scrollback: 3 });
  await call('send_text', { session, text: 'echo typed' });
  await call('send_keys', { session, keys: ['C-e', 'C-u'] });
  await call('wait_for', { session, idle_ms: 50, timeout_ms: 5000 });
  await call('wait_for', { session, pattern: 'mcp-\\d+', timeout_ms: 5000 });
  await call('notify', { session, state: 'waiting' });
  await call('list_sessions', {});
  assert.ok(screen.structuredContent.lines.includes('mcp-42'), JSON.stringify(screen.structuredContent.lines));

  const refused = await client.callTool({ name: 'send_keys', arguments: { session, keys: ['Enter', 'NoSuchKey'] } });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /NoSuchKey/);
  const missing = await client.callTool({ name: 'read_screen', arguments: { session: 999 } });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /^\[no_session\] .*no live session 999/);
  assert.equal(missing.structuredContent, undefined, 'a failure is not the tool\'s answer');
  const badValue = await client.callTool({ name: 'read_screen', arguments: { session, scrollback: -1 } });
  assert.equal(badValue.isError, true, 'a bad value is a tool error, not a protocol error');
  assert.match(badValue.content[0].text, /^\[bad_argument\] 'scrollback' must be an integer from 0 to 2000/);
  const noCommand = await client.callTool({ name: 'new_session', arguments: { command: 'rm -rf /' } });
  assert.equal(noCommand.isError, true);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /no_such_tool/);

  await call('end_session', { session });
  const listed = await call('list_sessions', {});
  assert.ok(!listed.structuredContent.sessions.some((s) => s.id === session && s.status === 'running'));
}

describe('MCP', { concurrency: 2 }, () => {
  test('stdio: `wharf mcp` with the SDK client', async (t) => {
    const d = await daemon(t);
    const transport = new StdioClientTransport({
      command: wharfBin,
      args: ['mcp', '--state-dir', d.stateDir],
      env: { ...sanitizerOptions(), PATH: process.env.PATH, HOME: process.env.HOME },
      stderr: 'pipe',
    });
    const client = await connect(t, transport);
    assert.equal(client.getServerVersion().name, 'wharf');
    assert.match(client.getInstructions() ?? '', /run_command/);
    await driveAShell(client);
  });

  test('Streamable HTTP: /mcp with the key, with the SDK client', async (t) => {
    const d = await daemon(t);
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${d.port}/mcp`), {
      requestInit: { headers: { 'X-Wharf-Key': d.key } },
    });
    const client = await connect(t, transport);
    await driveAShell(client);
  });

  test('Streamable HTTP refuses a missing key, a foreign Origin and other methods; versions are negotiated', async (t) => {
    const d = await daemon(t);
    const noKey = new Client({ name: 'nokey', version: '1' });
    await assert.rejects(noKey.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${d.port}/mcp`))), /401|key/i);
    const init = (version, headers = {}) => httpGet(d, '/mcp', {
      method: 'POST',
      headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    let r = await init('2025-06-18', { Origin: 'http://evil.example' });
    assert.equal(r.status, 403);
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
      r = await init(version);
      assert.equal(r.status, 200, r.body);
      assert.equal(JSON.parse(r.body).result.protocolVersion, version);
    }
    r = await init('1999-01-01');
    assert.equal(JSON.parse(r.body).result.protocolVersion, '2025-11-25', 'an unknown version gets the newest');
    r = await httpGet(d, '/mcp', { headers: { 'X-Wharf-Key': d.key } });
    assert.equal(r.status, 405);
    r = await httpGet(d, '/mcp', {
      method: 'POST',
      headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    assert.equal(r.status, 202);
    r = await httpGet(d, '/mcp', {
      method: 'POST',
      headers: { 'X-Wharf-Key': d.key, 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2025-06-18' },
      body: '{"jsonrpc":"2.0","id":3,',
    });
    assert.equal(r.status, 400);
    assert.equal(JSON.parse(r.body).error.code, -32700);
  });
});
