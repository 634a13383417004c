#include "core/mode_tap.hpp"

#include <vterm.h>

#include <algorithm>
#include <utility>

namespace wharf::core {

// The parser's callbacks. Text, controls and strings are passed over; the text callback
// must claim only the printable run, or the escape sequences after it would be skipped.
struct ModeTapHooks {
  static ModeTap& self(void* user) { return *static_cast<ModeTap*>(user); }
  static int text(const char* bytes, std::size_t len, void*) {
    std::size_t n = 0;
    while (n < len && static_cast<unsigned char>(bytes[n]) >= 0x20 && bytes[n] != 0x7f) ++n;
    return static_cast<int>(n);
  }
  static int control(unsigned char, void*) { return 1; }
  static int string(const char*, std::size_t, void*) { return 1; }
  static int escape(const char* bytes, std::size_t len, void* user) {
    self(user).on_escape(std::string_view(bytes, len));
    return 1;
  }
  static int csi(const char* leader, const long args[], int argcount, const char* intermed,
                 char command, void* user) {
    self(user).on_csi(leader, args, argcount, intermed, command);
    return 1;
  }
  static constexpr VTermParserCallbacks kCallbacks = {
      .text = text,
      .control = control,
      .escape = escape,
      .csi = csi,
      .osc = string,
      .dcs = string,
      .resize = nullptr,
  };
};

ModeTap::ModeTap(TerminalSize size) : rows_(size.rows) {
  parser_ = vterm_new(size.rows, size.cols);
  vterm_set_utf8(parser_, 1);
  vterm_parser_set_callbacks(parser_, &ModeTapHooks::kCallbacks, this);
}

ModeTap::~ModeTap() {
  vterm_free(parser_);
}

void ModeTap::feed(std::string_view bytes) {
  vterm_input_write(parser_, bytes.data(), bytes.size());
}

void ModeTap::resize(TerminalSize size) {
  rows_ = size.rows;
  vterm_set_size(parser_, size.rows, size.cols);
  modes_.scroll_top = 0;
  modes_.scroll_bottom = -1;
}

bool ModeTap::take_reset() {
  return std::exchange(reset_seen_, false);
}

void ModeTap::on_escape(std::string_view bytes) {
  if (bytes == "c") {  // RIS
    modes_ = InputModes{};
    reset_seen_ = true;
  }
  if (bytes == "=") modes_.application_keypad = true;
  if (bytes == ">") modes_.application_keypad = false;
}

void ModeTap::on_csi(const char* leader, const long args[], int argcount, const char* intermed,
                     char command) {
  bool dec = leader != nullptr && leader[0] == '?' && leader[1] == 0;
  bool plain = leader == nullptr || leader[0] == 0;
  bool no_intermed = intermed == nullptr || intermed[0] == 0;

  if (plain && intermed != nullptr && intermed[0] == '!' && intermed[1] == 0 && command == 'p') {
    // DECSTR: a soft reset of the modes that matter here.
    InputModes kept = modes_;
    modes_ = InputModes{};
    modes_.bracketed_paste = kept.bracketed_paste;
    modes_.focus_reporting = kept.focus_reporting;
    modes_.mouse_tracking = kept.mouse_tracking;
    modes_.mouse_encoding = kept.mouse_encoding;
    return;
  }
  if (plain && no_intermed && command == 'r') {
    // DECSTBM, validated the way libvterm does.
    int rows = rows_;
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

}  // namespace wharf::core
