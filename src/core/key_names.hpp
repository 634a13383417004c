// tmux-style key names (`C-c`, `Enter`, `M-Up`, `S-F5`, `x`) turned into the bytes a
// terminal (xterm) sends for them, for `wharf send-keys`, the REST route and the MCP
// `send_keys` tool (docs/api.md).
//
// A name is an optional run of modifier prefixes (C-, M-, S-, in any order and case; `^x`
// also means C-x), then either one character (one UTF-8 code point, sent literally) or a
// named key (case-insensitive, with tmux's aliases). Modified cursor and function keys
// use xterm's `CSI 1;m X` / `CSI n;m ~` forms; M- on anything else puts ESC in front.
//
// Invariants: every name of a call is checked before anything is returned, so a call is
// all or nothing; a name that has no faithful encoding (S-1, C-1, C-Enter, an unknown
// name) is refused with code "bad_key" rather than approximated; a control character is
// never accepted as a literal name (it has a name: Enter, Tab, Escape, BSpace, C-x), so
// what a caller sends is always what it wrote; error messages quote names shortened and
// printable only.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::core {

inline constexpr std::size_t kMaxKeyNames = 64;
inline constexpr std::size_t kMaxKeyNameBytes = 32;

// The terminal modes that change what a key sends (DECCKM and DECKPAM), as the session's
// screen model reports them.
struct KeyModes {
  bool application_cursor = false;  // Up/Down/Left/Right/Home/End send ESC O x
  bool application_keypad = false;  // KP0..KP9, KP/ KP* KP- KP+ KP. KPEnter send ESC O x
};

// The bytes for `names` in order. Errors: code "bad_key", the first refused name quoted.
Result<std::string> encode_keys(std::span<const std::string> names, const KeyModes& modes);

// Every accepted key name (aliases included), in a stable order, for --help and docs.
std::span<const std::string_view> key_names();

}  // namespace wharf::core
