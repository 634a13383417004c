#include "core/command_capture.hpp"

#include <cctype>

namespace wharf::core {

// A quarter of the cap keeps how the output began, the rest how it ended (usually what
// a reader needs: the error, the summary line).
CommandCapture::CommandCapture(std::size_t max_output_bytes)
    : output_(max_output_bytes / 4, max_output_bytes - max_output_bytes / 4) {}

void CommandCapture::feed(std::string_view chunk) {
  if (phase_ == Phase::kDone) return;
  marks_.clear();
  scanner_.feed(chunk, marks_);
  std::size_t from = phase_ == Phase::kRunning ? 0 : chunk.size();
  for (const ShellMark& mark : marks_) {
    if (phase_ == Phase::kTyped && mark.kind == MarkKind::kOutputStart) {
      phase_ = Phase::kRunning;
      from = mark.end;
    } else if (phase_ == Phase::kRunning && mark.kind == MarkKind::kCommandEnd) {
      // The mark itself is an OSC sequence, which PlainOutput drops; feeding up to its
      // end also completes a mark that began in an earlier chunk.
      keep(chunk.substr(from, mark.end - from));
      flush_recent(true);
      exit_code_ = mark.exit_code;
      phase_ = Phase::kDone;
      return;
    }
  }
  if (phase_ == Phase::kRunning && from < chunk.size()) keep(chunk.substr(from));
}

namespace {

// Enough for zsh's trailer on a 500-column terminal, plus the D mark itself.
constexpr std::size_t kRecentBytes = 1536;

// The length of zsh's PROMPT_SP trailer at the end of `raw` (before the D mark that ends
// it), or 0: [end-of-line mark: SGR sequences, '%' or '#'] spaces CR spaces CR.
std::size_t prompt_sp_trailer(std::string_view raw) {
  std::size_t end = raw.rfind("\x1b]133;D");
  if (end == std::string_view::npos) return 0;
  std::size_t i = end;
  auto spaces_then_cr = [&]() {
    if (i == 0 || raw[i - 1] != '\r') return false;
    --i;
    std::size_t before = i;
    while (i > 0 && raw[i - 1] == ' ') --i;
    return i < before;
  };
  if (!spaces_then_cr() || !spaces_then_cr()) return 0;
  for (;;) {  // the mark: %, #, and the SGR sequences around them
    if (i > 0 && (raw[i - 1] == '%' || raw[i - 1] == '#')) {
      --i;
    } else if (i > 0 && raw[i - 1] == 'm') {
      std::size_t j = i - 1;
      while (j > 0 &&
             (std::isdigit(static_cast<unsigned char>(raw[j - 1])) != 0 || raw[j - 1] == ';'))
        --j;
      if (j < 2 || raw[j - 1] != '[' || raw[j - 2] != '\x1b') break;
      i = j - 2;
    } else {
      break;
    }
  }
  return end - i;
}

}  // namespace

void CommandCapture::keep(std::string_view raw) {
  recent_.append(raw);
  flush_recent(false);
}

void CommandCapture::flush_recent(bool at_end) {
  if (at_end) {
    std::size_t trailer = prompt_sp_trailer(recent_);
    std::size_t mark = recent_.rfind("\x1b]133;D");
    if (trailer > 0) recent_.erase(mark - trailer, trailer);
    output_.feed(recent_);
    recent_.clear();
  } else if (recent_.size() > kRecentBytes) {
    output_.feed(std::string_view(recent_).substr(0, recent_.size() - kRecentBytes));
    recent_.erase(0, recent_.size() - kRecentBytes);
  }
}

}  // namespace wharf::core
