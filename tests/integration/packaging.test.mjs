// wharf as users install it. `cmake --install` into a staging folder (DESTDIR) must give
// a binary that finds its page under <prefix>/share/wharf/web and serves it. The Debian
// package (CPack, what `make deb` builds) must hold everything wharf needs: it is
// unpacked into an empty root and run inside bubblewrap with nothing of the machine but
// its libraries (/usr/lib) and, for the session, a shell, so a file missing from the
// package fails here. WHARF_BUILD_DIR is the build tree to install and package from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startDaemon, waitFor, killHosts } from '../support/daemon.mjs';
import { childrenOf, stopDaemon, within } from '../support/ws_client.mjs';

const buildDir = process.env.WHARF_BUILD_DIR ?? dirname(process.env.WHARF_BIN ?? 'build/wharf');

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'wharf-packaging-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60000, ...options });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

async function get(origin, path, headers = {}) {
  const response = await fetch(origin + path, { headers });
  return { status: response.status, body: await response.text() };
}

// The page and every file its index names load: a page that is installed without its
// vendored xterm.js or its modules is a blank page.
async function assertPageLoads(url) {
  const { origin, searchParams } = new URL(url);
  // The key in a header: a key in the address is traded for a device cookie (a redirect).
  const index = await get(origin, '/', { 'X-Wharf-Key': searchParams.get('k') });
  assert.equal(index.status, 200);
  const names = [...index.body.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(names.includes('/static/main.js') && names.some((n) => n.includes('xterm')), names.join(' '));
  for (const name of names) assert.equal((await get(origin, name)).status, 200, name);
}

test('cmake --install puts the binary, page, docs and unit under the prefix, and the binary serves the page', async (t) => {
  const dest = scratch(t);
  run('cmake', ['--install', buildDir, '--prefix', '/usr/local'], { env: { ...process.env, DESTDIR: dest } });
  const prefix = join(dest, 'usr/local');
  for (const file of ['bin/wharf', 'share/wharf/web/index.html', 'share/wharf/web/vendor/xterm/xterm.mjs',
    'share/doc/wharf/README.md', 'share/doc/wharf/LICENSE', 'share/doc/wharf/docs/api.md',
    'lib/systemd/user/wharf.service'])
    assert.ok(existsSync(join(prefix, file)), `${file} is installed`);
  assert.match(run(join(prefix, 'bin/wharf'), ['--version']), /^wharf \d+\.\d+\.\d+/);
  // No web/ beside the installed binary: the page must come from share/wharf/web.
  const d = await startDaemon({ bin: join(prefix, 'bin/wharf') });
  t.after(() => stopDaemon(d));
  await assertPageLoads(d.url);
});

function bwrapWorks() {
  return spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status === 0;
}

test('the Debian package runs from an empty root with only the system libraries', { timeout: 120000 }, async (t) => {
  const dir = scratch(t);
  run('cpack', ['-G', 'DEB', '--config', join(buildDir, 'CPackConfig.cmake'), '-B', join(dir, 'out')], { timeout: 90000 });
  const deb = readdirSync(join(dir, 'out')).find((name) => name.endsWith('.deb'));
  assert.ok(deb, 'cpack wrote a .deb');
  const debPath = join(dir, 'out', deb);
  // Depends comes from the libraries the binary links (dpkg-shlibdeps).
  const depends = run('dpkg-deb', ['-f', debPath, 'Depends']);
  assert.match(depends, /libc6/);
  assert.match(depends, /libsqlite3/);
  const root = join(dir, 'root');
  run('dpkg', ['-x', debPath, root]);
  const listed = run('dpkg-deb', ['-c', debPath]);
  for (const file of ['./usr/bin/wharf', './usr/share/wharf/web/index.html', './usr/lib/systemd/user/wharf.service',
    './usr/share/doc/wharf/copyright', './usr/share/doc/wharf/docs/api.md'])
    assert.ok(listed.includes(file), `${file} is in the package`);

  if (!bwrapWorks()) {
    t.skip('bubblewrap cannot make a sandbox here');
    return;
  }
  const state = join(dir, 'state');
  const home = join(dir, 'home');
  mkdirSync(state, { mode: 0o700 });
  mkdirSync(home);
  // Only the package's files, the system's libraries, and a shell for the session (where
  // wharf looks for one, outside the package's folders).
  const sandbox = ['--ro-bind', '/usr/lib', '/usr/lib', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
    ...(existsSync('/usr/lib64') ? ['--ro-bind', '/usr/lib64', '/usr/lib64'] : []),
    '--ro-bind', join(root, 'usr/bin'), '/usr/bin', '--ro-bind', join(root, 'usr/share'), '/usr/share',
    '--ro-bind', '/usr/bin/bash', '/usr/local/bin/bash', '--ro-bind', '/etc/passwd', '/etc/passwd',
    '--ro-bind', '/etc/group', '/etc/group',
    '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--bind', state, state, '--bind', home, home,
    '--chdir', home, '--die-with-parent', '--clearenv', '--setenv', 'HOME', home, '--setenv', 'PATH', '/usr/bin',
    '--setenv', 'SHELL', '/usr/local/bin/bash', '--setenv', 'USER', process.env.USER ?? 'root'];
  const inside = (args, options) => spawnSync('bwrap', [...sandbox, '/usr/bin/wharf', ...args],
    { encoding: 'utf8', timeout: 20000, ...options });

  const version = inside(['--version']);
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^wharf \d+\.\d+\.\d+/);

  const daemon = spawn('bwrap', [...sandbox, '/usr/bin/wharf', 'serve', '--port', '0', '--state-dir', state,
    '--workspace', home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  daemon.stderr.on('data', (data) => { stderr += data; });
  const exited = new Promise((resolve) => daemon.on('exit', (code) => resolve(code)));
  t.after(() => { daemon.kill('SIGKILL'); killHosts(state); });
  let out = '';
  daemon.stdout.on('data', (data) => { out += data; });
  await waitFor(() => out.includes('\n') || daemon.exitCode !== null, { timeout: 15000, what: 'the address' });
  assert.match(out, /^http:\/\/127\.0\.0\.1:\d+\/\?k=/, stderr);
  await assertPageLoads(out.trim());

  const started = inside(['new', '--state-dir', state]);
  assert.equal(started.status, 0, `${started.stdout}\n${started.stderr}\n${stderr}`);
  const listed2 = inside(['ls', '--json', '--state-dir', state]);
  assert.equal(listed2.status, 0, listed2.stderr);
  const sessions = JSON.parse(listed2.stdout).sessions ?? JSON.parse(listed2.stdout);
  assert.equal(sessions.length, 1, listed2.stdout);
  // bwrap passes no signal on: the stop goes to the daemon, its child; bwrap exits with
  // the daemon's status.
  for (const pid of childrenOf(daemon.pid)) process.kill(pid, 'SIGTERM');
  assert.equal(await within(exited, 15000, 'the sandboxed daemon to stop'), 0, stderr);
});
