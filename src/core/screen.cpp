#include "core/screen.hpp"

#include <vterm.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <utility>

#include "core/cell_render.hpp"
#include "core/emulator_guard.hpp"

namespace wharf::core {
namespace {

using cell_render::append_sgr;
using cell_render::default_pen;
using cell_render::is_default_pen;
using cell_render::Pen;

// Colours wharf reports when a program asks (OSC 10/11/12); they match the page's
// theme so that programs picking light or dark styles choose dark.
constexpr std::string_view kForegroundReport = "rgb:d6d6/dada/e0e0";
constexpr std::string_view kBackgroundReport = "rgb:0e0e/1111/1616";
constexpr std::size_t kMaxTitleBytes = 256;

Screen* self(void* user) {
  return static_cast<Screen*>(user);
}

// Only the bytes that matter are kept, so that pens compare (and render) by value.
VTermColor normalised(const VTermColor& color) {
  VTermColor out{};
  out.type = color.type;
  if (VTERM_COLOR_IS_DEFAULT_FG(&color) || VTERM_COLOR_IS_DEFAULT_BG(&color)) return out;
  if (VTERM_COLOR_IS_INDEXED(&color)) {
    out.indexed.idx = color.indexed.idx;
  } else {
    out.rgb.red = color.rgb.red;
    out.rgb.green = color.rgb.green;
    out.rgb.blue = color.rgb.blue;
  }
  return out;
}

CellPen blank_pen() {
  Pen pen = default_pen();
  return CellPen{pen.fg, pen.bg, 0};
}

void set_attr(CellPen& pen, std::uint8_t bit, bool on) {
  pen.attrs = static_cast<std::uint8_t>(on ? pen.attrs | bit : pen.attrs & ~bit);
}

// libvterm hands the text callback everything up to the end of the buffer; it must
// claim only the printable run, or the escape sequences after it would be skipped.
int tap_text(const char* bytes, std::size_t len, void*) {
  std::size_t n = 0;
  while (n < len) {
    auto c = static_cast<unsigned char>(bytes[n]);
    if (c < 0x20 || c == 0x7f) break;
    ++n;
  }
  return static_cast<int>(n);
}
int tap_control(unsigned char, void*) {
  return 1;
}
int tap_string(const char*, std::size_t, void*) {
  return 1;
}

std::string sanitize_title(const char* raw) {
  std::string out;
  for (const char* p = raw; p && *p && out.size() < kMaxTitleBytes; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c != 0x7f) out.push_back(static_cast<char>(c));
  }
  return out;
}

}  // namespace

// libvterm's callbacks into Screen: the state layer's (what to draw, erase and scroll,
// the pen, terminal properties), the output (replies), the OSCs it does not know, and
// the mode tap's parser.
struct ScreenHooks {
  static int putglyph(VTermGlyphInfo* info, VTermPos pos, void* user) {
    Screen& s = *self(user);
    return s.active_->put(pos.row, pos.col, info->chars, info->width, s.pen_,
                          info->protected_cell != 0)
               ? 1
               : 0;
  }
  static int movecursor(VTermPos, VTermPos, int, void*) { return 1; }
  static int scrollrect(VTermRect rect, int downward, int rightward, void* user) {
    self(user)->on_scroll(rect, downward, rightward);
    return 1;
  }
  static int erase(VTermRect rect, int selective, void* user) {
    Screen& s = *self(user);
    s.active_->erase(rect, selective != 0, s.pen_);
    return 1;
  }
  static int setpenattr(VTermAttr attr, VTermValue* value, void* user) {
    CellPen& pen = self(user)->pen_;
    switch (attr) {
      case VTERM_ATTR_BOLD:
        set_attr(pen, kAttrBold, value->boolean != 0);
        return 1;
      case VTERM_ATTR_UNDERLINE:
        pen.attrs = static_cast<std::uint8_t>(
            (pen.attrs & ~unsigned{kAttrUnderlineMask}) |
            ((static_cast<unsigned>(value->number) & 3u) << kAttrUnderlineShift));
        return 1;
      case VTERM_ATTR_ITALIC:
        set_attr(pen, kAttrItalic, value->boolean != 0);
        return 1;
      case VTERM_ATTR_BLINK:
        set_attr(pen, kAttrBlink, value->boolean != 0);
        return 1;
      case VTERM_ATTR_REVERSE:
        set_attr(pen, kAttrReverse, value->boolean != 0);
        return 1;
      case VTERM_ATTR_STRIKE:
        set_attr(pen, kAttrStrike, value->boolean != 0);
        return 1;
      case VTERM_ATTR_FOREGROUND:
        pen.fg = normalised(value->color);
        return 1;
      case VTERM_ATTR_BACKGROUND:
        pen.bg = normalised(value->color);
        return 1;
      default:
        return 1;  // fonts: nothing wharf draws
    }
  }
  static int settermprop(VTermProp prop, VTermValue* value, void* user) {
    self(user)->on_termprop(static_cast<int>(prop), value);
    return 1;
  }
  static int bell(void*) { return 1; }
  static int resize(int rows, int cols, VTermPos* delta, void* user) {
    self(user)->on_resize(rows, cols, delta);
    return 1;
  }
  // A line made double-width loses its right half, as in libvterm's screen layer.
  static int setlineinfo(int row, const VTermLineInfo* now, const VTermLineInfo* before,
                         void* user) {
    Screen& s = *self(user);
    if (now->doublewidth != before->doublewidth || now->doubleheight != before->doubleheight) {
      if (now->doublewidth) {
        int cols = s.active_->cols();
        s.active_->erase(
            VTermRect{.start_row = row, .end_row = row + 1, .start_col = cols / 2, .end_col = cols},
            false, s.pen_);
      }
    }
    return 1;
  }

