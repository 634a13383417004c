// Text made safe to type into a program (`wharf send-text`, the MCP `send_text` tool, a
// paste from the page): whatever the text holds, the program receives printable
// characters, tabs and Enter, never a control sequence: text can never end a bracketed
// paste early and act as keys.
//
// The text is cut into characters, controls and sequences by the screen's own tokenizer
// (core::VtParser), and every escape or control sequence is removed whole: ESC [ 3 1 m
// goes entirely, not only its ESC, and so does one opened by an 8-bit C1 introducer
// (U+009B...); a string (OSC, DCS, SOS/PM/APC) runs to its terminator, and a sequence
// still open when the text ends is removed to the end. `removed` counts the characters
// that went (a sequence counts each of its characters).
//
// Invariants: the result holds no C0 control but TAB and CR, no DEL, no C1 control
// (neither U+0080..U+009F nor a stray 0x80..0x9F byte) and only valid UTF-8 (each invalid
// stretch in text becomes U+FFFD; inside a sequence it goes with it); every line ending
// (CRLF, CR, LF) becomes the one CR a terminal sends for Enter. Since ESC never survives,
// a bracketed result's inner text can never contain the end marker ESC[201~, so the
// program sees exactly one paste.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wharf::core {

inline constexpr std::string_view kPasteStart = "\x1b[200~";
inline constexpr std::string_view kPasteEnd = "\x1b[201~";

struct PastedText {
  std::string bytes;
  std::size_t removed = 0;   // characters (or stray bytes) dropped
  std::size_t replaced = 0;  // invalid UTF-8 stretches replaced by U+FFFD
  // Line endings kept (each one CR in `bytes`). Outside a bracketed paste each acts as
  // Enter, so callers that promise "text, never keys" refuse such text (ops/send_text).
  std::size_t line_breaks = 0;
};

// `bracketed`: wrap in ESC[200~ ... ESC[201~ (for a program that enabled mode 2004).
PastedText encode_paste(std::string_view text, bool bracketed);

}  // namespace wharf::core
