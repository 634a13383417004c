#include "core/vt_parser.hpp"

#include <algorithm>

namespace wharf::core {
namespace {

using State = VtParser::State;

enum class Action : std::uint8_t {
  kIgnore,
  kError,
  kPrint,
  kExecute,
  kOscStart,
  kOscPut,
  kOscEnd,
  kCsiDispatch,
  kParam,
  kCollect,
  kEscDispatch,
  kClear,
  kDcsHook,
  kDcsPut,
  kDcsUnhook,
};

// Code points from U+00A0 up share one column of the table.
constexpr std::size_t kNonAsciiPrintable = 0xA0;
constexpr std::size_t kCodes = kNonAsciiPrintable + 1;
constexpr std::size_t kStates = static_cast<std::size_t>(State::kCount);

struct Transition {
  Action action = Action::kError;
  State next = State::kGround;
};

// The VT500 transition table as xterm.js 6.0.0 builds it (EscapeSequenceParser.ts), entry for
// entry, so that both parsers cut every input the same way. Later rules override earlier.
struct Table {
  std::array<std::array<Transition, kCodes>, kStates> t{};

  constexpr void add(std::size_t code, State s, Action a, State next) {
    t[static_cast<std::size_t>(s)][code] = Transition{a, next};
  }
  constexpr void range(std::size_t from, std::size_t to, State s, Action a, State next) {
    for (std::size_t c = from; c < to; ++c) add(c, s, a, next);
  }
  constexpr void executables(State s, Action a, State next) {
    range(0x00, 0x18, s, a, next);
    add(0x19, s, a, next);
    range(0x1c, 0x20, s, a, next);
  }
  constexpr void printables(State s, Action a, State next) { range(0x20, 0x7f, s, a, next); }
};

constexpr Table build_table() {
  Table table;
  for (std::size_t s = 0; s < kStates; ++s)
    for (std::size_t c = 0; c < kCodes; ++c)
      table.t[s][c] = Transition{Action::kError, State::kGround};
  table.printables(State::kGround, Action::kPrint, State::kGround);
  for (std::size_t i = 0; i < kStates; ++i) {
    auto s = static_cast<State>(i);
    for (int c : {0x18, 0x1a, 0x99, 0x9a})
      table.add(static_cast<std::size_t>(c), s, Action::kExecute, State::kGround);
    table.range(0x80, 0x90, s, Action::kExecute, State::kGround);
    table.range(0x90, 0x98, s, Action::kExecute, State::kGround);
    table.add(0x9c, s, Action::kIgnore, State::kGround);
    table.add(0x1b, s, Action::kClear, State::kEscape);
    table.add(0x9d, s, Action::kOscStart, State::kOscString);
    for (int c : {0x98, 0x9e, 0x9f})
      table.add(static_cast<std::size_t>(c), s, Action::kIgnore, State::kSosPmApcString);
    table.add(0x9b, s, Action::kClear, State::kCsiEntry);
    table.add(0x90, s, Action::kClear, State::kDcsEntry);
  }
  table.executables(State::kGround, Action::kExecute, State::kGround);
  table.executables(State::kEscape, Action::kExecute, State::kEscape);
  table.add(0x7f, State::kEscape, Action::kIgnore, State::kEscape);
  table.executables(State::kOscString, Action::kIgnore, State::kOscString);
  table.executables(State::kCsiEntry, Action::kExecute, State::kCsiEntry);
  table.add(0x7f, State::kCsiEntry, Action::kIgnore, State::kCsiEntry);
  table.executables(State::kCsiParam, Action::kExecute, State::kCsiParam);
  table.add(0x7f, State::kCsiParam, Action::kIgnore, State::kCsiParam);
  table.executables(State::kCsiIgnore, Action::kExecute, State::kCsiIgnore);
  table.executables(State::kCsiIntermediate, Action::kExecute, State::kCsiIntermediate);
  table.add(0x7f, State::kCsiIntermediate, Action::kIgnore, State::kCsiIntermediate);
  table.executables(State::kEscapeIntermediate, Action::kExecute, State::kEscapeIntermediate);
  table.add(0x7f, State::kEscapeIntermediate, Action::kIgnore, State::kEscapeIntermediate);
  // OSC
  table.add(0x5d, State::kEscape, Action::kOscStart, State::kOscString);
  table.printables(State::kOscString, Action::kOscPut, State::kOscString);
  table.add(0x7f, State::kOscString, Action::kOscPut, State::kOscString);
  for (int c : {0x9c, 0x1b, 0x18, 0x1a, 0x07})
    table.add(static_cast<std::size_t>(c), State::kOscString, Action::kOscEnd, State::kGround);
  table.range(0x1c, 0x20, State::kOscString, Action::kIgnore, State::kOscString);
  // SOS, PM, APC: consumed and ignored
  for (int c : {0x58, 0x5e, 0x5f})
    table.add(static_cast<std::size_t>(c), State::kEscape, Action::kIgnore, State::kSosPmApcString);
  table.printables(State::kSosPmApcString, Action::kIgnore, State::kSosPmApcString);
  table.executables(State::kSosPmApcString, Action::kIgnore, State::kSosPmApcString);
  table.add(0x9c, State::kSosPmApcString, Action::kIgnore, State::kGround);
  table.add(0x7f, State::kSosPmApcString, Action::kIgnore, State::kSosPmApcString);
  // CSI
  table.add(0x5b, State::kEscape, Action::kClear, State::kCsiEntry);
  table.range(0x40, 0x7f, State::kCsiEntry, Action::kCsiDispatch, State::kGround);
  table.range(0x30, 0x3c, State::kCsiEntry, Action::kParam, State::kCsiParam);
  table.range(0x3c, 0x40, State::kCsiEntry, Action::kCollect, State::kCsiParam);
  table.range(0x30, 0x3c, State::kCsiParam, Action::kParam, State::kCsiParam);
  table.range(0x40, 0x7f, State::kCsiParam, Action::kCsiDispatch, State::kGround);
  table.range(0x3c, 0x40, State::kCsiParam, Action::kIgnore, State::kCsiIgnore);
  table.range(0x20, 0x40, State::kCsiIgnore, Action::kIgnore, State::kCsiIgnore);
  table.add(0x7f, State::kCsiIgnore, Action::kIgnore, State::kCsiIgnore);
  table.range(0x40, 0x7f, State::kCsiIgnore, Action::kIgnore, State::kGround);
  table.range(0x20, 0x30, State::kCsiEntry, Action::kCollect, State::kCsiIntermediate);
  table.range(0x20, 0x30, State::kCsiIntermediate, Action::kCollect, State::kCsiIntermediate);
  table.range(0x30, 0x40, State::kCsiIntermediate, Action::kIgnore, State::kCsiIgnore);
  table.range(0x40, 0x7f, State::kCsiIntermediate, Action::kCsiDispatch, State::kGround);
  table.range(0x20, 0x30, State::kCsiParam, Action::kCollect, State::kCsiIntermediate);
  // ESC
  table.range(0x20, 0x30, State::kEscape, Action::kCollect, State::kEscapeIntermediate);
  table.range(0x20, 0x30, State::kEscapeIntermediate, Action::kCollect, State::kEscapeIntermediate);
  table.range(0x30, 0x7f, State::kEscapeIntermediate, Action::kEscDispatch, State::kGround);
  table.range(0x30, 0x50, State::kEscape, Action::kEscDispatch, State::kGround);
  table.range(0x51, 0x58, State::kEscape, Action::kEscDispatch, State::kGround);
  for (int c : {0x59, 0x5a, 0x5c})
    table.add(static_cast<std::size_t>(c), State::kEscape, Action::kEscDispatch, State::kGround);
  table.range(0x60, 0x7f, State::kEscape, Action::kEscDispatch, State::kGround);
  // DCS
  table.add(0x50, State::kEscape, Action::kClear, State::kDcsEntry);
  table.executables(State::kDcsEntry, Action::kIgnore, State::kDcsEntry);
  table.add(0x7f, State::kDcsEntry, Action::kIgnore, State::kDcsEntry);
  table.range(0x20, 0x30, State::kDcsEntry, Action::kCollect, State::kDcsIntermediate);
  table.range(0x30, 0x3c, State::kDcsEntry, Action::kParam, State::kDcsParam);
  table.range(0x3c, 0x40, State::kDcsEntry, Action::kCollect, State::kDcsParam);
  table.executables(State::kDcsIgnore, Action::kIgnore, State::kDcsIgnore);
  table.range(0x20, 0x80, State::kDcsIgnore, Action::kIgnore, State::kDcsIgnore);
  table.executables(State::kDcsParam, Action::kIgnore, State::kDcsParam);
  table.add(0x7f, State::kDcsParam, Action::kIgnore, State::kDcsParam);
  table.range(0x30, 0x3c, State::kDcsParam, Action::kParam, State::kDcsParam);
  table.range(0x3c, 0x40, State::kDcsParam, Action::kIgnore, State::kDcsIgnore);
  table.range(0x20, 0x30, State::kDcsParam, Action::kCollect, State::kDcsIntermediate);
  table.executables(State::kDcsIntermediate, Action::kIgnore, State::kDcsIntermediate);
  table.add(0x7f, State::kDcsIntermediate, Action::kIgnore, State::kDcsIntermediate);
  table.range(0x20, 0x30, State::kDcsIntermediate, Action::kCollect, State::kDcsIntermediate);
  table.range(0x30, 0x40, State::kDcsIntermediate, Action::kIgnore, State::kDcsIgnore);
  table.range(0x40, 0x7f, State::kDcsIntermediate, Action::kDcsHook, State::kDcsPassthrough);
  table.range(0x40, 0x7f, State::kDcsParam, Action::kDcsHook, State::kDcsPassthrough);
  table.range(0x40, 0x7f, State::kDcsEntry, Action::kDcsHook, State::kDcsPassthrough);
  table.executables(State::kDcsPassthrough, Action::kDcsPut, State::kDcsPassthrough);
  table.printables(State::kDcsPassthrough, Action::kDcsPut, State::kDcsPassthrough);
  table.add(0x7f, State::kDcsPassthrough, Action::kIgnore, State::kDcsPassthrough);
  for (int c : {0x1b, 0x9c, 0x18, 0x1a})
    table.add(static_cast<std::size_t>(c), State::kDcsPassthrough, Action::kDcsUnhook,
              State::kGround);
  // From U+00A0 up.
  table.add(kNonAsciiPrintable, State::kGround, Action::kPrint, State::kGround);
  table.add(kNonAsciiPrintable, State::kOscString, Action::kOscPut, State::kOscString);
  table.add(kNonAsciiPrintable, State::kCsiIgnore, Action::kIgnore, State::kCsiIgnore);
  table.add(kNonAsciiPrintable, State::kDcsIgnore, Action::kIgnore, State::kDcsIgnore);
  table.add(kNonAsciiPrintable, State::kDcsPassthrough, Action::kDcsPut, State::kDcsPassthrough);
  return table;
}

constexpr Table kTable = build_table();

bool is_printable_ascii(unsigned char c) {
  return c >= 0x20 && c < 0x7f;
}

}  // namespace

void VtParams::reset() {
  count_ = 1;
  values_[0] = 0;
  sub_begin_[0] = 0;
  sub_end_[0] = 0;
  sub_count_ = 0;
  digit_is_sub_ = false;
  reject_digits_ = false;
  reject_sub_digits_ = false;
}

void VtParams::add_param() {
  digit_is_sub_ = false;
  if (count_ >= kMaxParams) {
    reject_digits_ = true;
    return;
  }
  auto at = static_cast<std::uint8_t>(sub_count_);
  sub_begin_[index(count_)] = at;
  sub_end_[index(count_)] = at;
  values_[index(count_++)] = 0;
}

void VtParams::add_sub_param() {
  digit_is_sub_ = true;
  if (reject_digits_ || sub_count_ >= kMaxSubParams) {
    reject_sub_digits_ = true;
    return;
  }
  subs_[index(sub_count_++)] = -1;
  ++sub_end_[index(count_ - 1)];
}

void VtParams::add_digit(int digit) {
  if (reject_digits_ || (digit_is_sub_ && (reject_sub_digits_ || sub_count_ == 0))) return;
  std::int32_t& cur = digit_is_sub_ ? subs_[index(sub_count_ - 1)] : values_[index(count_ - 1)];
  if (cur < 0) {
    cur = digit;
    return;
  }
  std::int64_t next = static_cast<std::int64_t>(cur) * 10 + digit;
  cur = static_cast<std::int32_t>(std::min<std::int64_t>(next, kMaxParamValue));
}

void VtParser::reset() {
  flush_text();
  state_ = State::kGround;
  utf8_.reset();
  params_.reset();
  collect_ = 0;
  osc_.clear();
  dcs_.clear();
}

void VtParser::flush_text() {
  if (text_length_ == 0) return;
  handler_.print(std::span<const char32_t>(text_.data(), text_length_));
  text_length_ = 0;
}

// Ground state text: printable ASCII goes over as a run of the input's own bytes; other
// printable text is decoded into a run of code points. Stops before anything else (a
// control, an escape, a byte that does not start printable text).
void VtParser::ground_text(const unsigned char*& p, const unsigned char* end) {
  while (p < end) {
    if (text_length_ == 0 && is_printable_ascii(*p)) {
      utf8_.reset();  // a character cut short by ASCII is dropped, as xterm.js drops it
      const unsigned char* q = p + 1;
      while (q < end && is_printable_ascii(*q)) ++q;
      if (q == end || *q < 0x80) {
        handler_.print_ascii(
            std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(q - p)));
        p = q;
        return;
      }
    }
    unsigned char byte = *p;
    if (byte < 0x80) {
      utf8_.reset();  // a character cut short by ASCII is dropped, as xterm.js drops it
      if (!is_printable_ascii(byte)) break;
      text_[text_length_++] = byte;
      ++p;
    } else {
      Utf8Decoder::Step decoded = utf8_.feed(byte);
      if (decoded == Utf8Decoder::Step::kMore || decoded == Utf8Decoder::Step::kInvalid) {
        ++p;
        continue;
      }
      if (decoded == Utf8Decoder::Step::kRetry) continue;  // the byte starts afresh
      char32_t cp = utf8_.code_point();
      ++p;
      if (cp < kNonAsciiPrintable) {  // a C1 control (U+0080..U+009F): the table's business
        flush_text();
        step(cp);
        return;
      }
      if (cp == 0xFEFF) continue;
      text_[text_length_++] = cp;
    }
    if (text_length_ == kTextChunk) flush_text();
  }
  flush_text();
}

