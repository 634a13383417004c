// wharf's terminal engine: the server's model of one session's terminal, fed every byte
// its program writes. It is what makes reattaching exact: a window that arrives late, or
// fell behind, gets snapshot(), a byte stream that recreates the terminal as it is now
// (recent scrollback, the primary screen and the alternate one when a program uses it,
// every cell's look and link, the cursor with its pending wrap, the saved cursors, tab
// stops, charsets, scroll region, modes and title) instead of a replay of old output.
//
// It is held cell by cell to xterm.js, the page's own emulator (same parser table, same
// widths with the Unicode 11 addon, the same rules for wide characters, combining marks,
// wrapping and erasing), so that server and page agree on every cell; docs/engine.md
// lists the few places it knowingly differs and why. Bytes go through VtParser once;
// plain text runs are written into the row in bulk.
//
// Resizing the primary screen reflows it: soft-wrapped lines (on screen and in the
// scrollback) are rewrapped to the new width and the cursor stays on its character, so
// no text is lost by a resize. The alternate screen keeps its top-left cells (full-screen
// programs redraw).
//
// Invariants: no I/O; every input is accepted, in time linear in its length, and memory
// stays bounded (the scrollback by its byte bound, strings and parameters by the parser's
// caps, clusters by kMaxClusterLength, links and underline colours by kMaxExtras); replies
// the terminal owes the program (device attributes, cursor position, mode, status and
// colour reports) are collected and handed out once by take_replies(), so a query is
// answered exactly once however many windows watch. The alternate screen is allocated
// only while a program uses it.
//
// Readers that poll the screen as text can ask for only what changed: change_seq()
// numbers the visible screen's states, and changes_since(seq) gives the rows that changed
// since a state a previous read saw, after how far the whole screen scrolled up. The
// number advances when a feed or resize changes cells on show, when the alternate screen
// is switched and on a reset.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/cell.hpp"
#include "core/cell_grid.hpp"
#include "core/change_log.hpp"
#include "core/terminal_size.hpp"
#include "core/vt_parser.hpp"

namespace wharf::core {

// Input modes a program sets that change what the terminal sends it, and the modes a
// snapshot restores.
struct InputModes {
  bool application_cursor = false;   // DECCKM
  bool application_keypad = false;   // DECKPAM / DECNKM
  bool bracketed_paste = false;      // 2004
  bool focus_reporting = false;      // 1004
  int mouse_tracking = 0;            // 0, 9, 1000, 1002 or 1003
  int mouse_encoding = 0;            // 0, 1006 (SGR) or 1016 (SGR pixels)
  bool origin = false;               // DECOM
  bool autowrap = true;              // DECAWM
  bool insert = false;               // IRM
  bool newline = false;              // LNM (20): LF also returns the carriage
  bool reverse_wraparound = false;   // 45
  bool synchronized_output = false;  // 2026
  bool reverse_video = false;        // DECSCNM (5); xterm.js does not draw it
  int scroll_top = 0;                // DECSTBM, 0-based inclusive
  int scroll_bottom = -1;            // -1 until set: the last row
};

// How far lone zero-width marks printed at the margin can push the cursor past it.
inline constexpr int kMaxPastMargin = 1 << 16;

struct CursorState {
  int row = 0;  // 0-based, on the visible screen
  // 0..cols: cols means a character was just written in the last column. Lone marks
  // printed there push it further, as in xterm.js (up to cols + kMaxPastMargin).
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
  bool full = true;       // every visible row is in `lines`
  std::uint64_t scrolled = 0;  // when !full: lines the whole screen moved up, < rows
  std::vector<std::pair<int, std::string>> lines;  // (row, plain text), ascending row
  bool alternate_screen = false;
};

inline constexpr std::size_t kDefaultScrollbackBytes = 1 << 20;
// The page's scrollback (xterm.js's own count of lines above the screen decides where a
// saved cursor lands after scrolling, so the engine counts the same way).
inline constexpr int kPageScrollbackLines = 2000;
inline constexpr std::size_t kMaxExtras = 4096;

enum class CursorShape : std::uint8_t { kDefault, kBlock, kUnderline, kBar };

class Screen final : private VtHandler {
 public:
  // `first_seq` numbers the screen's first state (change_seq()): the app starts each
  // screen from the clock, so a `since` kept from an earlier daemon's screen of the same
  // session id is older than this screen and gets a full answer, never a wrong diff.
  explicit Screen(TerminalSize size, std::size_t scrollback_bytes = kDefaultScrollbackBytes,
                  std::uint64_t first_seq = 1);
  ~Screen() override;
  Screen(const Screen&) = delete;
  Screen& operator=(const Screen&) = delete;

