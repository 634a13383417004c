#include "core/shell_marks.hpp"

#include <algorithm>
#include <cstring>

#include "core/utf8.hpp"

namespace wharf::core {
namespace {

constexpr unsigned char kEscByte = 0x1b;
constexpr unsigned char kBel = 0x07;
constexpr unsigned char kSt8 = 0x9c;   // the last byte of U+009C (ST) in UTF-8
constexpr unsigned char kOsc8 = 0x9d;  // the last byte of U+009D (OSC) in UTF-8
constexpr unsigned char kC1Lead = 0xc2;
constexpr std::string_view kPrefix = "133;";
constexpr std::size_t kMaxCodeDigits = 9;  // fits an int

// The bytes after which the scanner looks at where the parser stands: an OSC can only
// end at BEL, ESC or U+009C, and only begin at ESC ] (the ']' is fed alone) or U+009D.
// A feed also ends after C2, the lead byte of every C1 control: the parser's text loop
// prints ASCII that follows an unfinished lead byte without abandoning it, so C2 'A' 9D
// would open an OSC in one feed (not in xterm.js, nor when cut after the C2).
bool is_boundary(unsigned char c) {
  return c == kBel || c == kEscByte || c == kSt8 || c == kOsc8 || c == kC1Lead;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `payload` (an OSC's text) read as a 133 mark or an OSC 7 report, offsets left for the
// caller.
std::optional<ShellMark> parse_mark(std::string_view payload) {
  if (payload.starts_with("7;")) {
    std::optional<std::string> directory = parse_working_directory(payload);
    if (!directory) return std::nullopt;
    return ShellMark{MarkKind::kWorkingDirectory, std::nullopt, 0, 0, std::move(*directory)};
  }
  if (payload.size() > kMaxMarkBytes || payload.size() <= kPrefix.size() ||
      !payload.starts_with(kPrefix))
    return std::nullopt;
  MarkKind kind;
  switch (payload[kPrefix.size()]) {
    case 'A':
      kind = MarkKind::kPromptStart;
      break;
    case 'B':
      kind = MarkKind::kCommandStart;
      break;
    case 'C':
      kind = MarkKind::kOutputStart;
      break;
    case 'D':
      kind = MarkKind::kCommandEnd;
      break;
    default:
      return std::nullopt;
  }
  std::string_view rest = payload.substr(kPrefix.size() + 1);
  if (!rest.empty() && rest.front() != ';') return std::nullopt;  // "133;AB" is no mark
  std::optional<int> exit_code;
  if (kind == MarkKind::kCommandEnd && !rest.empty()) {
    rest.remove_prefix(1);
    std::string_view code = rest.substr(0, rest.find(';'));
    if (!code.empty() && code.size() <= kMaxCodeDigits &&
        std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      int n = 0;
      for (char c : code) n = n * 10 + (c - '0');
      exit_code = n;
    }
  }
  return ShellMark{kind, exit_code, 0, 0, {}};
}

}  // namespace

std::optional<std::string> parse_working_directory(std::string_view payload) {
  constexpr std::string_view kFilePrefix = "7;file://";
  if (!payload.starts_with(kFilePrefix)) return std::nullopt;
  std::string_view rest = payload.substr(kFilePrefix.size());
  std::size_t slash = rest.find('/');  // the host ends where the path begins
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view encoded = rest.substr(slash);
  std::string bytes;
  bytes.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (c == '%') {
      if (i + 2 >= encoded.size()) return std::nullopt;
      int high = hex_value(encoded[i + 1]);
      int low = hex_value(encoded[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      c = static_cast<char>(high * 16 + low);
      i += 2;
    }
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return std::nullopt;
    bytes.push_back(c);
  }
  // Invalid UTF-8 becomes U+FFFD (a window's text frame must be UTF-8); C1 controls are
  // refused like C0 ones.
  std::string path;
  path.reserve(bytes.size());
  Utf8Stream stream;
  bool control = false;
  auto valid = [&](std::string_view run) {
    for (std::size_t i = 0; i + 1 < run.size(); ++i)
      if (static_cast<unsigned char>(run[i]) == 0xc2 &&
          static_cast<unsigned char>(run[i + 1]) < 0xa0)
        control = true;
    path.append(run);
  };
  auto invalid = [&](unsigned char, std::size_t) { append_utf8(path, kReplacementCharacter); };
  stream.feed(bytes, valid, invalid);
  stream.finish(invalid);
  if (control) return std::nullopt;
  return path;
}

void ShellMarkScanner::feed(std::string_view chunk, std::vector<ShellMark>& out) {
  out_ = &out;
  // A sequence under way began in an earlier chunk.
  esc_at_ = 0;
  osc_begin_ = 0;
  if (awaiting_st_) awaiting_st_->begin = 0;
  const auto* bytes = reinterpret_cast<const unsigned char*>(chunk.data());
  std::size_t i = 0;
  while (i < chunk.size()) {
    VtParser::State before = parser_.state();
    if (before == VtParser::State::kGround && last_fed_ != kC1Lead) {
      // Text is not fed: only ESC or a C1 control (its lead byte C2) can leave the ground
      // state, and the parser needs no character of the text before them.
      std::size_t stop = chunk.size();
      if (const void* esc = std::memchr(bytes + i, kEscByte, stop - i))
        stop = static_cast<std::size_t>(static_cast<const unsigned char*>(esc) - bytes);
      if (const void* c1 = std::memchr(bytes + i, kC1Lead, stop - i))
        stop = static_cast<std::size_t>(static_cast<const unsigned char*>(c1) - bytes);
      i = stop;
      if (i == chunk.size()) break;
    }
    std::size_t end = i + 1;
    if (before != VtParser::State::kEscape) {  // after an ESC, byte by byte
      const unsigned char* boundary = std::find_if(bytes + i, bytes + chunk.size(), is_boundary);
      end = std::min(static_cast<std::size_t>(boundary - bytes) + 1, chunk.size());
    }
    fed_to_ = end;
    last_fed_ = bytes[end - 1];
    parser_.feed(chunk.substr(i, end - i));

    unsigned char previous = end >= 2 ? bytes[end - 2] : previous_chunk_;
    if (last_fed_ == kOsc8 && previous == kC1Lead) {
      osc_begin_ = end >= 2 ? end - 2 : 0;  // U+009D opened an OSC
    } else if (before == VtParser::State::kEscape &&
               parser_.state() == VtParser::State::kOscString) {
      osc_begin_ = esc_at_;  // ESC ]
    }
    if (last_fed_ == kEscByte) esc_at_ = end - 1;
    if (before == VtParser::State::kEscape) awaiting_st_.reset();  // that byte was not '\'
    i = end;
  }
  if (!chunk.empty()) previous_chunk_ = bytes[chunk.size() - 1];
  out_ = nullptr;
}

void ShellMarkScanner::osc_end(std::string_view payload, bool complete) {
  if (!complete) return;  // cancelled (CAN, SUB) or overlong
  std::optional<ShellMark> mark = parse_mark(payload);
  if (!mark) return;
  mark->begin = osc_begin_;
  if (last_fed_ == kEscByte) {  // ST, if the next byte is '\'
    awaiting_st_ = mark;
    return;
  }
  mark->end = fed_to_;  // just past the BEL or U+009C
  out_->push_back(*mark);
}

void ShellMarkScanner::esc_dispatch(VtCollect collect, char final_byte) {
  if (!awaiting_st_ || collect != 0 || final_byte != '\\') return;
  awaiting_st_->end = fed_to_;
  out_->push_back(*awaiting_st_);
  awaiting_st_.reset();
}

}  // namespace wharf::core