void VtParser::feed(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* end = p + bytes.size();
  while (p < end) {
    if (state_ == State::kGround && !utf8_.pending()) {
      const unsigned char* before = p;
      ground_text(p, end);
      if (p == end) break;
      if (p != before) continue;
    }
    unsigned char byte = *p;
    char32_t code;
    if (byte < 0x80 && !utf8_.pending()) {
      code = byte;
      ++p;
      // OSC text in bulk: printable ASCII straight into the payload.
      if (state_ == State::kOscString && is_printable_ascii(byte)) {
        const unsigned char* q = p;
        while (q < end && is_printable_ascii(*q)) ++q;
        std::size_t room = kMaxOscBytes > osc_.size() ? kMaxOscBytes - osc_.size() : 0;
        std::size_t n = static_cast<std::size_t>(q - p) + 1;
        if (n > room) osc_overflow_ = true;
        osc_.append(reinterpret_cast<const char*>(p - 1), std::min(n, room));
        p = q;
        continue;
      }
    } else {
      Utf8Decoder::Step step = utf8_.feed(byte);
      if (step == Utf8Decoder::Step::kRetry) continue;
      ++p;
      if (step != Utf8Decoder::Step::kChar) continue;
      code = utf8_.code_point();
      if (code == 0xFEFF) continue;
    }
    step(code);
  }
}

