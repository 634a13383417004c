// The input modes a program sets (cursor and keypad modes, mouse tracking and encoding,
// bracketed paste, focus reporting, origin, autowrap, insert, the scroll region), which
// a snapshot must restore and which decide how keys and pastes are sent. libvterm 0.1.4
// tracks them inside its state layer but does not expose them, so a second libvterm
// parser, fed the same bytes as the screen, follows the sequences that set them.
//
// Invariants: no I/O; feeding never fails; the scroll region is always valid for the
// current size (validated as libvterm does, reset on resize). The parser keeps a pointer
// to this object, so a ModeTap never moves.
#pragma once

#include <string_view>

#include "core/terminal_size.hpp"

struct VTerm;

namespace wharf::core {

// Input modes a program sets that change what the terminal sends it.
struct InputModes {
  bool application_cursor = false;  // DECCKM
  bool application_keypad = false;  // DECKPAM / DECNKM
  bool bracketed_paste = false;     // 2004
  bool focus_reporting = false;     // 1004
  int mouse_tracking = 0;           // 0, 9, 1000, 1002 or 1003
  int mouse_encoding = 0;           // 0, 1005, 1006 or 1015
  bool origin = false;              // DECOM
  bool autowrap = true;             // DECAWM
  bool insert = false;              // IRM
  int scroll_top = 0;               // DECSTBM, 0-based inclusive; bottom -1 = last row
  int scroll_bottom = -1;
};

class ModeTap {
 public:
  explicit ModeTap(TerminalSize size);
  ~ModeTap();
  ModeTap(const ModeTap&) = delete;
  ModeTap& operator=(const ModeTap&) = delete;

  void feed(std::string_view bytes);
  // A new size also drops the scroll region, as the terminal's own resize does.
  void resize(TerminalSize size);
  const InputModes& modes() const { return modes_; }
  // Whether a full reset (RIS) went by since the last call: the screen was replaced.
  bool take_reset();

 private:
  friend struct ModeTapHooks;  // the parser's callbacks (mode_tap.cpp)

  void on_escape(std::string_view bytes);
  void on_csi(const char* leader, const long args[], int argcount, const char* intermed,
              char command);

  VTerm* parser_ = nullptr;
  int rows_;
  InputModes modes_;
  bool reset_seen_ = false;
};

}  // namespace wharf::core
