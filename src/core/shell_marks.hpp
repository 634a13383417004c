// Shell integration marks (OSC 133, "semantic prompts") found in a session's output as
// it streams past, so that `run_command` can tell where a command's output starts
// (C), where it ends (D) and with which exit code (docs/api.md):
//
//   ESC ] 133 ; A  prompt starts      ESC ] 133 ; C  the command's output starts
//   ESC ] 133 ; B  command line starts ESC ] 133 ; D [; exit code]  the command ended
//
// each terminated by BEL or ST (ESC \, or the 8-bit ST U+009C), with any further
// ";params" ignored. It also finds the working directory a shell reports (OSC 7,
// `ESC ] 7 ; file://HOST/PATH`, the path percent-encoded): parse_working_directory()
// says which reports are read and what comes of them. The output is cut into sequences by the
// screen's own tokenizer (core::VtParser), so a mark is found exactly where the screen sees an OSC
// 133, and only there (an 8-bit OSC, U+009D, opens one too; an ESC that is not the start of ST ends
// the OSC unfinished, and the mark is ignored).
//
// Invariants: the scanner sees every byte of every session's output, so its memory is
// constant: the parser's buffers (an OSC payload is kept up to VtParser::kMaxOscBytes,
// a DCS payload up to kMaxDcsBytes, a run of text up to a few KiB) and a mark waiting for
// the '\' of its ST; nothing else is stored. Text is passed over with memchr, not fed to
// the parser: in the ground state only ESC or a C1 control (lead byte C2) can start a
// sequence. A sequence may be split across chunks at any byte. A malformed or overlong
// (kMaxMarkBytes) mark is ignored, like the rest of what it cannot read: the scanner never fails. A
// mark is reported in the chunk where its terminator arrives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/vt_parser.hpp"

namespace wharf::core {

enum class MarkKind {
  kPromptStart /*A*/,
  kCommandStart /*B*/,
  kOutputStart /*C*/,
  kCommandEnd /*D*/,
  kWorkingDirectory /*OSC 7*/
};

struct ShellMark {
  MarkKind kind;
  std::optional<int> exit_code;  // D;N with N all digits (at most 9 of them)
  std::size_t end;               // offset in the chunk just past the sequence's terminator
  std::size_t begin;      // offset where it began in this chunk, 0 if it began in an earlier one
  std::string directory;  // kWorkingDirectory: the decoded path (see parse_working_directory)
};

// Longest "133;..." body still read as a mark; longer ones are skipped.
inline constexpr std::size_t kMaxMarkBytes = 256;

// The path an OSC 7 payload ("7;file://HOST/PATH") reports, percent-decoded: an absolute
// path, its invalid UTF-8 each shown as U+FFFD. Nothing for another scheme, a path that
// is not absolute, a bad %-escape, or a control character (encoded or not) anywhere in it;
// the payload itself is bounded by VtParser::kMaxOscBytes. The host is not checked: the
// report of a shell on another machine (over ssh) is that machine's directory.
std::optional<std::string> parse_working_directory(std::string_view payload);

class ShellMarkScanner {
 public:
  ShellMarkScanner() = default;
  ShellMarkScanner(const ShellMarkScanner&) = delete;  // the parser points at this object
  ShellMarkScanner& operator=(const ShellMarkScanner&) = delete;

  // Appends the marks completed in `chunk`, in order.
  void feed(std::string_view chunk, std::vector<ShellMark>& out);

 private:
  // Only OSC ends and the ST after one matter here.
  class Finder : public VtHandler {
   public:
    explicit Finder(ShellMarkScanner& scanner) : scanner_(scanner) {}
    void print_ascii(std::string_view) override {}
    void print(std::span<const char32_t>) override {}
    void execute(char32_t) override {}
    void esc_dispatch(VtCollect collect, char final_byte) override {
      scanner_.esc_dispatch(collect, final_byte);
    }
    void csi_dispatch(const VtParams&, VtCollect, char) override {}
    void osc_end(std::string_view payload, bool complete) override {
      scanner_.osc_end(payload, complete);
    }
    void dcs_end(const VtParams&, VtCollect, char, std::string_view, bool) override {}

   private:
    ShellMarkScanner& scanner_;
  };

  void osc_end(std::string_view payload, bool complete);
  void esc_dispatch(VtCollect collect, char final_byte);

  Finder finder_{*this};
  VtParser parser_{finder_};
  std::vector<ShellMark>* out_ = nullptr;  // where feed() puts marks
  // The chunk is fed in pieces that end just after each byte a mark's offsets depend on,
  // so when the parser reports an OSC's end, it ended at the last byte fed.
  std::size_t fed_to_ = 0;                // offset in the chunk just past the bytes fed so far
  unsigned char last_fed_ = 0;            // the last byte fed
  unsigned char previous_chunk_ = 0;      // the last byte of the previous chunk
  std::size_t esc_at_ = 0;                // the last ESC, in this chunk (0: in an earlier one)
  std::size_t osc_begin_ = 0;             // where the OSC under way began (0: in an earlier chunk)
  std::optional<ShellMark> awaiting_st_;  // its OSC ended with an ESC: a mark if '\' follows
};

}  // namespace wharf::core
