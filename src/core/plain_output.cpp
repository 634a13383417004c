#include "core/plain_output.hpp"

namespace wharf::core {
namespace {

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kBel = 0x07;
constexpr unsigned char kCan = 0x18;
constexpr unsigned char kSub = 0x1a;
constexpr unsigned char kDel = 0x7f;
constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

bool is_printable_ascii(unsigned char c) {
  return c >= 0x20 && c < 0x7f;
}

}  // namespace

void PlainOutput::Kept::append(std::string_view text) {
  total_ += text.size();
  if (!head_full_) {
    std::size_t room = head_cap_ - head_.size();
    if (text.size() <= room) {
      head_ += text;
      return;
    }
    std::size_t cut = room;
    while (cut > 0 && is_continuation(text[cut])) --cut;
    head_ += text.substr(0, cut);
    head_full_ = true;
    text.remove_prefix(cut);
  }
  tail_ += text;
  std::size_t kept = tail_.size() - tail_start_;
  if (kept <= tail_cap_) return;
  std::size_t start = tail_start_ + (kept - tail_cap_);
  while (start < tail_.size() && is_continuation(tail_[start])) ++start;
  omitted_ += start - tail_start_;
  tail_start_ = start;
  if (tail_start_ > tail_cap_) {
    tail_.erase(0, tail_start_);
    tail_start_ = 0;
  }
}

std::string PlainOutput::Kept::render() const {
  std::string out = head_;
  if (omitted_ > 0) {
    if (!out.empty() && out.back() != '\n') out.push_back('\n');
    out += "[wharf: " + std::to_string(omitted_) + " bytes of output omitted]\n";
  }
  out.append(tail_, tail_start_);
  return out;
}

PlainOutput::PlainOutput(std::size_t head_bytes, std::size_t tail_bytes)
    : kept_(head_bytes, tail_bytes) {}

void PlainOutput::feed(std::string_view raw) {
  std::size_t i = 0;
  while (i < raw.size()) {
    // The common case, a run of printable ASCII, goes to the line in one piece.
    if (state_ == State::kGround && !decoder_.pending() &&
        is_printable_ascii(static_cast<unsigned char>(raw[i]))) {
      std::size_t run = i + 1;
      while (run < raw.size() && is_printable_ascii(static_cast<unsigned char>(raw[run]))) ++run;
      std::string_view text = raw.substr(i, run - i);
      if (cr_pending_) {
        line_.clear();
        cr_pending_ = false;
      }
      while (!text.empty()) {
        if (line_.size() == kMaxPlainLineBytes) {
          kept_.append(line_);
          line_.clear();
        }
        std::size_t take = std::min(text.size(), kMaxPlainLineBytes - line_.size());
        line_ += text.substr(0, take);
        text.remove_prefix(take);
      }
      i = run;
      continue;
    }
    byte(static_cast<unsigned char>(raw[i++]));
  }
}

void PlainOutput::byte(unsigned char c) {
  switch (state_) {
    case State::kGround:
      if (c == kEsc || c < 0x20 || c == kDel) {
        flush_broken_character();
        if (c == kEsc) {
          state_ = State::kEscape;
        } else {
          control(c);
        }
        return;
      }
      switch (decoder_.feed(c)) {
        case Utf8Decoder::Step::kMore:
          return;
        case Utf8Decoder::Step::kChar: {
          std::uint32_t cp = decoder_.code_point();
          if (cp >= 0x80 && cp <= 0x9f) return;  // a C1 control
          std::string utf8;
          append_utf8(utf8, cp);
          character(utf8);
          return;
        }
        case Utf8Decoder::Step::kRetry:  // a character cut short; this byte starts afresh
          character(kReplacement);
          byte(c);
          return;
        case Utf8Decoder::Step::kInvalid:
          character(kReplacement);
          return;
      }
      return;
    case State::kEscape:
      if (c == '[') {
        state_ = State::kCsi;
      } else if (c == ']') {
        state_ = State::kOsc;
      } else if (c == 'P' || c == 'X' || c == '^' || c == '_') {
        state_ = State::kString;
      } else if (c >= 0x20 && c <= 0x2f) {
        state_ = State::kIntermediate;
      } else if (c == kCan || c == kSub || (c >= 0x30 && c < 0x7f)) {
        state_ = State::kGround;  // a two-byte sequence (ESC 7, ESC =, ESC M...) or cancelled
      } else if (c >= 0x80) {
        state_ = State::kGround;
        byte(c);
      } else if (c != kEsc && c != kDel) {
        control(c);  // a VT parser executes C0 controls inside a sequence
      }
      return;
    case State::kIntermediate:
    case State::kCsi: {
      bool intermediate = state_ == State::kIntermediate;
      bool final = intermediate ? (c >= 0x30 && c < 0x7f) : (c >= 0x40 && c < 0x7f);
      if (final || c == kCan || c == kSub) {
        state_ = State::kGround;
      } else if (c == kEsc) {
        state_ = State::kEscape;
      } else if (c >= 0x80) {
        state_ = State::kGround;
        byte(c);
      } else if (c < 0x20) {
        control(c);
      }
      return;
    }
    case State::kOsc:
    case State::kString:
      if (c == kEsc) {
        state_ = State::kStringEscape;
      } else if (c == kCan || c == kSub || (c == kBel && state_ == State::kOsc)) {
        state_ = State::kGround;
      }
      return;
    case State::kStringEscape:
      if (c == '\\') {
        state_ = State::kGround;
      } else {
        state_ = State::kEscape;  // the ESC began a new sequence; the string was cut off
        byte(c);
      }
      return;
  }
}

void PlainOutput::control(unsigned char c) {
  if (c == '\n') {
    line_.push_back('\n');
    kept_.append(line_);
    line_.clear();
    cr_pending_ = false;
  } else if (c == '\r') {
    cr_pending_ = true;
  } else if (c == '\t') {
    character("\t");
  } else if (c == '\b') {
    backspace();
  }
}

void PlainOutput::character(std::string_view utf8) {
  if (cr_pending_) {
    line_.clear();
    cr_pending_ = false;
  }
  if (line_.size() + utf8.size() > kMaxPlainLineBytes) {
    kept_.append(line_);
    line_.clear();
  }
  line_ += utf8;
}

void PlainOutput::flush_broken_character() {
  if (!decoder_.pending()) return;
  decoder_.reset();
  character(kReplacement);
}

void PlainOutput::backspace() {
  if (cr_pending_ || line_.empty()) return;  // the cursor is at the line's start
  while (!line_.empty() && is_continuation(line_.back())) line_.pop_back();
  if (!line_.empty()) line_.pop_back();
}

std::string PlainOutput::text() const {
  if (line_.empty()) return kept_.render();
  Kept with_line = kept_;
  with_line.append(line_);
  return with_line.render();
}

bool PlainOutput::truncated() const {
  if (line_.empty()) return kept_.omitted() > 0;
  Kept with_line = kept_;
  with_line.append(line_);
  return with_line.omitted() > 0;
}

std::uint64_t PlainOutput::plain_bytes() const {
  return kept_.total() + line_.size();
}

}  // namespace wharf::core