  void feed(std::string_view bytes);
  void resize(TerminalSize size);
  // Bytes the terminal answers the program with since the last call.
  std::string take_replies();

  // Recreates the current state on a freshly reset terminal of the same size: at most
  // `scrollback_lines` lines of scrollback, then both screens, cursor, modes and title.
  std::string snapshot(std::size_t scrollback_lines = SIZE_MAX) const;
  ScreenText text(std::size_t scrollback_lines = 0) const;
  std::uint64_t change_seq() const { return changes_.seq(); }
  ScreenChanges changes_since(std::uint64_t since) const;

  TerminalSize size() const { return size_; }
  CursorState cursor() const;
  const std::string& title() const { return title_; }
  // BEL controls executed so far (not the BEL that ends an OSC string): the notifier
  // hears a program with no hooks ring for its person (app/notifier.hpp).
  std::uint64_t bells() const { return bells_; }
  const std::string& cwd() const { return cwd_; }  // OSC 7, as the program sent it
  bool alternate_screen() const { return alt_ != nullptr && active_ == &alt_->grid; }
  const InputModes& modes() const { return modes_; }
  CursorShape cursor_shape() const { return cursor_shape_; }
  bool cursor_blink() const { return cursor_blink_; }
  std::size_t scrollback_lines() const { return scrollback_.size(); }
  std::size_t scrollback_bytes() const { return scrollback_bytes_; }
  std::uint64_t scrollback_dropped() const { return scrollback_dropped_; }
  std::uint64_t bytes_fed() const { return bytes_fed_; }

  // The cells on show and the primary screen's, with what their styles refer to.
  const CellGrid& grid() const { return *active_; }
  const CellGrid& primary_grid() const { return primary_.grid; }
  StyleExtra extra(const Style& style) const { return extras_[style.extra]; }
  const Hyperlink& link(std::uint32_t index) const { return links_[index]; }
  // Scrollback rows decoded back into cells (oldest first), for tests and reflow.
  std::vector<Line> scrollback_cells(std::size_t count) const;

 private:
  // A saved cursor (DECSC / SCOSC / 1048 / 1049), kept per screen as xterm.js does.
  struct SavedCursor {
    int x = 0;
    int y = 0;  // counted from the top of the scrollback xterm.js would hold (ybase + y)
    Style pen;
    bool has_extended = false;  // the pen had an underline, underline colour or link
    char charset = 'B';         // the set in use, not the designations
  };
  struct Buffer {
    explicit Buffer(TerminalSize size);
    CellGrid grid;
    int x = 0;
    int y = 0;
    int scroll_top = 0;
    int scroll_bottom = 0;
    std::vector<bool> tabs;
    SavedCursor saved;
  };
  struct ScrollbackRow {
    std::string bytes;            // the row drawn from column 1 in the default pen (see render)
    bool wrapped = false;         // continues the row before it
    bool ends_at_margin = false;  // drawing it leaves the cursor past the last column
  };

  // VtHandler
  void print_ascii(std::string_view run) override;
  void print(std::span<const char32_t> run) override;
  void execute(char32_t code) override;
  void esc_dispatch(VtCollect collect, char final_byte) override;
  void csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) override;
  void osc_end(std::string_view payload, bool complete) override;
  void dcs_end(const VtParams& params, VtCollect collect, char final_byte, std::string_view payload,
               bool complete) override;

