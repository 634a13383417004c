#include "core/emulator_guard.hpp"

#include <charconv>
#include <utility>

#include "core/utf8.hpp"

namespace wharf::core {
namespace {

constexpr std::size_t kMaxPending = 256;
constexpr int kMaxCsiArguments = 16;  // libvterm's CSI_ARGS_MAX

}  // namespace

bool may_be_zero_width(std::uint32_t cp) {
  struct Range {
    std::uint32_t first, last;
  };
  // Generous on purpose (Indic blocks whole): callers only lose a little by a false
  // positive (a redundant cursor placement, a REP of such a character dropped).
  static constexpr Range kRanges[] = {
      {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05C7},  {0x0610, 0x061A}, {0x064B, 0x065F},
      {0x0670, 0x0670}, {0x06D6, 0x06ED}, {0x0711, 0x0711},  {0x0730, 0x074A}, {0x07A6, 0x07B0},
      {0x0900, 0x0DFF}, {0x0E31, 0x0E3A}, {0x0E47, 0x0E4E},  {0x0EB1, 0x0EBC}, {0x0EC8, 0x0ECD},
      {0x1160, 0x11FF}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},  {0x200B, 0x200F}, {0x2028, 0x202E},
      {0x2060, 0x206F}, {0x20D0, 0x20FF}, {0x302A, 0x302F},  {0x3099, 0x309A}, {0xFE00, 0xFE0F},
      {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0000, 0xE0FFF}};
  if (cp < 0x300) return false;
  for (const Range& r : kRanges)
    if (cp >= r.first && cp <= r.last) return true;
  return false;
}