void VtParser::put_string(std::string& buffer, std::size_t limit, bool& overflow, char32_t code) {
  std::size_t before = buffer.size();
  append_utf8(buffer, code);
  if (buffer.size() > limit) {
    buffer.resize(before);
    overflow = true;
  }
}

void VtParser::step(char32_t code) {
  std::size_t column = code < kNonAsciiPrintable ? code : kNonAsciiPrintable;
  Transition t = kTable.t[static_cast<std::size_t>(state_)][column];
  switch (t.action) {
    case Action::kIgnore:
    case Action::kError:
      break;
    case Action::kPrint: {
      char32_t one[1] = {code};
      handler_.print(std::span<const char32_t>(one, 1));
      break;
    }
    case Action::kExecute:
      handler_.execute(code);
      break;
    case Action::kCsiDispatch:
      handler_.csi_dispatch(params_, collect_, static_cast<char>(code));
      break;
    case Action::kParam:
      if (code == ';')
        params_.add_param();
      else if (code == ':')
        params_.add_sub_param();
      else
        params_.add_digit(static_cast<int>(code - '0'));
      break;
    case Action::kCollect:
      collect_ = (collect_ << 8) | static_cast<VtCollect>(code);
      break;
    case Action::kEscDispatch:
      handler_.esc_dispatch(collect_, static_cast<char>(code));
      break;
    case Action::kClear:
      params_.reset();
      collect_ = 0;
      break;
    case Action::kOscStart:
      osc_.clear();
      osc_overflow_ = false;
      break;
    case Action::kOscPut:
      put_string(osc_, kMaxOscBytes, osc_overflow_, code);
      break;
    case Action::kOscEnd:
      handler_.osc_end(osc_, !osc_overflow_ && code != 0x18 && code != 0x1a);
      osc_.clear();
      params_.reset();
      collect_ = 0;
      if (code == 0x1b) t.next = State::kEscape;
      break;
    case Action::kDcsHook:
      dcs_params_ = params_;
      dcs_collect_ = collect_;
      dcs_final_ = static_cast<char>(code);
      dcs_.clear();
      dcs_overflow_ = false;
      break;
    case Action::kDcsPut:
      put_string(dcs_, kMaxDcsBytes, dcs_overflow_, code);
      break;
    case Action::kDcsUnhook:
      handler_.dcs_end(dcs_params_, dcs_collect_, dcs_final_, dcs_,
                       !dcs_overflow_ && code != 0x18 && code != 0x1a);
      dcs_.clear();
      params_.reset();
      collect_ = 0;
      if (code == 0x1b) t.next = State::kEscape;
      break;
  }
  state_ = t.next;
}

}  // namespace wharf::core
