#include "core/shell_marks.hpp"

#include <cstring>

namespace wharf::core {
namespace {

constexpr unsigned char kEscByte = 0x1b;
constexpr unsigned char kBel = 0x07;
constexpr unsigned char kCan = 0x18;  // CAN and SUB cancel a sequence in a VT parser
constexpr unsigned char kSub = 0x1a;
constexpr std::string_view kPrefix = "133;";
constexpr int kMaxCodeDigits = 9;  // fits an int

}  // namespace

void ShellMarkScanner::feed(std::string_view chunk, std::vector<ShellMark>& out) {
  // A sequence under way began in an earlier chunk.
  begin_ = 0;
  esc_at_ = 0;
  const char* data = chunk.data();
  std::size_t size = chunk.size();
  std::size_t i = 0;
  while (i < size) {
    if (state_ == State::kGround) {
      const void* esc = std::memchr(data + i, kEscByte, size - i);
      if (esc == nullptr) return;
      i = static_cast<std::size_t>(static_cast<const char*>(esc) - data);
      begin_ = i++;
      state_ = State::kEscape;
      continue;
    }
    auto c = static_cast<unsigned char>(data[i++]);
    switch (state_) {
      case State::kGround:
        break;
      case State::kEscape:
        if (c == ']') {
          start_osc(begin_);
        } else if (c == kEscByte) {
          begin_ = i - 1;
        } else {
          state_ = State::kGround;  // any other sequence: its bytes hold no ESC ] to find
        }
        break;
      case State::kOsc:
        if (c == kBel) {
          finish(i, out);
        } else if (c == kEscByte) {
          esc_at_ = i - 1;
          state_ = State::kOscEscape;
        } else if (c == kCan || c == kSub) {
          state_ = State::kGround;
        } else {
          osc_body(c);
        }
        break;
      case State::kOscEscape:
        if (c == '\\') {
          finish(i, out);
        } else {
          // ESC not followed by '\' ends the OSC unfinished and starts a new sequence.
          begin_ = esc_at_;
          state_ = State::kEscape;
          --i;
        }
        break;
    }
  }
}

void ShellMarkScanner::start_osc(std::size_t begin) {
  state_ = State::kOsc;
  phase_ = Phase::kPrefix;
  prefix_matched_ = 0;
  code_digits_ = 0;
  code_valid_ = true;
  code_ = 0;
  body_bytes_ = 0;
  begin_ = begin;
}

void ShellMarkScanner::osc_body(unsigned char c) {
  if (phase_ == Phase::kNotAMark) return;  // skipped to its terminator, unread
  if (++body_bytes_ > kMaxMarkBytes) {
    phase_ = Phase::kNotAMark;
    return;
  }
  switch (phase_) {
    case Phase::kPrefix:
      if (c != static_cast<unsigned char>(kPrefix[prefix_matched_])) {
        phase_ = Phase::kNotAMark;
      } else if (static_cast<std::size_t>(++prefix_matched_) == kPrefix.size()) {
        phase_ = Phase::kLetter;
      }
      break;
    case Phase::kLetter:
      phase_ = Phase::kAfterLetter;
      if (c == 'A') {
        kind_ = MarkKind::kPromptStart;
      } else if (c == 'B') {
        kind_ = MarkKind::kCommandStart;
      } else if (c == 'C') {
        kind_ = MarkKind::kOutputStart;
      } else if (c == 'D') {
        kind_ = MarkKind::kCommandEnd;
      } else {
        phase_ = Phase::kNotAMark;
      }
      break;
    case Phase::kAfterLetter:
      if (c != ';') {
        phase_ = Phase::kNotAMark;  // "133;AB" is no mark
      } else {
        phase_ = kind_ == MarkKind::kCommandEnd ? Phase::kCode : Phase::kParams;
      }
      break;
    case Phase::kCode:
      if (c == ';') {
        phase_ = Phase::kParams;
      } else if (c >= '0' && c <= '9' && code_digits_ < kMaxCodeDigits) {
        code_ = code_ * 10 + (c - '0');
        ++code_digits_;
      } else {
        code_valid_ = false;
      }
      break;
    case Phase::kParams:
    case Phase::kNotAMark:
      break;
  }
}

void ShellMarkScanner::finish(std::size_t end, std::vector<ShellMark>& out) {
  state_ = State::kGround;
  if (phase_ != Phase::kAfterLetter && phase_ != Phase::kCode && phase_ != Phase::kParams) return;
  std::optional<int> exit_code;
  if (kind_ == MarkKind::kCommandEnd && code_valid_ && code_digits_ > 0) exit_code = code_;
  out.push_back(ShellMark{kind_, exit_code, end, begin_});
}

}  // namespace wharf::core