  // screen.cpp: printing and cursor movement
  Buffer& buf() { return *active_buffer_; }
  const Buffer& buf() const { return *active_buffer_; }
  void print_code(char32_t code, Line*& row);
  void begin_text();
  void end_text();
  void wrap_to_next_row();
  bool down_a_row();
  void line_feed();
  void index();
  void reverse_index();
  void carriage_return() { buf().x = 0; }
  void backspace();
  void tab();
  void restrict_cursor(int max_col = -1);
  void set_cursor(int x, int y);
  void move_cursor(int dx, int dy);
  void scroll(bool wrapped);  // one line up in the scroll region (into scrollback at top)
  void push_scrollback(const Line& line);
  void trim_scrollback();
  void save_cursor();
  void restore_cursor();
  void set_charset(int g, char designator);
  void set_gl(int g);
  void full_reset();
  void soft_reset();
  void reset_tabs(Buffer& b, int from = 0);
  Style erase_pen() const { return erase_style(pen_); }
  int ybase() const { return active_buffer_ == &primary_ ? ybase_ : 0; }

  // screen_csi.cpp: CSI, modes, SGR, OSC, DCS
  void set_mode(const VtParams& params, bool private_mode, bool on);
  void set_alternate(bool on, bool save_restore);
  void report_mode(const VtParams& params, bool private_mode);
  void erase_in_display(int mode, bool selective);
  void erase_in_line(int mode, bool selective);
  void apply_sgr(const VtParams& params);
  void set_extra(StyleExtra extra);
  std::uint16_t intern_extra(const StyleExtra& extra);
  std::uint32_t intern_link(Hyperlink link);
  void collect_extras();
  void set_hyperlink(std::string_view data);
  void reply(std::string_view bytes) { replies_.append(bytes); }

  // screen_snapshot.cpp
  // Appends the bytes that draw `line` from its first column in the default pen to
  // `bytes`; returns whether drawing it leaves the cursor past the last column.
  bool render_row(const Line& line, bool keep_trailing, std::string& bytes) const;
  void render_screen(const Buffer& b, std::string& out) const;
  void draw_fixups(const Buffer& b, const std::vector<int>& rows, std::string& out) const;
  // Tab stops and saved cursor of a screen; with via_1049 the saved cursor is set by
  // switching to the alternate screen with 1049.
  void render_state(const Buffer& b, bool via_1049, std::string& out) const;
  static std::string line_text(const Line& line);

  // screen_reflow.cpp
  void resize_rows(Buffer& b, int rows, bool with_scrollback);
  void reflow_primary(TerminalSize size);
  // Decodes a rendered row; its underline colours and links are interned into `tables`
  // (none kept when null).
  Line decode_row(const std::string& bytes, int cols, Screen* tables) const;
  Line import_line(const Screen& from, const Line& line);

  // Ends a feed or resize: a new state number if anything on show changed.
  void commit_changes();

  TerminalSize size_;
  std::size_t scrollback_limit_;
  VtParser parser_;
  Buffer primary_;
  std::unique_ptr<Buffer> alt_;
  Buffer* active_buffer_ = &primary_;
  CellGrid* active_ = &primary_.grid;
  SavedCursor alt_saved_;  // the alternate screen's saved cursor outlives its grid
  InputModes modes_;
  Style pen_;
  std::array<char, 4> charsets_{'B', 'B', 'B', 'B'};
  int gl_ = 0;
  char active_charset_ = 'B';         // what GL maps through; DECRC can set it apart from G0-G3
  bool in_text_ = false;              // inside a run of printed text (see begin_text)
  bool cursor_blink_option_ = false;  // mode 12
  int join_width_ = 0;  // width of the last printed cell a combining mark may join (0: none)
  int ybase_ = 0;       // lines xterm.js would hold above the primary screen
  bool cursor_hidden_ = false;
  bool cursor_blink_ = false;
  CursorShape cursor_shape_ = CursorShape::kDefault;
  std::string title_;
  std::uint64_t bells_ = 0;
  std::string icon_;
  std::string cwd_;
  std::string replies_;
  std::vector<StyleExtra> extras_{StyleExtra{}};
  std::vector<Hyperlink> links_{Hyperlink{}};
  std::deque<ScrollbackRow> scrollback_;
  std::size_t scrollback_bytes_ = 0;
  std::uint64_t scrollback_dropped_ = 0;
  std::uint64_t bytes_fed_ = 0;
  std::vector<char32_t> rep_;  // REP's scratch
  ChangeLog changes_;
};

// Removes the escape sequences a rendered row carries, leaving its text.
std::string strip_sgr(std::string_view rendered);

}  // namespace wharf::core
