// What a raw terminal client (`wharf attach`) must take out of a session's output before
// its real terminal sees it. Terminal queries (DA, DSR/CPR, DECRQM, DECRQSS, XTVERSION,
// XTGETTCAP, colour queries, window reports...) are the daemon's business: its screen
// model answers each one exactly once (docs/protocol.md, "Terminal queries"). A real
// terminal would answer them too, on stdin, and the client would type that answer into
// the program as a second reply. So each query is removed whole, the same set the page
// silences in web/terminal_queries.js plus the few reports xterm.js lacks. Clipboard
// writes and reads (OSC 52) are removed as well, as the page ignores them.
//
// Sequences are found by the screen's own tokenizer (core::VtParser), so a query is
// removed exactly when the screen model sees one (and answers it), whether it opens with
// ESC or an 8-bit C1 introducer. The filter keeps the raw bytes of the sequence under
// way itself, from the byte that left the parser's ground state, and decides from what
// the parser reports (a dispatch, a string's end) and where it stands.
//
// Everything else passes through byte for byte and in order: the filter only withholds
// a sequence until it knows whether it is a query (at most kMaxHeld bytes; a longer one
// cannot be a query and is let through), so escape sequences split across feeds are
// judged whole. A control the terminal executes inside a sequence passes at once, ahead
// of it. Long strings (sixel, titles, hyperlinks, clipboard) are streamed, not buffered.
// Text is not fed to the parser: in ground state only ESC, ENQ and a C1 control (bytes
// C2 80..9F) can matter. It also follows the alternate screen switches it passes
// (DECSET 47, 1047, 1049), so the client knows whether leaving needs to switch back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/vt_parser.hpp"

namespace wharf::core {

class QueryFilter {
 public:
  static constexpr std::size_t kMaxHeld = 256;

  QueryFilter() = default;
  QueryFilter(const QueryFilter&) = delete;  // the parser points at this object
  QueryFilter& operator=(const QueryFilter&) = delete;

  // Appends to `out` what of `bytes` the terminal may see.
  void filter(std::string_view bytes, std::string& out);
  // A snapshot starts from a clean parser and the primary screen.
  void reset();
  // Whether the bytes passed so far left the terminal on the alternate screen.
  bool alternate_screen() const { return alternate_screen_; }

 private:
  // What becomes of the sequence under way.
  enum class Fate : std::uint8_t {
    kHeld,  // withheld in held_ until it is known
    kPass,  // not a query: its bytes go out as they come
    kDrop,  // a query (or clipboard): its bytes are dropped as they come
  };

  // Records what the parser reports for the unit just fed.
  class Judge : public VtHandler {
   public:
    explicit Judge(QueryFilter& filter) : filter_(filter) {}
    void print_ascii(std::string_view) override {}
    void print(std::span<const char32_t>) override {}
    void execute(char32_t) override { filter_.executed_ = true; }
    void esc_dispatch(VtCollect collect, char final_byte) override;
    void csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) override;
    void osc_end(std::string_view payload, bool complete) override;
    void dcs_end(const VtParams&, VtCollect, char, std::string_view, bool) override {
      filter_.string_ended_ = true;
    }

   private:
    QueryFilter& filter_;
  };

  // One unit: a byte, or the two bytes of a C1 control.
  void unit(std::string_view bytes, std::string& out);
  void append(std::string_view bytes, std::string& out);
  void classify(std::string& out);
  void classify_osc(std::string& out);
  void classify_dcs(std::string& out);
  void pass(std::string& out);
  void drop();
  Fate finish(std::string& out);

  Judge judge_{*this};
  VtParser parser_{judge_};
  std::string held_;           // the sequence withheld so far (fate kHeld)
  Fate fate_ = Fate::kPass;    // of the sequence under way
  std::size_t body_at_ = 0;    // where an OSC's payload or a DCS's head starts in held_
  bool colour_osc_ = false;    // a colour OSC: withheld to its end (a query has a '?')
  bool drop_st_ = false;       // an ESC ended a dropped string: an ST after it goes too
  bool c2_pending_ = false;    // the last feed ended with a C2 byte, not yet judged
  bool executed_ = false;      // the parser executed a control for the last unit
  bool query_ = false;         // the last unit completed a query
  bool string_ended_ = false;  // the last unit ended an OSC or DCS string
  bool alternate_screen_ = false;
};

}  // namespace wharf::core
