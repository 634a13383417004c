// The engine's modes (SM/RM and DECSET/DECRST, the alternate screens among them) and
// their reports (DECRQM), as xterm.js 6.0.0 sets and answers them.
#include <string>

#include "core/screen.hpp"

namespace wharf::core {

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

}  // namespace wharf::core
