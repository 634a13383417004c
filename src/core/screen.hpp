// The server's model of one terminal screen, fed every byte a session's program
// writes. It is what makes reattaching exact: a window that arrives late, or fell
// behind, gets snapshot() — a byte stream that recreates the screen as it is now
// (recent scrollback, the primary screen and, when a program uses it, the alternate
// screen, with colours and attributes, the cursor, the title and the input modes) —
// instead of a replay of old output.
//
// libvterm's state layer parses and interprets the bytes (cursor, pen, modes, what to
// draw, erase and scroll); the cells themselves live in wharf's own CellGrid (one for
// each screen), which does what libvterm's screen layer does with them at a fraction of
// its cost (see cell_grid.hpp). Lines scrolled off the top of the primary screen become
// scrollback: rendered text with SGR, bounded in bytes.
//
// Invariants: no I/O; feeding never fails; the scrollback kept here never exceeds its
// byte bound; replies the emulator owes the program (device attributes, cursor
// position, mode and colour reports) are collected and handed out once by
// take_replies(), so a query is answered exactly once however many windows watch.
// libvterm keeps pointers to this object, so a Screen never moves.
//
// Both screens are kept, so a snapshot taken while the alternate screen is on carries
// the primary screen exactly as the program will find it on leaving.
// Known limits (libvterm keeps this state private): custom tab stops, the saved cursor
// (DECSC) and a pending wrap at the right margin are not carried; growing the window does
// not pull lines back from scrollback. Everything visible is exact.
//
// Readers that poll the screen as text (read-screen, agents) can ask for only what changed:
// change_seq() numbers the visible screen's states, and changes_since(seq) gives the rows
// that changed since a state a previous read saw, after how far the whole screen scrolled
// up. The number advances when a feed or resize changes cells on show (characters or
// their attributes; not the cursor, the title or modes), when the alternate screen is
// switched and on a reset. Rows carry the number of their last change (see cell_grid.hpp),
// so the cost while feeding is a store per changed row, not a copy of the screen.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cell_grid.hpp"
#include "core/change_log.hpp"
#include "core/mode_tap.hpp"
#include "core/terminal_size.hpp"

struct VTerm;
struct VTermState;

namespace wharf::core {

class EmulatorGuard;

struct CursorState {
  int row = 0;  // 0-based, on the visible screen
  int col = 0;
  bool visible = true;
};

struct ScreenText {
  std::vector<std::string> scrollback;  // oldest first, plain text
  std::vector<std::string> lines;       // visible rows, trailing blanks trimmed
  CursorState cursor;
  TerminalSize size;
  std::string title;
  bool alternate_screen = false;
};

// What changed on the visible screen since a state a previous read saw. A reader holding
// that state's rows shifts them up by `scrolled` (blank rows come in at the bottom), then
// replaces the rows in `lines`, and has the screen as it is at `seq`.
struct ScreenChanges {
  std::uint64_t seq = 0;  // the state now; pass it as `since` next time (never 0, never reused)
  // Every visible row is in `lines`: `since` was 0, unknown (from the future) or too old,
  // the screen was replaced since (resize, alternate screen switched, reset), or it
  // scrolled by a screenful or more.
  bool full = true;
  std::uint64_t scrolled = 0;  // when !full: lines the whole screen moved up, < rows
  // (row, plain text with trailing blanks trimmed) of the rows that changed, ascending
  // row. A row may be listed with the text the reader has (its colours changed, or it
  // was rewritten and erased between reads), never left out when its text differs.
  std::vector<std::pair<int, std::string>> lines;
  bool alternate_screen = false;
};

inline constexpr std::size_t kDefaultScrollbackBytes = 1 << 20;

class Screen {
 public:
  // `first_seq` numbers the screen's first state (change_seq()): the app starts each
  // screen from the clock, so a `since` kept from an earlier daemon's screen of the same
  // session id is older than this screen and gets a full answer, never a wrong diff.
  explicit Screen(TerminalSize size, std::size_t scrollback_bytes = kDefaultScrollbackBytes,
                  std::uint64_t first_seq = 1);
  ~Screen();
  Screen(const Screen&) = delete;
  Screen& operator=(const Screen&) = delete;