  static void output(const char* bytes, std::size_t len, void* user) {
    self(user)->on_output(bytes, len);
  }
  static int unrecognised_osc(const char* command, std::size_t len, void* user) {
    self(user)->on_osc(std::string_view(command, len));
    return 1;
  }

  static int tap_escape(const char* bytes, std::size_t len, void* user) {
    self(user)->on_mode_escape(std::string_view(bytes, len));
    return 1;
  }
  static int tap_csi(const char* leader, const long args[], int argcount, const char* intermed,
                     char command, void* user) {
    self(user)->on_mode_csi(leader, args, argcount, intermed, command);
    return 1;
  }

  static constexpr VTermStateCallbacks kState = {
      .putglyph = putglyph,
      .movecursor = movecursor,
      .scrollrect = scrollrect,
      .moverect = nullptr,  // scrollrect does all the moving
      .erase = erase,
      .initpen = nullptr,
      .setpenattr = setpenattr,
      .settermprop = settermprop,
      .bell = bell,
      .resize = resize,
      .setlineinfo = setlineinfo,
  };
  static constexpr VTermParserCallbacks kUnrecognised = {
      .text = nullptr,
      .control = nullptr,
      .escape = nullptr,
      .csi = nullptr,
      .osc = unrecognised_osc,
      .dcs = nullptr,
      .resize = nullptr,
  };
  static constexpr VTermParserCallbacks kModeTap = {
      .text = tap_text,
      .control = tap_control,
      .escape = tap_escape,
      .csi = tap_csi,
      .osc = tap_string,
      .dcs = tap_string,
      .resize = nullptr,
  };
};

Screen::Screen(TerminalSize size, std::size_t scrollback_bytes, std::uint64_t first_seq)
    : size_(size),
      scrollback_limit_(scrollback_bytes),
      emulator_guard_(std::make_unique<EmulatorGuard>(size.cols)),
      primary_(size.rows, size.cols, blank_pen()),
      alternate_(size.rows, size.cols, blank_pen()),
      pen_(blank_pen()),
      seq_(std::max<std::uint64_t>(first_seq, 1)),
      replaced_at_(seq_) {
  vt_ = vterm_new(size.rows, size.cols);
  vterm_set_utf8(vt_, 1);
  vterm_output_set_callback(vt_, ScreenHooks::output, this);
  state_ = vterm_obtain_state(vt_);
  vterm_state_set_callbacks(state_, &ScreenHooks::kState, this);
  vterm_state_set_unrecognised_fallbacks(state_, &ScreenHooks::kUnrecognised, this);
  vterm_state_reset(state_, 1);
  // The blank screen as created is state 1.
  primary_.take_changed();
  alternate_.take_changed();
  primary_.set_stamp(seq_ + 1);
  alternate_.set_stamp(seq_ + 1);
  scroll_marks_.push_back({seq_, active_->scrolled()});

  mode_parser_ = vterm_new(size.rows, size.cols);
  vterm_set_utf8(mode_parser_, 1);
  vterm_parser_set_callbacks(mode_parser_, &ScreenHooks::kModeTap, this);
}

