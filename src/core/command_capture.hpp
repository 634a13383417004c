// One command's output, cut out of a shell session's output stream by the shell's OSC
// 133 marks (core/shell_marks.hpp): everything between the mark that says the command's
// output starts (C) and the mark that says it ended (D;status). The echo of the command
// line comes before C, the next prompt after D, so neither is part of the output.
//
// Fed the session's output from the moment the command line was typed. Marks from before
// the command started (a D or A left over from an earlier prompt) are ignored; the
// output is kept as plain text, capped (core::PlainOutput keeps its head and tail).
//
// zsh prints its PROMPT_SP trailer (the end-of-line mark, spaces to the margin, CR,
// spaces, CR: how it shows output that lacked a final newline) before its precmd hooks
// run, so before the D mark. It is not the command's: the last few hundred bytes wait in
// `recent_` until the D mark shows whether they end with that trailer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plain_output.hpp"
#include "core/shell_marks.hpp"

namespace wharf::core {

class CommandCapture {
 public:
  explicit CommandCapture(std::size_t max_output_bytes);

  void feed(std::string_view chunk);

  bool started() const { return phase_ != Phase::kTyped; }
  bool finished() const { return phase_ == Phase::kDone; }
  std::optional<int> exit_code() const { return exit_code_; }
  const PlainOutput& output() const { return output_; }

 private:
  enum class Phase { kTyped, kRunning, kDone };
  Phase phase_ = Phase::kTyped;
  ShellMarkScanner scanner_;
  std::vector<ShellMark> marks_;
  void keep(std::string_view raw);
  void flush_recent(bool at_end);

  PlainOutput output_;
  std::string recent_;  // raw output not yet given to output_
  std::optional<int> exit_code_;
};

}  // namespace wharf::core