  void feed(std::string_view bytes);
  void resize(TerminalSize size);
  // Bytes the terminal answers the program with since the last call.
  std::string take_replies();

  // Recreates the current state on a fresh terminal of the same size: at most
  // `scrollback_lines` lines of scrollback, then the screen, cursor, title and modes.
  std::string snapshot(std::size_t scrollback_lines = SIZE_MAX) const;
  ScreenText text(std::size_t scrollback_lines = 0) const;
  // The visible screen's state number (see ScreenChanges); starts at 1.
  std::uint64_t change_seq() const { return changes_.seq(); }
  ScreenChanges changes_since(std::uint64_t since) const;

  TerminalSize size() const { return size_; }
  CursorState cursor() const;
  const std::string& title() const { return title_; }
  bool alternate_screen() const { return alternate_screen_; }
  const InputModes& modes() const { return mode_tap_.modes(); }
  std::size_t scrollback_lines() const { return scrollback_.size(); }
  std::size_t scrollback_bytes() const { return scrollback_bytes_; }
  // Lines dropped from the front because of the byte bound.
  std::uint64_t scrollback_dropped() const { return scrollback_dropped_; }
  // Total bytes fed; grows with every feed (a cheap change counter).
  std::uint64_t bytes_fed() const { return bytes_fed_; }

  // The cells on show (the alternate screen's while it is on), and the primary
  // screen's; for tests that compare them with libvterm's own screen layer.
  const CellGrid& grid() const { return *active_; }
  const CellGrid& primary_grid() const { return primary_; }

 private:
  friend struct ScreenHooks;  // libvterm's callbacks (screen.cpp)

  std::string render_row(const CellGrid& grid, int row) const;
  void push_scrollback(int row);  // a primary-screen row about to scroll off the top
  void on_output(const char* bytes, std::size_t len);
  void on_termprop(int prop, const void* value);
  void on_osc(std::string_view command);
  void on_scroll(VTermRect rect, int downward, int rightward);
  void on_resize(int rows, int cols, VTermPos* delta);
  // Ends a feed or resize: a new state number if anything on show changed.
  void commit_changes();

  TerminalSize size_;
  std::size_t scrollback_limit_;
  VTerm* vt_ = nullptr;
  VTermState* state_ = nullptr;
  ModeTap mode_tap_;  // the modes libvterm 0.1.4 follows but does not expose
  std::unique_ptr<EmulatorGuard> emulator_guard_;  // in front of libvterm (see emulator_guard.hpp)
  std::vector<std::size_t> alternate_entries_;     // the guard's report, unused (reused storage)
  CellGrid primary_;
  CellGrid alternate_;
  CellGrid* active_ = &primary_;
  CellPen pen_;  // what putglyph and erase write, as libvterm's state set it
  std::string replies_;
  std::deque<std::string> scrollback_;  // rendered lines (UTF-8 + SGR), oldest first
  std::string scratch_;                 // the line being pushed, rendered
  std::size_t scrollback_bytes_ = 0;
  std::uint64_t scrollback_dropped_ = 0;
  std::uint64_t bytes_fed_ = 0;
  std::string title_;
  bool alternate_screen_ = false;
  bool cursor_visible_ = true;
  bool cursor_blink_ = true;
  int cursor_shape_ = 1;
  bool reverse_video_ = false;
  CursorState primary_cursor_;  // where the cursor was when the alternate screen came on

  // Change tracking (changes_since): the grids stamp rows with changes_.next_seq().
  ChangeLog changes_;
};

// Removes the SGR sequences snapshot lines carry, leaving their text.
std::string strip_sgr(std::string_view rendered);

}  // namespace wharf::core
