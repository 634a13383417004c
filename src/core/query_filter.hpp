// What a raw terminal client (`wharf attach`) must take out of a session's output before
// its real terminal sees it. Terminal queries (DA, DSR/CPR, DECRQM, DECRQSS, XTVERSION,
// XTGETTCAP, colour queries, window reports...) are the daemon's business: its screen
// model answers each one exactly once (docs/protocol.md, "Terminal queries"). A real
// terminal would answer them too, on stdin, and the client would type that answer into
// the program as a second reply. So each query is removed whole, the same set the page
// silences in web/terminal_queries.js plus the few reports xterm.js lacks. Clipboard
// writes and reads (OSC 52) are removed as well, as the page ignores them.
//
// Everything else passes through byte for byte and in order: the filter only withholds
// a sequence until it knows whether it is a query (at most kMaxHeld bytes; a longer one
// cannot be a query and is let through), so escape sequences split across feeds are
// judged whole. Long strings (sixel, titles, hyperlinks) are streamed, not buffered.
// It also follows the alternate screen switches it passes (DECSET 47, 1047, 1049), so the
// client knows whether leaving needs to switch back.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wharf::core {

class QueryFilter {
 public:
  static constexpr std::size_t kMaxHeld = 256;

  // Appends to `out` what of `bytes` the terminal may see.
  void filter(std::string_view bytes, std::string& out);
  // A snapshot starts from a clean parser and the primary screen.
  void reset() { *this = QueryFilter(); }
  // Whether the bytes passed so far left the terminal on the alternate screen.
  bool alternate_screen() const { return alternate_screen_; }

 private:
  enum class State {
    kText,
    kEscape,              // ESC seen
    kEscapeIntermediate,  // ESC and 0x20-0x2f: passed through up to the final byte
    kCsi,                 // withheld until its final byte
    kCsiPass,             // too long to be a query: passed through
    kOscNumber,           // OSC: its number, withheld
    kOscHeld,             // a colour OSC: withheld until its end (a query has a '?')
    kDcsHead,             // DCS: parameters, intermediates and final, withheld
    kString,              // the rest of a string, passed or dropped (string_drop_)
    kStringEscape,        // ESC inside a string: ST, or the start of something new
  };

  // Returns false when `c` must be looked at again in the new state.
  bool step(char c, std::string& out);
  void end_csi(std::string& out);
  void end_osc_held(std::string& out);
  void enter_string(bool drop, bool bel_ends);

  State state_ = State::kText;
  std::string held_;  // the sequence withheld so far
  bool string_drop_ = false;
  bool string_bel_ends_ = false;         // BEL ends OSC strings (and, to be safe, dropped ones)
  State string_state_ = State::kString;  // kOscHeld when the held OSC met an ESC
  bool alternate_screen_ = false;
};

}  // namespace wharf::core
