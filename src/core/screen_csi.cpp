// The engine's CSI, OSC and DCS sequences: cursor addressing, erasing, inserting and
// deleting, scrolling, tab stops, modes (the alternate screens among them), SGR, queries
// and their replies, titles, the working directory and hyperlinks. Each follows the
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

std::uint32_t update_color(std::uint32_t color, int mode, int c1, int c2, int c3) {
  if (mode == 2) {
    return kColorRgb | (static_cast<std::uint32_t>(c1 & 0xFF) << 16) |
           (static_cast<std::uint32_t>(c2 & 0xFF) << 8) | static_cast<std::uint32_t>(c3 & 0xFF);
  }
  if (mode == 5) return kColorPalette256 | static_cast<std::uint32_t>(c1 & 0xFF);
  return color;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
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

void Screen::set_alternate(bool on, bool save_restore) {
  if (on) {
    if (save_restore) save_cursor();
    if (alternate_screen()) return;
    alt_ = std::make_unique<Buffer>(size_);
    for (int row = 0; row < size_.rows; ++row) alt_->grid.erase_row(row, erase_pen());
    alt_->grid.set_stamp(changes_.next_seq());
    alt_->x = primary_.x;
    alt_->y = primary_.y;
    active_buffer_ = alt_.get();
    active_ = &alt_->grid;
    changes_.replace();
    return;
  }
  if (alternate_screen()) {
    primary_.x = alt_->x;
    primary_.y = alt_->y;
    active_buffer_ = &primary_;
    active_ = &primary_.grid;
    alt_.reset();
    changes_.replace();
  }
  if (save_restore) restore_cursor();
}

void Screen::set_mode(const VtParams& params, bool private_mode, bool on) {
  for (int i = 0; i < params.size(); ++i) {
    int mode = params[i];
    if (!private_mode) {
      if (mode == 4) modes_.insert = on;
      if (mode == 20) modes_.newline = on;
      continue;
    }
    switch (mode) {
      case 1:
        modes_.application_cursor = on;
        break;
      case 2:
        if (on)
          for (int g = 0; g < 4; ++g) set_charset(g, 'B');
        break;
      case 12:
        cursor_blink_option_ = on;
        break;
      case 5:
        modes_.reverse_video = on;
        break;
      case 6:
        modes_.origin = on;
        set_cursor(0, 0);
        break;
      case 7:
        modes_.autowrap = on;
        break;
      case 45:
        modes_.reverse_wraparound = on;
        break;
      case 66:
        modes_.application_keypad = on;
        break;
      case 9:
      case 1000:
      case 1002:
      case 1003:
        modes_.mouse_tracking = on ? mode : 0;
        break;
      case 1004:
        modes_.focus_reporting = on;
        break;
      case 1006:
      case 1016:
        modes_.mouse_encoding = on ? mode : 0;
        break;
      case 25:
        cursor_hidden_ = !on;
        break;
      case 1048:
        if (on)
          save_cursor();
        else
          restore_cursor();
        break;
      case 1049:
        set_alternate(on, true);
        break;
      case 47:
      case 1047:
        set_alternate(on, false);
        break;
      case 2004:
        modes_.bracketed_paste = on;
        break;
      case 2026:
        modes_.synchronized_output = on;
        break;
      default:
        break;
    }
  }
}

void Screen::report_mode(const VtParams& params, bool private_mode) {
  enum : int { kUnknown = 0, kSet = 1, kReset = 2, kAlwaysSet = 3, kAlwaysReset = 4 };
  int p = params[0];
  auto answer = [&](int value) {
    reply("\x1b[" + std::string(private_mode ? "?" : "") + std::to_string(p) + ";" +
          std::to_string(value) + "$y");
  };
  auto flag = [](bool v) { return v ? kSet : kReset; };
  if (!private_mode) {
    if (p == 2) return answer(kAlwaysReset);
    if (p == 4) return answer(flag(modes_.insert));
    if (p == 12) return answer(kAlwaysSet);
    if (p == 20) return answer(flag(modes_.newline));
    return answer(kUnknown);
  }
  switch (p) {
    case 1:
      return answer(flag(modes_.application_cursor));
    case 6:
      return answer(flag(modes_.origin));
    case 7:
      return answer(flag(modes_.autowrap));
    case 8:
      return answer(kAlwaysSet);
    case 9:
    case 1000:
    case 1002:
    case 1003:
      return answer(flag(modes_.mouse_tracking == p));
    case 12:
      return answer(flag(cursor_blink_option_));
    case 25:
      return answer(flag(!cursor_hidden_));
    case 45:
      return answer(flag(modes_.reverse_wraparound));
    case 66:
      return answer(flag(modes_.application_keypad));
    case 67:
    case 1005:
    case 1015:
      return answer(kAlwaysReset);
    case 1004:
      return answer(flag(modes_.focus_reporting));
    case 1006:
    case 1016:
      return answer(flag(modes_.mouse_encoding == p));
    case 1048:
      return answer(kSet);
    case 47:
    case 1047:
    case 1049:
      return answer(flag(alternate_screen()));
    case 2004:
      return answer(flag(modes_.bracketed_paste));
    case 2026:
      return answer(flag(modes_.synchronized_output));
    default:
      return answer(kUnknown);
  }
}

// SGR, as xterm.js's charAttributes: colours in both the ';' and the ':' forms (parsed
// exactly as xterm.js parses them), underline styles 4:0-4:5 and their colour (58/59).
void Screen::apply_sgr(const VtParams& params) {
  StyleExtra extra = extras_[pen_.extra];
  auto sgr0 = [&] {
    pen_.fg = kColorDefault;
    pen_.bg = kColorDefault;
    pen_.flags = 0;
    extra.underline_color = kColorDefault;
  };
  auto set_underline = [&](int style) {
    if (style < 0 || style > 5) style = 1;
    pen_.flags = static_cast<std::uint16_t>((pen_.flags & ~unsigned{kUnderlineMask}) |
                                            (static_cast<unsigned>(style) << kUnderlineShift));
  };
  auto on = [&](std::uint16_t bit) { pen_.flags |= bit; };
  auto off = [&](std::uint16_t bit) { pen_.flags &= static_cast<std::uint16_t>(~bit); };
  if (params.size() == 1 && params[0] == 0) {
    sgr0();
    set_extra(extra);
    return;
  }
  for (int i = 0; i < params.size(); ++i) {
    int p = params[i];
    if (p >= 30 && p <= 37) {
      pen_.fg = kColorPalette16 | static_cast<std::uint32_t>(p - 30);
    } else if (p >= 40 && p <= 47) {
      pen_.bg = kColorPalette16 | static_cast<std::uint32_t>(p - 40);
    } else if (p >= 90 && p <= 97) {
      pen_.fg = kColorPalette16 | static_cast<std::uint32_t>(p - 90 + 8);
    } else if (p >= 100 && p <= 107) {
      pen_.bg = kColorPalette16 | static_cast<std::uint32_t>(p - 100 + 8);
    } else if (p == 38 || p == 48 || p == 58) {
      // xterm.js's _extractColor, step for step. Its JavaScript array grows when a write
      // lands past the six slots it reads (the colour space can shift a write by one), so
      // here the array has room for every write it can make, and only slots 0-5 are read.
      int accu[16] = {0, 0, -1, 0, 0, 0};
      auto put = [&accu](int at, int value) {
        if (at >= 0 && at < 16) accu[at] = value;
      };
      int space = 0;
      int advance = 0;
      do {
        put(advance + space, params[i + advance]);
        if (params.has_subs(i + advance)) {
          auto subs = params.subs(i + advance);
          std::size_t k = 0;
          do {
            if (accu[1] == 5) space = 1;
            put(advance + static_cast<int>(k) + 1 + space, subs[k]);
          } while (++k < subs.size() && static_cast<int>(k) + advance + 1 + space < 6);
          break;
        }
        if ((accu[1] == 5 && advance + space >= 2) || (accu[1] == 2 && advance + space >= 5)) break;
        if (accu[1] != 0) space = 1;
      } while (++advance + i < params.size() && advance + space < 6);
      for (int k = 2; k < 6; ++k)
        if (accu[k] == -1) accu[k] = 0;
      if (accu[0] == 38) pen_.fg = update_color(pen_.fg, accu[1], accu[3], accu[4], accu[5]);
      if (accu[0] == 48) pen_.bg = update_color(pen_.bg, accu[1], accu[3], accu[4], accu[5]);
      if (accu[0] == 58)
        extra.underline_color =
            update_color(extra.underline_color, accu[1], accu[3], accu[4], accu[5]);
      i += advance;
    } else {
      switch (p) {
        case 0:
          sgr0();
          break;
        case 1:
          on(kBold);
          break;
        case 2:
          on(kFaint);
          break;
        case 3:
          on(kItalic);
          break;
        case 4:
          set_underline(params.has_subs(i) ? params.subs(i)[0] : 1);
          break;
        case 5:
          on(kBlink);
          break;
        case 7:
          on(kInverse);
          break;
        case 8:
          on(kInvisible);
          break;
        case 9:
          on(kStrike);
          break;
        case 21:
          set_underline(2);
          break;
        case 22:
          off(kBold | kFaint);
          break;
        case 23:
          off(kItalic);
          break;
        case 24:
          set_underline(0);
          break;
        case 25:
          off(kBlink);
          break;
        case 27:
          off(kInverse);
          break;
        case 28:
          off(kInvisible);
          break;
        case 29:
          off(kStrike);
          break;
        case 39:
          pen_.fg = kColorDefault;
          break;
        case 49:
          pen_.bg = kColorDefault;
          break;
        case 53:
          on(kOverline);
          break;
        case 55:
          off(kOverline);
          break;
        case 59:
          // xterm.js 6 stores -1 here, which it then reads as RGB white.
          extra.underline_color = kColorRgb | 0xFFFFFFu;
          break;
        default:
          break;
      }
    }
  }
  set_extra(extra);
}

void Screen::set_extra(StyleExtra extra) {
  pen_.extra = extra == StyleExtra{} ? 0 : intern_extra(extra);
}

std::uint16_t Screen::intern_extra(const StyleExtra& extra) {
  for (std::size_t i = extras_.size(); i-- > 1;)
    if (extras_[i] == extra) return static_cast<std::uint16_t>(i);
  if (extras_.size() >= kMaxExtras) collect_extras();
  if (extras_.size() >= kMaxExtras) return 0;  // every one still in use: drop it
  extras_.push_back(extra);
  return static_cast<std::uint16_t>(extras_.size() - 1);
}

std::uint32_t Screen::intern_link(Hyperlink link) {
  for (std::size_t i = links_.size(); i-- > 1;)
    if (links_[i] == link) return static_cast<std::uint32_t>(i);
  if (links_.size() >= kMaxExtras) collect_extras();
  if (links_.size() >= kMaxExtras) return 0;
  links_.push_back(std::move(link));
  return static_cast<std::uint32_t>(links_.size() - 1);
}

// Drops the extras and links no cell or pen refers to any more (the scrollback holds
// its links as text), renumbering the rest.
void Screen::collect_extras() {
  std::vector<std::uint16_t> extra_map(extras_.size(), 0);
  std::vector<std::uint32_t> link_map(links_.size(), 0);
  std::vector<StyleExtra> extras{StyleExtra{}};
  std::vector<Hyperlink> links{Hyperlink{}};
  auto keep = [&](std::uint16_t& ref) {
    if (ref == 0 || ref >= extra_map.size()) return;
    if (extra_map[ref] == 0) {
      StyleExtra e = extras_[ref];
      if (e.link != 0) {
        if (link_map[e.link] == 0) {
          link_map[e.link] = static_cast<std::uint32_t>(links.size());
          links.push_back(links_[e.link]);
        }
        e.link = link_map[e.link];
      }
      extra_map[ref] = static_cast<std::uint16_t>(extras.size());
      extras.push_back(e);
    }
    ref = extra_map[ref];
  };
  auto keep_grid = [&](CellGrid& g) {
    for (int row = 0; row < g.rows(); ++row)
      for (Cell& c : g.line(row).cells) keep(c.style.extra);
  };
  keep_grid(primary_.grid);
  if (alt_) keep_grid(alt_->grid);
  keep(pen_.extra);
  keep(primary_.saved.pen.extra);
  keep(alt_saved_.pen.extra);
  extras_ = std::move(extras);
  links_ = std::move(links);
}

void Screen::set_hyperlink(std::string_view data) {
  std::size_t semi = data.find(';');
  if (semi == std::string_view::npos) return;
  std::string_view params = trim(data.substr(0, semi));
  std::string_view uri = data.substr(semi + 1);
  StyleExtra extra = extras_[pen_.extra];
  if (!uri.empty()) {
    Hyperlink link{{}, std::string(uri)};
    std::size_t start = 0;
    while (start <= params.size()) {
      std::size_t end = params.find(':', start);
      if (end == std::string_view::npos) end = params.size();
      std::string_view part = params.substr(start, end - start);
      if (part.starts_with("id=")) {
        link.id = std::string(part.substr(3));
        break;
      }
      start = end + 1;
    }
    extra.link = intern_link(std::move(link));
  } else if (!params.empty()) {
    return;
  } else {
    extra.link = 0;
  }
  set_extra(extra);
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