std::string_view EmulatorGuard::filter(std::string_view bytes, std::string& storage,
                                       std::vector<std::size_t>& alternate_entries) {
  // A sequence held back from the last feed is processed again, from its ESC.
  std::string joined;
  std::string_view input = bytes;
  if (!pending_.empty()) {
    joined = std::exchange(pending_, {});
    joined.append(bytes);
    input = joined;
  }
  std::string out;
  bool rewrite = !joined.empty();
  std::size_t copied_to = 0;  // input before this is already in `out`
  std::size_t seq_start = 0;  // where the current escape sequence began in `input`
  std::size_t seq_out = 0;    // ...and where it begins in the result
  // Removes the sequence ending at `i` from the result (bytes of it may already have
  // been copied, when a NUL inside it was dropped).
  auto cut_sequence = [&](std::size_t i) {
    if (!rewrite) {
      rewrite = true;
      out.assign(input.substr(0, copied_to));
    }
    out.append(input.substr(copied_to, i + 1 - copied_to));
    out.resize(seq_out);
    copied_to = i + 1;
  };

  for (std::size_t i = 0; i < input.size(); ++i) {
    auto c = static_cast<unsigned char>(input[i]);
    if (c == 0) {
      // NUL is padding to a terminal and ignored; libvterm 0.1.4 mishandles it inside
      // strings (an overflow found by fuzzing), so it never gets one.
      rewrite = true;
      out.append(input.substr(copied_to, i - copied_to));
      copied_to = i + 1;
      continue;
    }
    switch (state_) {
      case State::kText:
        if (continuation_ > 0 && (c & 0xC0) != 0x80) {
          // A UTF-8 sequence cut short: libvterm 0.1.4 can corrupt memory on this (found
          // by fuzzing), so the broken bytes become U+FFFD, as a terminal would show.
          rewrite = true;
          out.append(input.substr(copied_to, utf8_start_ - copied_to));
          out += "\xef\xbf\xbd";
          copied_to = i;
          continuation_ = 0;
        }
        if (c == 0x1b) {
          state_ = State::kEscape;
          escape_intermediate_ = false;
          seq_start = i;
          seq_out = (rewrite ? out.size() : 0) + (seq_start - copied_to);
        } else if (c >= 0x80) {
          if ((c & 0xC0) == 0x80 && continuation_ > 0) {
            partial_ = (partial_ << 6) | (c & 0x3F);
            if (--continuation_ == 0) last_ = partial_;
          } else if ((c & 0xE0) == 0xC0) {
            utf8_start_ = i, partial_ = c & 0x1F, continuation_ = 1;
          } else if ((c & 0xF0) == 0xE0) {
            utf8_start_ = i, partial_ = c & 0x0F, continuation_ = 2;
          } else if ((c & 0xF8) == 0xF0) {
            utf8_start_ = i, partial_ = c & 0x07, continuation_ = 3;
          } else {
            continuation_ = 0;
          }
        } else if (c >= 0x20 && c != 0x7f) {
          last_ = c;
          continuation_ = 0;
        }
        break;
      case State::kEscape:
        if (c == 0x1b) {  // ESC ESC: the second one starts the sequence
          seq_start = i;
          seq_out = (rewrite ? out.size() : 0) + (seq_start - copied_to);
          escape_intermediate_ = false;
        } else if (c == 0x18 || c == 0x1a) {
          state_ = State::kText;
        } else if (c < 0x20) {
          // a control inside an escape sequence runs without ending it
        } else if (c <= 0x2f) {
          escape_intermediate_ = true;  // ESC ( B and the like: the next byte is final
        } else if (escape_intermediate_) {
          state_ = State::kText;
        } else if (c == '[') {
          state_ = State::kCsi;
          params_.clear();
          separators_ = 0;
        } else if (c == ']' || c == 'P' || c == '_' || c == '^' || c == 'X') {
          state_ = State::kString;
        } else {
          state_ = State::kText;
        }
        break;
      case State::kCsi:
        if (c == 0x1b) {  // ESC abandons the sequence and starts another
          state_ = State::kEscape;
          escape_intermediate_ = false;
          seq_start = i;
          seq_out = (rewrite ? out.size() : 0) + (seq_start - copied_to);
          break;
        }
        if (c == 0x18 || c == 0x1a) {  // CAN and SUB cancel it
          state_ = State::kText;
          break;
        }
        if (c < 0x20) break;  // other controls run without ending the sequence
        if ((c == ';' || c == ':') && ++separators_ >= kMaxCsiArguments) {
          // One argument more than libvterm 0.1.4 has room for: it would write past its
          // array as it reads. Cancel the sequence there (CAN) and drop the rest of it.
          rewrite = true;
          out.append(input.substr(copied_to, i - copied_to));
          out.push_back('\x18');
          copied_to = i + 1;
          state_ = State::kDropCsi;
          break;
        }
        if (c >= 0x40 && c <= 0x7e) {
          state_ = State::kText;
          bool plain = params_.find_first_not_of("0123456789;") == std::string::npos;
          if (separators_ >= kMaxCsiArguments) {
            cut_sequence(i);  // (cannot happen: cancelled above; kept as a backstop)
          } else if (c == 'h' && params_.starts_with("?")) {
            std::string_view list = std::string_view(params_).substr(1);
            while (!list.empty()) {
              std::string_view item = list.substr(0, list.find(';'));
              if (item == "47" || item == "1047" || item == "1049") {
                alternate_entries.push_back(seq_out);
                break;
              }
              if (item.size() == list.size()) break;
              list.remove_prefix(item.size() + 1);
            }
          } else if (c == 'b' && plain) {
            cut_sequence(i);
            int count = 1;
            std::string_view first = std::string_view(params_).substr(0, params_.find(';'));
            if (!first.empty()) {
              std::from_chars(first.data(), first.data() + first.size(), count);
              if (count < 1) count = 1;
            }
            if (count > max_repeat_) count = max_repeat_;
            if (last_ != 0 && !may_be_zero_width(last_))
              for (int n = 0; n < count; ++n) append_utf8(out, last_);
          }
        } else if (params_.size() < 64) {
          params_.push_back(static_cast<char>(c));
        }
        break;
      case State::kDropCsi:
        if (c == 0x1b) {
          state_ = State::kEscape;
          escape_intermediate_ = false;
          seq_start = i;
          seq_out = (rewrite ? out.size() : 0) + (seq_start - copied_to);
        } else if (c == 0x18 || c == 0x1a || (c >= 0x40 && c <= 0x7e)) {
          state_ = State::kText;
        }
        if (state_ != State::kEscape) {
          out.append(input.substr(copied_to, i - copied_to));
          copied_to = i + 1;  // swallowed
        }
        break;
      case State::kString:
        if (c == 0x07) state_ = State::kText;
        if (c == 0x1b) state_ = State::kStringEscape;
        break;
      case State::kStringEscape:
        state_ = c == '\\' ? State::kText : State::kString;
        break;
    }
  }

  // Hold back an unfinished escape or CSI sequence (or UTF-8 character) so that it is
  // seen whole next time.
  std::size_t end = input.size();
  if (state_ == State::kText && continuation_ > 0 && utf8_start_ >= copied_to) {
    pending_.assign(input.substr(utf8_start_));
    end = utf8_start_;
    continuation_ = 0;
    rewrite = true;
  }
  if ((state_ == State::kEscape || state_ == State::kCsi) && seq_start >= copied_to &&
      input.size() - seq_start <= kMaxPending) {
    pending_.assign(input.substr(seq_start));
    end = seq_start;
    state_ = State::kText;
    rewrite = true;
  }
  if (!rewrite) return bytes;
  out.append(input.substr(copied_to, end - copied_to));
  storage = std::move(out);
  return storage;
}

}  // namespace wharf::core
