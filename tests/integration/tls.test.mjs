// HTTPS on wharf's own port and the names a proxy reaches it by (docs/remote.md): the
// self-signed certificate wharf makes (trusted by a client that was given it and by no
// other), its fingerprint, its reuse across restarts, the operator's own certificate,
// refusals of unusable files at start, the answer to plain HTTP on the TLS port, and the
// Host and Origin rules of allowed_hosts and public_url.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { X509Certificate } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { randomBytes } from 'node:crypto';
import { sanitizerOptions, startDaemon, waitFor, wharfBin } from '../support/daemon.mjs';
import { httpGet, runWharf, stopDaemon, tryUpgrade } from '../support/ws_client.mjs';

// An HTTPS request to the daemon trusting only `ca` (undefined: the system's roots).
function httpsGet(d, path, { ca, headers = {}, servername } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port: d.port, path, ca, headers, servername, agent: false, timeout: 5000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), cert: res.socket.getPeerCertificate?.() }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`HTTPS GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

// Opens wss:// trusting `ca`; resolves with the first message (hello) or rejects with
// the HTTP status of a refusal.
function openWss(d, { ca, origin, key = d.key }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${d.port}/ws?k=${key}`, { ca, headers: { Origin: origin }, handshakeTimeout: 5000 });
    ws.once('message', (data) => { ws.terminate(); resolve(JSON.parse(data.toString())); });
    ws.once('unexpected-response', (req, res) => { res.resume(); reject(new Error(`HTTP ${res.statusCode}`)); });
    ws.once('error', reject);
  });
}

function tlsDir(stateDir) { return join(stateDir, 'tls'); }

// A daemon that must refuse to start: resolves with its stderr.
async function refusedStart(args) {
  try {
    const d = await startDaemon({ args });
    await stopDaemon(d);
  } catch (e) {
    return e.message;
  }
  throw new Error('the daemon started');
}

// Scratch folders for certificates, removed when the test process ends.
const scratch = [];
process.on('exit', () => { for (const dir of scratch) rmSync(dir, { recursive: true, force: true }); });
function scratchDir() {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-tls-'));
  scratch.push(dir);
  return dir;
}

