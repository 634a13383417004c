// The engine's CSI, OSC and DCS sequences: cursor addressing, erasing, inserting and
// deleting, scrolling, tab stops, queries and their replies, titles and the working
// directory (modes: screen_modes.cpp; SGR and links: screen_sgr.cpp). Each follows the
// matching xterm.js InputHandler method; counts are clamped first, since no screen is
// larger than kMaxCols x kMaxRows and a count past that changes nothing more.
#include <algorithm>
#include <string>

#include "core/screen.hpp"
#include "core/utf8.hpp"

namespace wharf::core {
namespace {

// Colours wharf reports when a program asks (OSC 10/11/12); they match the page's
// theme so that programs picking light or dark styles choose dark.
constexpr std::string_view kForegroundReport = "rgb:d6d6/dada/e0e0";
constexpr std::string_view kBackgroundReport = "rgb:0e0e/1111/1616";
constexpr std::size_t kMaxTitleBytes = 256;
constexpr int kMaxCount = 1 << 16;
constexpr int kMaxRepeat = 1 << 16;  // REP's characters: more would only scroll the same line

// Printable text, at most kMaxTitleBytes, cut on a character boundary (the payload is
// valid UTF-8: the parser re-encodes what it decoded).
std::string sanitize_title(std::string_view raw) {
  std::string out;
  for (char ch : raw) {
    if (out.size() >= kMaxTitleBytes) break;
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) out.push_back(ch);
  }
  out.resize(out.size() - utf8_incomplete_tail(out));
  return out;
}

}  // namespace

