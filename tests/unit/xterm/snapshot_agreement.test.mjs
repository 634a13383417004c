// The page's emulator must agree with the server's: every recorded stream is fed to the
// server's screen model (wharf_snapshot_tool), its snapshot is written into
// @xterm/headless with the page's Unicode 11 widths, and the text rows and cursor must
// match what the server's model holds. A mismatch here is a window that reattaches to
// a different screen than the one the program drew.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderWithXterm } from '../../support/xterm_screen.mjs';

const fixtures = new URL('../../fixtures/screens/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8'));
const tool = process.env.WHARF_SNAPSHOT_TOOL ?? new URL('../../../build/tests/wharf_snapshot_tool', import.meta.url).pathname;

// A cursor in the pending-wrap state: libvterm reports the last column, xterm.js one
// past it. Both mean "the next character wraps".
function sameCursor(server, xterm, cols) {
  if (server.row !== xterm.row) return false;
  return server.col === xterm.col || (server.col === cols - 1 && xterm.col === cols);
}

const work = mkdtempSync(join(tmpdir(), 'wharf-agreement-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

for (const [name, entry] of Object.entries(manifest)) {
  test(`xterm.js shows the server's screen for ${name}`, async () => {
    const out = join(work, `${name}.snapshot`);
    const server = JSON.parse(execFileSync(tool, [join(fixtures, entry.file), String(entry.cols), String(entry.rows), out]));
    const snapshot = readFileSync(out);
    const xterm = await renderWithXterm(snapshot, { cols: entry.cols, rows: entry.rows });
    const trim = (lines) => lines.map((l) => l.replace(/\s+$/, ''));
    assert.deepEqual(trim(xterm.lines), trim(server.lines), `${name}: visible rows differ`);
    assert.ok(sameCursor(server.cursor, xterm.cursor, entry.cols),
      `${name}: cursor server ${JSON.stringify(server.cursor)} xterm ${JSON.stringify(xterm.cursor)}`);
    assert.equal(xterm.altScreen, server.alternate_screen, `${name}: alternate screen`);
    assert.deepEqual(trim(xterm.scrollbackLines).slice(-server.scrollback.length || undefined),
      trim(server.scrollback).slice(-xterm.scrollbackLines.length || undefined), `${name}: scrollback`);
  });
}