// A certificate and key of the operator's own, made with the openssl tool.
function makeOwnCertificate(dir = scratchDir()) {
  const cert = join(dir, 'own-cert.pem');
  const key = join(dir, 'own-key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=own test certificate',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  return { cert, key };
}

describe('HTTPS with a self-signed certificate', { concurrency: 3 }, () => {
  test('a client trusting only the generated certificate gets the page, the API and a WebSocket; the URL is https', async (t) => {
    const d = await startDaemon({ args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(d));
    assert.match(d.url, /^https:\/\/127\.0\.0\.1:\d+\/\?k=/);
    assert.equal(readFileSync(join(d.stateDir, 'url'), 'utf8').trim(), d.url, 'the URL file (wharf open) says https too');
    const ca = readFileSync(join(tlsDir(d.stateDir), 'cert.pem'));
    assert.equal(statSync(join(tlsDir(d.stateDir), 'key.pem')).mode & 0o777, 0o600, 'the key is owner-only');

    const status = await httpsGet(d, '/api/status', { ca, headers: { 'X-Wharf-Key': d.key } });
    assert.equal(status.status, 200);
    assert.equal(typeof JSON.parse(status.body).version, 'string');
    const page = await httpsGet(d, `/?k=${d.key}`, { ca });
    assert.ok([200, 302, 303].includes(page.status), `the page answers (${page.status})`);
    const index = await httpsGet(d, '/static/style.css', { ca });
    assert.equal(index.status, 200);

    const hello = await openWss(d, { ca, origin: `https://127.0.0.1:${d.port}` });
    assert.equal(hello.type, 'hello');
    // The Origin follows the scheme: the http:// origin is another page's.
    await assert.rejects(openWss(d, { ca, origin: `http://127.0.0.1:${d.port}` }), /HTTP 403/);
  });

  test('a client that was not given the certificate refuses it', async (t) => {
    const d = await startDaemon({ args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(d));
    await assert.rejects(httpsGet(d, '/api/v1/health'), (e) => /SELF_SIGNED|UNABLE_TO_VERIFY/.test(e.code ?? ''), 'certificate verification fails');
    // Another self-signed certificate is no substitute for this one.
    const other = makeOwnCertificate();
    await assert.rejects(httpsGet(d, '/api/v1/health', { ca: readFileSync(other.cert) }), (e) => /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/.test(e.code ?? ''));
    await assert.rejects(openWss(d, { origin: `https://127.0.0.1:${d.port}` }), (e) => /self.signed|unable to verify/i.test(e.message));
  });

  test('the fingerprint printed at start is the certificate\'s; the certificate names this machine', async (t) => {
    const d = await startDaemon({ args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(d));
    const cert = new X509Certificate(readFileSync(join(tlsDir(d.stateDir), 'cert.pem')));
    // (Logged on stderr right after the URL on stdout: the two pipes are read apart.)
    const printed = await waitFor(() => d.stderr.match(/SHA-256 fingerprint ([0-9A-F:]{95})/), { what: 'the fingerprint on stderr' });
    assert.equal(printed[1], cert.fingerprint256);
    assert.match(cert.subjectAltName, /DNS:localhost/);
    assert.match(cert.subjectAltName, /IP Address:127\.0\.0\.1/);
    assert.equal(cert.publicKey.asymmetricKeyDetails.namedCurve, 'prime256v1');
    // What the browser was served is that very certificate.
    const served = await httpsGet(d, '/api/v1/health', { ca: cert.toString() });
    assert.equal(served.cert.fingerprint256, cert.fingerprint256);
    // `wharf pair` shows it beside the pairing link, to compare on the phone.
    const paired = await runWharf(['pair', '--no-qr', '--state-dir', d.stateDir]);
    assert.equal(paired.code, 0, paired.stderr);
    assert.ok(paired.stdout.includes(cert.fingerprint256), paired.stdout);
    assert.match(paired.stdout, new RegExp(`https://127\\.0\\.0\\.1:${d.port}/pair/`));
  });

  test('a restart keeps the certificate (a phone trusts it by its fingerprint)', async (t) => {
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
    const first = await startDaemon({ stateDir, args: ['--tls', 'self-signed'] });
    const pem = readFileSync(join(tlsDir(stateDir), 'cert.pem'), 'utf8');
    await waitFor(() => /a new self-signed certificate/.test(first.stderr), { what: 'a new certificate logged' });
    first.child.kill('SIGTERM');
    assert.equal((await first.exited).code, 0);
    const second = await startDaemon({ stateDir, args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(second));
    assert.equal(readFileSync(join(tlsDir(stateDir), 'cert.pem'), 'utf8'), pem, 'the same certificate');
    await waitFor(() => /with the self-signed certificate/.test(second.stderr), { what: 'the kept certificate logged' });
    const status = await httpsGet(second, '/api/v1/health', { ca: pem });
    assert.equal(status.status, 200);
  });

  test('plain HTTP on the TLS port is redirected to https, or refused for a foreign Host', async (t) => {
    const d = await startDaemon({ args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(d));
    const redirected = await httpGet(d, '/api/status');
    assert.equal(redirected.status, 307);
    assert.equal(redirected.headers.location, `https://127.0.0.1:${d.port}/api/status`);
    assert.match(redirected.body, /HTTPS on this port/);
    const foreign = await httpGet(d, '/', { host: `evil.example:${d.port}` });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.headers.location, undefined);
    assert.match(foreign.body, /https:\/\//);
    // The key such a request carried is not logged.
    await httpGet(d, `/?k=${d.key}`);
    assert.ok(!d.stderr.includes(d.key), 'the key stays out of the log');
  });
});

describe('HTTPS with the operator\'s certificate', { concurrency: 3 }, () => {
  test('--tls-cert and --tls-key serve that certificate', async (t) => {
    const own = makeOwnCertificate();
    const d = await startDaemon({ args: ['--tls-cert', own.cert, '--tls-key', own.key] });
    t.after(() => stopDaemon(d));
    assert.match(d.url, /^https:/);
    const ca = readFileSync(own.cert);
    const status = await httpsGet(d, '/api/status', { ca, headers: { 'X-Wharf-Key': d.key } });
    assert.equal(status.status, 200);
    assert.equal(status.cert.fingerprint256, new X509Certificate(ca).fingerprint256);
    await waitFor(() => d.stderr.includes(new X509Certificate(ca).fingerprint256), { what: 'its fingerprint logged' });
  });

  test('unusable files stop the start with a sentence naming the file', async () => {
    const dir = scratchDir();
    const own = makeOwnCertificate(dir);
    const other = makeOwnCertificate();
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a certificate\n');
    const missing = join(dir, 'missing.pem');

    let why = await refusedStart(['--tls-cert', missing, '--tls-key', own.key]);
    assert.match(why, new RegExp(`cannot read the TLS certificate ${missing}`));
    why = await refusedStart(['--tls-cert', garbage, '--tls-key', own.key]);
    assert.match(why, new RegExp(`the TLS certificate ${garbage} holds no PEM certificate`));
    why = await refusedStart(['--tls-cert', own.cert, '--tls-key', garbage]);
    assert.match(why, new RegExp(`the TLS key ${garbage} holds no`));
    why = await refusedStart(['--tls-cert', own.cert, '--tls-key', other.key]);
    assert.match(why, new RegExp(`the TLS key ${other.key} does not belong to the certificate ${own.cert}`));
    why = await refusedStart(['--tls-cert', own.cert]);
    assert.match(why, /go together/);
    why = await refusedStart(['--tls', 'self-signed', '--tls-cert', own.cert, '--tls-key', own.key]);
    assert.match(why, /not both/);
    why = await refusedStart(['--tls', 'sometimes']);
    assert.match(why, /sometimes/);
  });
});

describe('names a proxy reaches wharf by', { concurrency: 3 }, () => {
  async function proxiedDaemon(t, extraConfig = '') {
    const stateDir = mkdtempSync(join(tmpdir(), 'wharf-test-'));
    mkdirSync(join(stateDir, 'config', 'wharf'), { recursive: true });
    writeFileSync(join(stateDir, 'config', 'wharf', 'config.toml'),
      `[server]\npublic_url = "https://wharf.example.net"\nallowed_hosts = ["box.example"]\n${extraConfig}`);
    const d = await startDaemon({ stateDir });
    t.after(() => stopDaemon(d));
    return d;
  }
  const keyed = (d) => ({ 'X-Wharf-Key': d.key });

  test('a listed Host (any port) and the public URL\'s host are accepted; another name is refused 403', async (t) => {
    const d = await proxiedDaemon(t);
    for (const host of ['box.example', 'box.example:443', `box.example:${d.port}`, 'BOX.example', 'wharf.example.net']) {
      const r = await httpGet(d, '/api/status', { host, headers: keyed(d) });
      assert.equal(r.status, 200, `Host: ${host}`);
    }
    for (const host of ['evil.example', `evil.example:${d.port}`, 'box.example.evil.example', 'xbox.example']) {
      const r = await httpGet(d, '/api/status', { host, headers: keyed(d) });
      assert.equal(r.status, 403, `Host: ${host}`);
      assert.match(r.body, /allowed_hosts/, 'the refusal says how to allow a name');
    }
  });

  test('the WebSocket Origin follows the Host and the public URL', async (t) => {
    const d = await proxiedDaemon(t);
    const accepted = [
      { what: 'public URL through a proxy that rewrites Host', origin: 'https://wharf.example.net', host: `127.0.0.1:${d.port}` },
      { what: 'public URL with its own Host', origin: 'https://wharf.example.net', host: 'wharf.example.net' },
      { what: 'listed Host behind a TLS proxy', origin: 'https://box.example', host: 'box.example' },
      { what: 'listed Host over plain http', origin: 'http://box.example', host: 'box.example' },
    ];
    for (const { what, origin, host } of accepted) {
      const r = await tryUpgrade(d, { origin, headers: { Host: host } });
      assert.equal(r.upgraded, true, `${what}: ${JSON.stringify(r)}`);
    }
    const refused = [
      { what: 'another site with a listed Host', origin: 'https://evil.example', host: 'box.example' },
      { what: 'the public host on another port', origin: 'https://wharf.example.net:8443', host: `127.0.0.1:${d.port}` },
      { what: 'the public host over http', origin: 'http://wharf.example.net', host: `127.0.0.1:${d.port}` },
      { what: 'a listed name with a Host of another listed name', origin: 'https://box.example', host: 'wharf.example.net' },
      { what: 'a rebinding name', origin: 'https://evil.example', host: 'evil.example' },
    ];
    for (const { what, origin, host } of refused) {
      const r = await tryUpgrade(d, { origin, headers: { Host: host } });
      assert.equal(r.upgraded, false, what);
      assert.equal(r.status, 403, what);
    }
  });

  test('state changes from the public page are accepted, from others refused', async (t) => {
    const d = await proxiedDaemon(t);
    const post = (origin) => httpGet(d, '/api/cwd', {
      method: 'POST', host: 'box.example', headers: { ...keyed(d), Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cwd: d.stateDir }),
    });
    assert.equal((await post('https://wharf.example.net')).status, 200);
    const refused = await post('https://evil.example');
    assert.equal(refused.status, 403);
    assert.match(refused.body, /bad_origin/);
  });
});

describe('wharf attach to an HTTPS daemon', () => {
  // A private tmux server: `wharf attach` needs a terminal.
  function tmux(t) {
    const socket = `wharf-tls-${process.pid}-${randomBytes(4).toString('hex')}`;
    const dir = scratchDir();
    const run = (args) => new Promise((resolve, reject) => {
      execFile('/usr/bin/tmux', ['-L', socket, '-f', '/dev/null', ...args], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: process.env.USER, TERM: 'xterm-256color', SHELL: '/bin/sh', TMUX_TMPDIR: dir },
        timeout: 10000,
      }, (error, stdout, stderr) => (error ? reject(new Error(`tmux ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout)));
    });
    t.after(() => run(['kill-server']).catch(() => {}));
    return {
      run,
      attach: (pane, d, id) => {
        const env = Object.entries(sanitizerOptions()).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
        return run(['new-session', '-d', '-s', pane, '-x', '100', '-y', '30', ...env,
          `${wharfBin} attach ${id} --state-dir ${d.stateDir}; echo "[attach exited $?]"; exec sleep 86400`]);
      },
      waitForText: async (pane, text) => {
        let shown = '';
        await waitFor(async () => { shown = await run(['capture-pane', '-p', '-J', '-S', '-', '-t', pane]); return shown.includes(text); },
          { timeout: 20000, what: `${text} in pane ${pane}` }).catch((e) => { e.message += `\npane shows:\n${shown}`; throw e; });
        return shown;
      },
    };
  }

  test('it connects with TLS, accepting the certificate the daemon pinned; another pin is refused', async (t) => {
    const d = await startDaemon({ args: ['--tls', 'self-signed'] });
    t.after(() => stopDaemon(d));
    const pin = readFileSync(join(d.stateDir, 'tls-fingerprint'), 'utf8').trim();
    assert.equal(pin, new X509Certificate(readFileSync(join(tlsDir(d.stateDir), 'cert.pem'))).fingerprint256);
    const made = await runWharf(['new', '--shell', 'bash', '--state-dir', d.stateDir]);
    assert.equal(made.code, 0, made.stderr);
    const id = Number(made.stdout.trim());
    const tm = tmux(t);
    await tm.attach('good', d, id);
    // Typed again until it runs: keys typed before the WebSocket opened are not sent.
    await waitFor(async () => {
      await tm.run(['send-keys', '-t', 'good', '-l', 'echo tls-$((6*7))']);
      await tm.run(['send-keys', '-t', 'good', 'Enter']);
      return (await tm.run(['capture-pane', '-p', '-t', 'good'])).includes('tls-42');
    }, { timeout: 20000, interval: 500, what: 'the command\'s output through wharf attach' });

    writeFileSync(join(d.stateDir, 'tls-fingerprint'), `${'AB:'.repeat(31)}AB\n`);
    await tm.attach('bad', d, id);
    const shown = await tm.waitForText('bad', '[attach exited 1]');
    assert.match(shown.replace(/\n/g, ''), /serves another certificate than the one it\s*wrote/);
  });
});
