// Feeds arbitrary bytes to the readers of a session's output and to the paste encoder:
// ShellMarkScanner (OSC 133 marks and OSC 7 directories) and PlainOutput (which see every
// byte a program prints), the status tracker fed those marks, and encode_paste (which
// sees whatever a caller sends). The first byte picks where the input is cut in two.
// Invariants: a cut changes nothing (same marks at the same absolute offsets, same
// directories, same plain text); mark offsets lie within their chunk; a directory is an
// absolute path of valid UTF-8 without a control character; plain text is valid
// UTF-8 without ESC or a control but TAB and LF, and within its cap; a paste's inside is
// valid UTF-8 without ESC or a control but TAB and CR, so it cannot end early.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/paste_text.hpp"
#include "core/plain_output.hpp"
#include "core/session_status.hpp"
#include "core/shell_marks.hpp"
#include "core/utf8.hpp"

namespace {

using namespace wharf::core;

// Checks `text` is valid UTF-8 whose control characters are all in `allowed`.
void check_text(std::string_view text, std::string_view allowed) {
  Utf8Decoder decoder;
  for (char c : text) {
    auto step = decoder.feed(static_cast<unsigned char>(c));
    if (step == Utf8Decoder::Step::kInvalid || step == Utf8Decoder::Step::kRetry) std::abort();
    if (step != Utf8Decoder::Step::kChar) continue;
    std::uint32_t cp = decoder.code_point();
    bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    if (control && allowed.find(static_cast<char>(cp)) == std::string_view::npos) std::abort();
  }
  if (decoder.pending()) std::abort();
}

struct Absolute {
  MarkKind kind;
  std::optional<int> exit_code;
  std::size_t end;
  std::string directory;
  bool operator==(const Absolute&) const = default;
};

std::vector<Absolute> marks_of(std::string_view input, std::size_t cut,
                               StatusTracker* tracker = nullptr) {
  ShellMarkScanner scanner;
  std::vector<Absolute> out;
  std::size_t offset = 0;
  for (std::string_view chunk : {input.substr(0, cut), input.substr(cut)}) {
    std::vector<ShellMark> marks;
    scanner.feed(chunk, marks);
    for (const ShellMark& m : marks) {
      if (m.end > chunk.size() || m.begin >= m.end) std::abort();
      // BEL, the backslash of ST (ESC backslash), or the last byte of the 8-bit ST, U+009C.
      if (chunk[m.end - 1] != '\x07' && chunk[m.end - 1] != '\\' && chunk[m.end - 1] != '\x9c')
        std::abort();
      if (m.exit_code && (m.kind != MarkKind::kCommandEnd || *m.exit_code < 0)) std::abort();
      if (m.kind == MarkKind::kWorkingDirectory) {
        if (!m.directory.starts_with('/') || m.directory.size() > 3 * VtParser::kMaxOscBytes)
          std::abort();
        check_text(m.directory, "");
      } else if (!m.directory.empty()) {
        std::abort();
      }
      out.push_back({m.kind, m.exit_code, m.end + offset, m.directory});
      // The tracker takes any sequence of marks (a clock that stands still included).
      if (tracker != nullptr) tracker->on_mark(m, StatusTracker::Clock::time_point{});
    }
    offset += chunk.size();
  }
  return out;
}

void check_plain(std::string_view input, std::size_t cut, std::size_t head, std::size_t tail) {
  PlainOutput whole(head, tail);
  whole.feed(input);
  PlainOutput split(head, tail);
  split.feed(input.substr(0, cut));
  split.feed(input.substr(cut));
  std::string text = whole.text();
  if (text != split.text() || whole.plain_bytes() != split.plain_bytes() ||
      whole.truncated() != split.truncated())
    std::abort();
  check_text(text, "\t\n");
  if (whole.truncated()) {
    if (text.size() > head + tail + 64 || text.find("[wharf: ") == std::string::npos) std::abort();
  } else if (text.size() != whole.plain_bytes()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t cut = input.size() * data[0] / 255;

  StatusTracker tracker;
  if (marks_of(input, cut, &tracker) != marks_of(input, 0)) std::abort();
  const ProgramStatus& status = tracker.status();
  if (status.command && status.command->duration_ms && *status.command->duration_ms != 0)
    std::abort();  // the clock never moved
  check_text(status_message(1, status, "/home/me"), "");
  check_plain(input, cut, 1 << 16, 1 << 16);
  check_plain(input, cut, 16, 16);

  PastedText paste = encode_paste(input, true);
  std::string_view bytes = paste.bytes;
  if (!bytes.starts_with(kPasteStart) || !bytes.ends_with(kPasteEnd)) std::abort();
  check_text(bytes.substr(kPasteStart.size(), bytes.size() - kPasteStart.size() - kPasteEnd.size()),
             "\t\r");
  return 0;
}