Screen::~Screen() {
  vterm_free(mode_parser_);
  vterm_free(vt_);
}

void Screen::feed(std::string_view raw) {
  if (raw.empty()) return;
  bytes_fed_ += raw.size();
  std::string storage;
  alternate_entries_.clear();
  std::string_view bytes = emulator_guard_->filter(raw, storage, alternate_entries_);
  if (bytes.empty()) return;
  vterm_input_write(mode_parser_, bytes.data(), bytes.size());
  vterm_input_write(vt_, bytes.data(), bytes.size());
  commit_changes();
}

void Screen::resize(TerminalSize size) {
  size = clamp_size(size.cols, size.rows);
  if (size == size_) return;
  size_ = size;
  emulator_guard_->set_max_repeat(size.cols);
  vterm_set_size(vt_, size.rows, size.cols);
  vterm_set_size(mode_parser_, size.rows, size.cols);
  modes_.scroll_top = 0;
  modes_.scroll_bottom = -1;
  replace_pending_ = true;
  commit_changes();
}

void Screen::commit_changes() {
  bool changed = primary_.take_changed();
  changed = alternate_.take_changed() || changed;
  if (!changed && !replace_pending_) return;
  ++seq_;
  std::uint64_t scrolled = active_->scrolled();
  if (replace_pending_) {
    replace_pending_ = false;
    replaced_at_ = seq_;
    scroll_marks_.clear();
    scroll_marks_.push_back({seq_, scrolled});
  } else if (scrolled != scroll_marks_.back().scrolled) {
    scroll_marks_.push_back({seq_, scrolled});
    // A reader behind the second mark is a screenful or more behind: the first is enough
    // to tell it so. This bounds the marks by the number of rows.
    auto rows = static_cast<std::uint64_t>(size_.rows);
    while (scroll_marks_.size() > 1 && scroll_marks_[1].scrolled + rows <= scrolled)
      scroll_marks_.pop_front();
  }
  primary_.set_stamp(seq_ + 1);
  alternate_.set_stamp(seq_ + 1);
}

ScreenChanges Screen::changes_since(std::uint64_t since) const {
  ScreenChanges out;
  out.seq = seq_;
  out.alternate_screen = alternate_screen_;
  const CellGrid& grid = *active_;
  int rows = grid.rows();
  out.full = since == 0 || since > seq_ || since < replaced_at_;
  if (!out.full) {
    // The reader's copy was shifted by every scroll after the last mark at or before it.
    auto after =
        std::upper_bound(scroll_marks_.begin(), scroll_marks_.end(), since,
                         [](std::uint64_t seq, const ScrollMark& mark) { return seq < mark.seq; });
    std::uint64_t moved = after == scroll_marks_.begin()
                              ? UINT64_MAX  // dropped: a screenful or more ago
                              : grid.scrolled() - std::prev(after)->scrolled;
    if (moved >= static_cast<std::uint64_t>(rows))
      out.full = true;
    else
      out.scrolled = moved;
  }
  // The rows a shift brings in are blank in the reader's copy: still blank, they go unsaid.
  int filled = out.full ? rows : rows - static_cast<int>(out.scrolled);
  for (int row = 0; row < rows; ++row) {
    if (!out.full && grid.changed_at(row) <= since) continue;
    std::string line;
    grid.render(row, false, false, line);
    if (row >= filled && line.empty()) continue;
    out.lines.emplace_back(row, std::move(line));
  }
  return out;
}

std::string Screen::take_replies() {
  return std::exchange(replies_, {});
}

void Screen::on_output(const char* bytes, std::size_t len) {
  replies_.append(bytes, len);
}

// A scroll of whole rows from the top of the primary screen pushes the rows leaving it
// to the scrollback first (libvterm's rule, kept exactly: also for a scroll region that
// starts at the top, and for DL on the first row; not when everything moves out, which
// libvterm treats as an erase).
void Screen::on_scroll(VTermRect rect, int downward, int rightward) {
  if (active_ == &primary_ && downward > 0 && rightward == 0 && rect.start_row == 0 &&
      rect.start_col == 0 && rect.end_col == primary_.cols() &&
      downward < std::min(rect.end_row, primary_.rows()))
    for (int row = 0; row < downward; ++row) push_scrollback(row);
  active_->scroll(rect, downward, rightward, pen_);
}