void Screen::csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) {
  end_text();
  const int join = join_width_;
  join_width_ = 0;
  Buffer& b = buf();
  CellGrid& g = *active_;
  const int cols = size_.cols;
  const int rows = size_.rows;
  // The first parameter as a count (0 reads 1), clamped.
  const int n = std::min(params.get(0, 1), kMaxCount);
  const int p0 = std::min(params[0], kMaxCount);

  if (collect == 0) {
    switch (final_byte) {
      case '@':
        restrict_cursor();
        g.insert_cells(b.y, b.x, n, erase_pen());
        return;
      case 'A': {
        int to_top = b.y - b.scroll_top;
        move_cursor(0, -(to_top >= 0 ? std::min(to_top, n) : n));
        return;
      }
      case 'B': {
        int to_bottom = b.scroll_bottom - b.y;
        move_cursor(0, to_bottom >= 0 ? std::min(to_bottom, n) : n);
        return;
      }
      case 'C':
      case 'a':
        move_cursor(n, 0);
        return;
      case 'D':
        move_cursor(-n, 0);
        return;
      case 'E': {
        int to_bottom = b.scroll_bottom - b.y;
        move_cursor(0, to_bottom >= 0 ? std::min(to_bottom, n) : n);
        b.x = 0;
        return;
      }
      case 'F': {
        int to_top = b.y - b.scroll_top;
        move_cursor(0, -(to_top >= 0 ? std::min(to_top, n) : n));
        b.x = 0;
        return;
      }
      case 'G':
      case '`':
        set_cursor(n - 1, b.y);  // under origin mode xterm.js offsets the row here too
        return;
      case 'H':
      case 'f':
        set_cursor(params.size() >= 2 ? std::min(params.get(1, 1), kMaxCount) - 1 : 0, n - 1);
        return;
      case 'I':
        if (b.x >= cols) return;
        for (int i = 0; i < std::min(n, cols); ++i) tab();
        return;
      case 'J':
        erase_in_display(p0, false);
        return;
      case 'K':
        erase_in_line(p0, false);
        return;
      case 'L':
      case 'M':
        restrict_cursor();
        if (b.y > b.scroll_bottom || b.y < b.scroll_top) return;
        if (final_byte == 'L')
          g.scroll_down(b.y, b.scroll_bottom, std::min(n, rows), erase_pen());
        else
          g.scroll_up(b.y, b.scroll_bottom, std::min(n, rows), erase_pen());
        b.x = 0;
        return;
      case 'P':
        restrict_cursor();
        g.delete_cells(b.y, b.x, n, erase_pen());
        return;
      case 'S':
        g.scroll_up(b.scroll_top, b.scroll_bottom, std::min(n, rows), erase_pen());
        return;
      case 'T':
        g.scroll_down(b.scroll_top, b.scroll_bottom, std::min(n, rows), Style{});
        return;
      case 'X':
        restrict_cursor();
        g.erase_cells(b.y, b.x, b.x + n, erase_pen());
        return;
      case 'Z':
        if (b.x >= cols) return;
        for (int i = 0; i < std::min(n, cols); ++i) {
          int x = b.x;
          while (--x > 0 && !b.tabs[static_cast<std::size_t>(x)]) {
          }
          b.x = x >= cols ? cols - 1 : std::max(x, 0);
        }
        return;
      case 'b': {  // REP: the last printed character again
        if (join == 0) return;
        int x = b.x - join;
        if (x < 0 || x >= cols) return;
        std::u32string text;
        g.chars(b.y, g.cell(b.y, x), text);
        if (text.empty()) return;
        rep_.clear();
        std::size_t total =
            std::min<std::size_t>(static_cast<std::size_t>(n) * text.size(), kMaxRepeat);
        for (std::size_t i = 0; i < total; ++i) rep_.push_back(text[i % text.size()]);
        join_width_ = join;
        print(std::span<const char32_t>(rep_.data(), rep_.size()));
        join_width_ = 0;
        return;
      }
      case 'c':
        if (params[0] <= 0) reply("\x1b[?1;2c");
        return;
      case 'd':
        set_cursor(b.x, n - 1);
        return;
      case 'e':
        move_cursor(0, n);
        return;
      case 'g':
        if (params[0] == 0 && b.x < cols) b.tabs[static_cast<std::size_t>(b.x)] = false;
        if (params[0] == 3) std::fill(b.tabs.begin(), b.tabs.end(), false);
        return;
      case 'h':
      case 'l':
        set_mode(params, false, final_byte == 'h');
        return;
      case 'm':
        apply_sgr(params);
        return;
      case 'n':
        if (params[0] == 5) reply("\x1b[0n");
        if (params[0] == 6)
          reply("\x1b[" + std::to_string(b.y + 1) + ";" + std::to_string(b.x + 1) + "R");
        return;
      case 'r': {
        int top = params.get(0, 1);
        int bottom = params[1];
        if (params.size() < 2 || bottom > rows || bottom == 0) bottom = rows;
        if (bottom > top) {
          b.scroll_top = top - 1;
          b.scroll_bottom = bottom - 1;
          set_cursor(0, 0);
        }
        return;
      }
      case 's':
        save_cursor();
        return;
      case 't':
        // Window operations are off in the page (xterm.js's default); only the size in
        // characters is reported, which reveals nothing the program cannot ask the PTY.
        if (params[0] == 18)
          reply("\x1b[8;" + std::to_string(rows) + ";" + std::to_string(cols) + "t");
        return;
      case 'u':
        restore_cursor();
        return;
      default:
        return;
    }
  }

  switch (collect) {
    case ' ':
      if (final_byte == '@' || final_byte == 'A') {  // SL / SR
        if (b.y > b.scroll_bottom || b.y < b.scroll_top) return;
        for (int row = b.scroll_top; row <= b.scroll_bottom; ++row) {
          if (final_byte == '@')
            g.delete_cells(row, 0, n, erase_pen());
          else
            g.insert_cells(row, 0, n, erase_pen());
          g.set_wrapped(row, false);
        }
      } else if (final_byte == 'q') {  // DECSCUSR
        int style = params[0];
        if (style == 0) {
          cursor_shape_ = CursorShape::kDefault;
          cursor_blink_ = false;
        } else {
          if (style == 1 || style == 2) cursor_shape_ = CursorShape::kBlock;
          if (style == 3 || style == 4) cursor_shape_ = CursorShape::kUnderline;
          if (style == 5 || style == 6) cursor_shape_ = CursorShape::kBar;
          cursor_blink_ = style % 2 == 1;
        }
      }
      return;
    case '?':
      if (final_byte == 'J') erase_in_display(p0, true);
      if (final_byte == 'K') erase_in_line(p0, true);
      if (final_byte == 'h' || final_byte == 'l') set_mode(params, true, final_byte == 'h');
      if (final_byte == 'n' && params[0] == 6)
        reply("\x1b[?" + std::to_string(b.y + 1) + ";" + std::to_string(b.x + 1) + "R");
      return;
    case '>':
      if (final_byte == 'c' && params[0] <= 0) reply("\x1b[>0;276;0c");
      return;
    case '!':
      if (final_byte == 'p') soft_reset();
      return;
    case '$':
      if (final_byte == 'p') report_mode(params, false);
      return;
    case vt_collect("?$"):
      if (final_byte == 'p') report_mode(params, true);
      return;
    case '\'':
      if (final_byte == '}' || final_byte == '~') {  // DECIC / DECDC
        if (b.y > b.scroll_bottom || b.y < b.scroll_top) return;
        for (int row = b.scroll_top; row <= b.scroll_bottom; ++row) {
          if (final_byte == '}')
            g.insert_cells(row, b.x, n, erase_pen());
          else
            g.delete_cells(row, b.x, n, erase_pen());
          g.set_wrapped(row, false);
        }
      }
      return;
    case '"':
      if (final_byte == 'q') {  // DECSCA
        if (params[0] == 1) pen_.flags |= kProtected;
        if (params[0] == 2 || params[0] == 0) pen_.flags &= static_cast<std::uint16_t>(~kProtected);
      }
      return;
    default:
      return;
  }
}

