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

using cell_render::default_pen;
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
// the pen, terminal properties), the output (replies) and the OSCs it does not know.
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
};

Screen::Screen(TerminalSize size, std::size_t scrollback_bytes, std::uint64_t first_seq)
    : size_(size),
      scrollback_limit_(scrollback_bytes),
      mode_tap_(size),
      emulator_guard_(std::make_unique<EmulatorGuard>(size.cols)),
      primary_(size.rows, size.cols, blank_pen()),
      alternate_(size.rows, size.cols, blank_pen()),
      pen_(blank_pen()),
      changes_(first_seq, 0) {
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
  primary_.set_stamp(changes_.next_seq());
  alternate_.set_stamp(changes_.next_seq());
}

Screen::~Screen() {
  vterm_free(vt_);
}

void Screen::feed(std::string_view raw) {
  if (raw.empty()) return;
  bytes_fed_ += raw.size();
  std::string storage;
  alternate_entries_.clear();
  std::string_view bytes = emulator_guard_->filter(raw, storage, alternate_entries_);
  if (bytes.empty()) return;
  mode_tap_.feed(bytes);
  if (mode_tap_.take_reset()) changes_.replace();
  vterm_input_write(vt_, bytes.data(), bytes.size());
  commit_changes();
}

void Screen::resize(TerminalSize size) {
  size = clamp_size(size.cols, size.rows);
  if (size == size_) return;
  size_ = size;
  emulator_guard_->set_max_repeat(size.cols);
  vterm_set_size(vt_, size.rows, size.cols);
  mode_tap_.resize(size);
  changes_.replace();
  commit_changes();
}

void Screen::commit_changes() {
  bool changed = primary_.take_changed();
  changed = alternate_.take_changed() || changed;
  if (!changes_.commit(changed, active_->scrolled(), size_.rows)) return;
  primary_.set_stamp(changes_.next_seq());
  alternate_.set_stamp(changes_.next_seq());
}

ScreenChanges Screen::changes_since(std::uint64_t since) const {
  ScreenChanges out;
  out.seq = changes_.seq();
  out.alternate_screen = alternate_screen_;
  const CellGrid& grid = *active_;
  int rows = grid.rows();
  ChangeLog::Redo redo = changes_.since(since, grid.scrolled(), rows);
  out.full = redo.full;
  out.scrolled = redo.scrolled;
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
      if (on != alternate_screen_) changes_.replace();
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

CursorState Screen::cursor() const {
  VTermPos pos{};
  vterm_state_get_cursorpos(state_, &pos);
  return CursorState{pos.row, pos.col, cursor_visible_};
}

}  // namespace wharf::core