// As libvterm 0.1.4's screen layer: fewer rows on the primary screen scroll its
// content up (into scrollback) as far as the blank rows below the cursor do not
// absorb it; then both screens keep their top-left cells, new cells take the pen.
void Screen::on_resize(int rows, int cols, VTermPos* delta) {
  int old_rows = primary_.rows();
  int old_cols = primary_.cols();
  if (active_ == &primary_ && rows < old_rows) {
    VTermPos cursor{};
    vterm_state_get_cursorpos(state_, &cursor);
    int row = old_rows - 1;
    for (; row >= rows; --row)
      if (!primary_.is_eol(row, 0) || cursor.row == row) break;
    int first_blank_row = row + 1;
    if (first_blank_row > rows) {
      on_scroll(VTermRect{.start_row = 0, .end_row = old_rows, .start_col = 0, .end_col = old_cols},
                first_blank_row - rows, 0);
      delta->row -= first_blank_row - rows;
    }
  }
  primary_.resize(rows, cols, pen_);
  alternate_.resize(rows, cols, pen_);
}

// Lines are rendered as they leave (so the scrollback is bounded in bytes, not lines);
// once the bound is reached, the storage of the line dropped is reused for the new one.
void Screen::push_scrollback(int row) {
  scratch_.clear();
  primary_.render(row, true, reverse_video_, scratch_);
  std::string line;
  if (!scrollback_.empty() && scrollback_bytes_ + scratch_.size() + 1 > scrollback_limit_) {
    line = std::move(scrollback_.front());  // dropped below anyway
    scrollback_bytes_ -= line.size() + 1;
    scrollback_.pop_front();
    ++scrollback_dropped_;
  }
  line.assign(scratch_);
  scrollback_bytes_ += line.size() + 1;
  scrollback_.push_back(std::move(line));
  while (scrollback_bytes_ > scrollback_limit_ && !scrollback_.empty()) {
    scrollback_bytes_ -= scrollback_.front().size() + 1;
    scrollback_.pop_front();
    ++scrollback_dropped_;
  }
}

void Screen::on_termprop(int prop, const void* raw) {
  const auto* value = static_cast<const VTermValue*>(raw);
  switch (static_cast<VTermProp>(prop)) {
    case VTERM_PROP_CURSORVISIBLE:
      cursor_visible_ = value->boolean != 0;
      break;
    case VTERM_PROP_CURSORBLINK:
      cursor_blink_ = value->boolean != 0;
      break;
    case VTERM_PROP_ALTSCREEN: {
      // libvterm's state erases the alternate screen after this, on entry.
      bool on = value->boolean != 0;
      if (on != alternate_screen_) replace_pending_ = true;
      if (on && !alternate_screen_) primary_cursor_ = cursor();
      alternate_screen_ = on;
      active_ = on ? &alternate_ : &primary_;
      break;
    }
    case VTERM_PROP_TITLE:
      title_ = sanitize_title(value->string);
      break;
    case VTERM_PROP_REVERSE:
      reverse_video_ = value->boolean != 0;
      break;
    case VTERM_PROP_CURSORSHAPE:
      cursor_shape_ = value->number;
      break;
    default:
      break;
  }
}

void Screen::on_osc(std::string_view command) {
  // Colour queries: "10;?", "11;?", "12;?". Anything else unknown is ignored.
  auto answer = [this](std::string_view number, std::string_view colour) {
    replies_ += "\x1b]";
    replies_ += number;
    replies_ += ';';
    replies_ += colour;
    replies_ += "\x1b\\";
  };
  if (command == "10;?") answer("10", kForegroundReport);
  if (command == "11;?") answer("11", kBackgroundReport);
  if (command == "12;?") answer("12", kForegroundReport);
}

void Screen::reset_modes() {
  modes_ = InputModes{};
}

void Screen::on_mode_escape(std::string_view bytes) {
  if (bytes == "c") {  // RIS
    reset_modes();
    replace_pending_ = true;
  }
  if (bytes == "=") modes_.application_keypad = true;
  if (bytes == ">") modes_.application_keypad = false;
}

