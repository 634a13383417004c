#include "core/plain_output.hpp"

#include <algorithm>

namespace wharf::core {
namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
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
  // The parser sees whole valid characters; an invalid stretch is one U+FFFD when it
  // falls in text and is dropped inside a sequence, where the parser would drop it.
  utf8_.feed(
      raw, [this](std::string_view run) { parser_.feed(run); },
      [this](unsigned char, std::size_t) {
        if (parser_.state() == VtParser::State::kGround) append_text(kReplacement);
      });
}

void PlainOutput::Reader::print(std::span<const char32_t> run) {
  utf8_.clear();
  for (char32_t cp : run) append_utf8(utf8_, static_cast<std::uint32_t>(cp));
  out_.append_text(utf8_);
}

// Whole UTF-8 characters onto the line; a full line goes on to kept_, cut between
// characters.
void PlainOutput::append_text(std::string_view utf8) {
  if (cr_pending_) {
    line_.clear();
    cr_pending_ = false;
  }
  while (!utf8.empty()) {
    std::size_t take = std::min(utf8.size(), kMaxPlainLineBytes - line_.size());
    while (take > 0 && take < utf8.size() && is_continuation(utf8[take])) --take;
    if (take == 0) {
      kept_.append(line_);
      line_.clear();
      continue;
    }
    line_ += utf8.substr(0, take);
    utf8.remove_prefix(take);
  }
}

// C0 and C1 controls, in text or inside a sequence: only LF, CR, TAB and BS leave a
// trace in the text.
void PlainOutput::control(char32_t code) {
  if (code == '\n') {
    line_.push_back('\n');
    kept_.append(line_);
    line_.clear();
    cr_pending_ = false;
  } else if (code == '\r') {
    cr_pending_ = true;
  } else if (code == '\t') {
    append_text("\t");
  } else if (code == '\b') {
    backspace();
  }
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