void Screen::erase_in_display(int mode, bool selective) {
  Buffer& b = buf();
  CellGrid& g = *active_;
  restrict_cursor(size_.cols);
  switch (mode) {
    case 0:
      erase_in_line(0, selective);  // the cursor's row from the cursor on
      for (int row = b.y + 1; row < size_.rows; ++row) g.erase_row(row, erase_pen(), selective);
      break;
    case 1:
      erase_in_line(1, selective);  // the cursor's row up to the cursor
      g.set_wrapped(b.y, false);
      // xterm.js clears the wrap of line y + 1 counted from the top of its buffer, which
      // is that screen row only while nothing has scrolled off.
      if (b.x + 1 >= size_.cols && ybase() == 0 && b.y + 1 < size_.rows)
        g.set_wrapped(b.y + 1, false);
      for (int row = b.y - 1; row >= 0; --row) g.erase_row(row, erase_pen(), selective);
      break;
    case 2:
      for (int row = 0; row < size_.rows; ++row) g.erase_row(row, erase_pen(), selective);
      break;
    case 3:
      if (active_buffer_ == &primary_) {
        scrollback_.clear();
        scrollback_bytes_ = 0;
        ybase_ = 0;
      }
      break;
    default:
      break;
  }
}

void Screen::erase_in_line(int mode, bool selective) {
  Buffer& b = buf();
  CellGrid& g = *active_;
  restrict_cursor(size_.cols);
  switch (mode) {
    case 0:
      g.erase_cells(b.y, b.x, size_.cols, erase_pen(), selective);
      if (b.x == 0) g.set_wrapped(b.y, false);
      break;
    case 1:
      g.erase_cells(b.y, 0, b.x + 1, erase_pen(), selective);
      break;
    case 2:
      g.erase_cells(b.y, 0, size_.cols, erase_pen(), selective);
      g.set_wrapped(b.y, false);
      break;
    default:
      break;
  }
}

void Screen::osc_end(std::string_view payload, bool complete) {
  end_text();
  join_width_ = 0;
  if (!complete) return;
  std::size_t semi = payload.find(';');
  std::string_view number = payload.substr(0, semi);
  std::string_view data = semi == std::string_view::npos ? "" : payload.substr(semi + 1);
  if (number.empty() || number.size() > 6) return;
  int id = 0;
  for (char c : number) {
    if (c < '0' || c > '9') return;
    id = id * 10 + (c - '0');
  }
  switch (id) {
    case 0:
      title_ = sanitize_title(data);
      icon_ = title_;
      break;
    case 1:
      icon_ = sanitize_title(data);
      break;
    case 2:
      title_ = sanitize_title(data);
      break;
    case 7:
      cwd_ = sanitize_title(data);
      break;
    case 8:
      set_hyperlink(data);
      break;
    case 10:
    case 11:
    case 12: {
      // One report per "?" slot, starting at the colour the number names.
      int offset = id - 10;
      std::size_t start = 0;
      while (offset < 3 && start <= data.size()) {
        std::size_t end = data.find(';', start);
        if (end == std::string_view::npos) end = data.size();
        if (data.substr(start, end - start) == "?") {
          reply("\x1b]" + std::to_string(10 + offset) + ";" +
                std::string(offset == 1 ? kBackgroundReport : kForegroundReport) + "\x1b\\");
        }
        ++offset;
        start = end + 1;
      }
      break;
    }
    default:
      break;  // OSC 52 (clipboard) and the rest: nothing the screen keeps
  }
}

void Screen::dcs_end(const VtParams&, VtCollect collect, char final_byte, std::string_view payload,
                     bool complete) {
  end_text();
  join_width_ = 0;
  if (!complete || collect != '$' || final_byte != 'q') return;
  // DECRQSS: the setting asked for, as this terminal has it.
  auto answer = [this](std::string_view body) {
    reply("\x1bP1$r");
    reply(body);
    reply("\x1b\\");
  };
  const Buffer& b = buf();
  if (payload == "\"q") return answer((pen_.flags & kProtected) != 0 ? "1\"q" : "0\"q");
  if (payload == "\"p") return answer("61;1\"p");
  if (payload == "r")
    return answer(std::to_string(b.scroll_top + 1) + ";" + std::to_string(b.scroll_bottom + 1) +
                  "r");
  if (payload == "m") return answer("0m");
  if (payload == " q") {
    int style = cursor_shape_ == CursorShape::kUnderline ? 4
                : cursor_shape_ == CursorShape::kBar     ? 6
                                                         : 2;
    return answer(std::to_string(style - (cursor_blink_ ? 1 : 0)) + " q");
  }
  reply("\x1bP0$r\x1b\\");
}

}  // namespace wharf::core
