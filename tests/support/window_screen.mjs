// What a window of the browser protocol shows, rendered by the page's own emulator
// (@xterm/headless through xterm_screen.mjs): a snapshot alone, or a window's terminal
// stream since it last reset its terminal (its last snapshot, then live output).
import { renderWithXterm } from './xterm_screen.mjs';

// Renders one snapshot record of a Conn (`conn.lastSnapshot`) at the size it announced.
export function renderSnapshot(snapshot) {
  return renderWithXterm(snapshot.bytes, { cols: snapshot.meta.cols, rows: snapshot.meta.rows });
}

// Renders what the window's terminal shows now: the last snapshot plus the live output
// after it, at the attached session's current size. With a bounded Conn (keepBytes) only
// the retained tail is rendered; `truncated` says so (then only the visible rows of simple
// output can be trusted, not scrollback).
export async function renderWindow(conn) {
  const { cols, rows } = conn.size;
  const screen = await renderWithXterm(conn.screenStream(), { cols, rows });
  return { ...screen, truncated: conn.screenTruncated };
}

// The parts of a rendered screen that must match between two windows on one session.
export function visibleState(screen) {
  return { lines: screen.lines, cursor: screen.cursor, altScreen: screen.altScreen };
}