void Screen::on_mode_csi(const char* leader, const long args[], int argcount, const char* intermed,
                         char command) {
  bool dec = leader != nullptr && leader[0] == '?' && leader[1] == 0;
  bool plain = leader == nullptr || leader[0] == 0;
  bool no_intermed = intermed == nullptr || intermed[0] == 0;

  if (plain && intermed != nullptr && intermed[0] == '!' && intermed[1] == 0 && command == 'p') {
    // DECSTR: a soft reset of the modes that matter here.
    InputModes kept = modes_;
    reset_modes();
    modes_.bracketed_paste = kept.bracketed_paste;
    modes_.focus_reporting = kept.focus_reporting;
    modes_.mouse_tracking = kept.mouse_tracking;
    modes_.mouse_encoding = kept.mouse_encoding;
    return;
  }
  if (plain && no_intermed && command == 'r') {
    // DECSTBM, validated the way libvterm does.
    int rows = size_.rows;
    long top = CSI_ARG_OR(args[0], 1) - 1;
    long bottom = argcount < 2 || CSI_ARG_IS_MISSING(args[1]) ? -1 : CSI_ARG(args[1]);
    top = std::clamp<long>(top, 0, rows);
    if (bottom < -1) bottom = -1;
    if (top == 0 && bottom == rows) bottom = -1;
    if (bottom > rows) bottom = rows;
    long effective_bottom = bottom == -1 ? rows : bottom;
    if (effective_bottom <= top) {
      top = 0;
      bottom = -1;
    }
    modes_.scroll_top = static_cast<int>(top);
    modes_.scroll_bottom = static_cast<int>(bottom);
    return;
  }
  if (!no_intermed || (command != 'h' && command != 'l')) return;
  bool set = command == 'h';
  for (int i = 0; i < argcount; ++i) {
    long mode = CSI_ARG(args[i]);
    if (plain) {
      if (mode == 4) modes_.insert = set;
      continue;
    }
    if (!dec) continue;
    switch (mode) {
      case 1:
        modes_.application_cursor = set;
        break;
      case 6:
        modes_.origin = set;
        break;
      case 7:
        modes_.autowrap = set;
        break;
      case 66:
        modes_.application_keypad = set;
        break;
      case 9:
      case 1000:
      case 1002:
      case 1003:
        modes_.mouse_tracking = set ? static_cast<int>(mode) : 0;
        break;
      case 1005:
      case 1006:
      case 1015:
        if (set) {
          modes_.mouse_encoding = static_cast<int>(mode);
        } else if (modes_.mouse_encoding == mode) {
          modes_.mouse_encoding = 0;
        }
        break;
      case 1004:
        modes_.focus_reporting = set;
        break;
      case 2004:
        modes_.bracketed_paste = set;
        break;
      default:
        break;
    }
  }
}

CursorState Screen::cursor() const {
  VTermPos pos{};
  vterm_state_get_cursorpos(state_, &pos);
  return CursorState{pos.row, pos.col, cursor_visible_};
}

// The grid keeps cells as written: DECSCNM (reverse video) is carried as a mode, not by
// flipping every cell.
std::string Screen::render_row(const CellGrid& grid, int row) const {
  std::string out;
  grid.render(row, true, false, out);
  return out;
}

std::string Screen::snapshot(std::size_t scrollback_lines) const {
  std::string out;
  auto csi = [&out](std::string_view body) {
    out += "\x1b[";
    out += body;
  };
  out += "\x1b[0m";
  // Scrollback: printed from the top and pushed off the screen by newlines, so that it
  // lands in the receiving terminal's own scrollback in order.
  std::size_t count = std::min(scrollback_lines, scrollback_.size());
  if (count > 0) {
    for (auto it = scrollback_.end() - static_cast<std::ptrdiff_t>(count); it != scrollback_.end();
         ++it) {
      out += *it;
      out += "\r\n";
    }
    for (int i = 1; i < size_.rows; ++i) out += "\r\n";
  }
  if (alternate_screen_) {
    // The primary screen, and the cursor it had when the program switched away, so that
    // both come back when the program leaves the alternate screen (1049 restores the
    // cursor it saves here).
    csi("H");
    for (int row = 0; row < size_.rows; ++row) {
      std::string line = render_row(primary_, row);
      if (line.empty()) continue;
      csi(std::to_string(row + 1) + ";1H");
      out += line;
    }
    csi(std::to_string(primary_cursor_.row + 1) + ";" + std::to_string(primary_cursor_.col + 1) +
        "H");
    csi("?1049h");
  }
  csi("H");
  for (int row = 0; row < size_.rows; ++row) {
    std::string line = render_row(*active_, row);
    if (line.empty()) continue;
    csi(std::to_string(row + 1) + ";1H");
    out += line;
  }

  // Modes, then the cursor (DECSTBM and DECOM move it), then the pen.
  const InputModes& m = modes_;
  if (m.scroll_top != 0 || m.scroll_bottom != -1) {
    int bottom = m.scroll_bottom == -1 ? size_.rows : m.scroll_bottom;
    csi(std::to_string(m.scroll_top + 1) + ";" + std::to_string(bottom) + "r");
  }
  if (m.origin) csi("?6h");
  if (!m.autowrap) csi("?7l");
  if (m.insert) csi("4h");
  if (m.application_cursor) csi("?1h");
  if (m.application_keypad) out += "\x1b=";
  if (m.mouse_tracking != 0) csi("?" + std::to_string(m.mouse_tracking) + "h");
  if (m.mouse_encoding != 0) csi("?" + std::to_string(m.mouse_encoding) + "h");
  if (m.focus_reporting) csi("?1004h");
  if (m.bracketed_paste) csi("?2004h");
  if (reverse_video_) csi("?5h");
  if (!title_.empty()) {
    out += "\x1b]2;";
    out += title_;
    out += "\x1b\\";
  }
  // DECSCUSR: 1/2 block, 3/4 underline, 5/6 bar; odd numbers blink.
  int shape = cursor_shape_ == VTERM_PROP_CURSORSHAPE_UNDERLINE  ? 3
              : cursor_shape_ == VTERM_PROP_CURSORSHAPE_BAR_LEFT ? 5
                                                                 : 1;
  if (!cursor_blink_) ++shape;
  if (shape != 1) csi(std::to_string(shape) + " q");

  CursorState cur = cursor();
  int row = cur.row;
  if (m.origin) row -= m.scroll_top;
  csi(std::to_string(row + 1) + ";" + std::to_string(cur.col + 1) + "H");
  if (!cur.visible) csi("?25l");

  Pen pen = default_pen();
  VTermValue value{};
  vterm_state_get_penattr(state_, VTERM_ATTR_BOLD, &value);
  pen.attrs.bold = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_UNDERLINE, &value);
  pen.attrs.underline = static_cast<unsigned>(value.number) & 3u;
  vterm_state_get_penattr(state_, VTERM_ATTR_ITALIC, &value);
  pen.attrs.italic = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_BLINK, &value);
  pen.attrs.blink = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_REVERSE, &value);
  pen.attrs.reverse = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_STRIKE, &value);
  pen.attrs.strike = value.boolean ? 1 : 0;
  vterm_state_get_penattr(state_, VTERM_ATTR_FOREGROUND, &value);
  pen.fg = value.color;
  vterm_state_get_penattr(state_, VTERM_ATTR_BACKGROUND, &value);
  pen.bg = value.color;
  if (!is_default_pen(pen)) append_sgr(out, pen);
  return out;
}

ScreenText Screen::text(std::size_t scrollback_lines) const {
  ScreenText out;
  std::size_t count = std::min(scrollback_lines, scrollback_.size());
  for (auto it = scrollback_.end() - static_cast<std::ptrdiff_t>(count); it != scrollback_.end();
       ++it)
    out.scrollback.push_back(strip_sgr(*it));
  for (int row = 0; row < size_.rows; ++row) {
    std::string line;
    active_->render(row, false, false, line);
    out.lines.push_back(std::move(line));
  }
  out.cursor = cursor();
  out.size = size_;
  out.title = title_;
  out.alternate_screen = alternate_screen_;
  return out;
}

std::string strip_sgr(std::string_view rendered) {
  std::string out;
  out.reserve(rendered.size());
  for (std::size_t i = 0; i < rendered.size(); ++i) {
    if (rendered[i] == '\x1b' && i + 1 < rendered.size() && rendered[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < rendered.size() && rendered[j] != 'm') ++j;
      i = j;
      continue;
    }
    out.push_back(rendered[i]);
  }
  return out;
}

}  // namespace wharf::core
