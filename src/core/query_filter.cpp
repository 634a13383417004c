#include "core/query_filter.hpp"

#include <algorithm>
#include <array>

namespace wharf::core {
namespace {

using State = VtParser::State;

constexpr unsigned char kEsc = 0x1b;
constexpr unsigned char kEnq = 0x05;  // asks for the answerback message
constexpr unsigned char kC1Lead = 0xc2;

// C2 80..9F is U+0080..U+009F, a C1 control.
bool is_c1_second(unsigned char c) {
  return c >= 0x80 && c <= 0x9f;
}

// The bytes that matter in text: everything else stays text whatever follows.
bool matters_in_text(unsigned char c) {
  return c == kEsc || c == kEnq || c == kC1Lead;
}

// The bytes that may end a string (or, once it ended, matter in the text after it).
bool matters_in_string(unsigned char c) {
  return matters_in_text(c) || c == 0x07 || c == 0x18 || c == 0x1a;
}

bool is_string(State s) {
  switch (s) {
    case State::kOscString:
    case State::kDcsPassthrough:
    case State::kDcsIgnore:
    case State::kSosPmApcString:
      return true;
    default:
      return false;
  }
}

// XTWINOPS that produce a report; the others (title stack, moves, resizes) are harmless.
bool is_window_report(std::int32_t op) {
  constexpr std::array kReports{11, 13, 14, 15, 16, 18, 19, 20, 21};
  return std::find(kReports.begin(), kReports.end(), op) != kReports.end();
}

bool is_query(const VtParams& params, VtCollect collect, char f) {
  switch (collect) {
    case 0:  // DA1, DSR/CPR, DECREQTPARM, window reports
      return f == 'c' || f == 'n' || f == 'x' || (f == 't' && is_window_report(params[0]));
    case vt_collect(">"):  // DA2, XTVERSION
      return f == 'c' || f == 'q';
    case vt_collect("="):  // DA3
      return f == 'c';
    case vt_collect("?"):  // DECXCPR and other DSRs, kitty keyboard flags, XTQMODKEYS, XTSMGRAPHICS
      return f == 'n' || f == 'u' || f == 'm' || f == 'S';
    case vt_collect("$"):  // DECRQM (ANSI modes), DECRQPSR
      return f == 'p' || f == 'w';
    case vt_collect("?$"):  // DECRQM (DEC modes)
      return f == 'p';
    case vt_collect("*"):  // DECRQCRA
      return f == 'y';
    default:
      return false;
  }
}

// OSC numbers whose "?" form asks for a colour: palette, special colours, dynamic colours.
bool is_colour_osc(int number) {
  return number == 4 || number == 5 || (number >= 10 && number <= 19);
}

// A whole OSC payload that asks something or touches the clipboard. OSC 4;1;? asks,
// OSC 4;1;rgb:ff/00/00 sets: only the asking form is a query.
bool osc_is_query(std::string_view payload) {
  std::size_t digits = 0;
  int number = 0;
  while (digits < payload.size() && digits < 6 && payload[digits] >= '0' && payload[digits] <= '9')
    number = number * 10 + (payload[digits++] - '0');
  if (digits == payload.size() || payload[digits] != ';') return false;
  return number == 52 || (is_colour_osc(number) && payload.find('?') != std::string_view::npos);
}

}  // namespace

void QueryFilter::Judge::esc_dispatch(VtCollect collect, char final_byte) {
  if (collect != 0) return;
  if (final_byte == 'Z') filter_.query_ = true;  // DECID: an old way to ask for DA
  if (final_byte == '\\' && filter_.drop_st_) filter_.query_ = true;
}

void QueryFilter::Judge::csi_dispatch(const VtParams& params, VtCollect collect, char final_byte) {
  if (is_query(params, collect, final_byte)) {
    filter_.query_ = true;
    return;
  }
  if (collect == vt_collect("?") && (final_byte == 'h' || final_byte == 'l')) {
    for (int i = 0; i < params.size(); ++i) {
      std::int32_t mode = params[i];
      if (mode == 47 || mode == 1047 || mode == 1049) filter_.alternate_screen_ = final_byte == 'h';
    }
  }
}

void QueryFilter::Judge::osc_end(std::string_view payload, bool complete) {
  filter_.string_ended_ = true;
  // A withheld OSC (a colour one, or one ended before its number was read) is judged
  // whole; a cancelled or overlong one asks nothing.
  if (filter_.fate_ == Fate::kHeld && complete && osc_is_query(payload)) filter_.query_ = true;
}

void QueryFilter::reset() {
  parser_.reset();
  held_.clear();
  fate_ = Fate::kPass;
  body_at_ = 0;
  colour_osc_ = false;
  drop_st_ = false;
  c2_pending_ = false;
  alternate_screen_ = false;
}

void QueryFilter::filter(std::string_view bytes, std::string& out) {
  out.reserve(out.size() + bytes.size());
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t i = 0;
  if (c2_pending_ && !bytes.empty()) {
    c2_pending_ = false;
    if (is_c1_second(data[0])) {
      const char pair[2] = {static_cast<char>(kC1Lead), bytes[0]};
      unit(std::string_view(pair, 2), out);
      i = 1;
    } else {
      const char lead = static_cast<char>(kC1Lead);
      unit(std::string_view(&lead, 1), out);
    }
  }
  while (i < bytes.size()) {
    State state = parser_.state();
    if (state == State::kGround) {
      // Text goes out in runs, unparsed: only ESC, ENQ and a C1 control can matter.
      const unsigned char* next = std::find_if(data + i, data + bytes.size(), matters_in_text);
      auto end = static_cast<std::size_t>(next - data);
      out.append(bytes.substr(i, end - i));
      i = end;
      if (i == bytes.size()) break;
    } else if (fate_ != Fate::kHeld && is_string(state)) {
      // A string already judged streams through the parser up to what may end it.
      const unsigned char* next = std::find_if(data + i, data + bytes.size(), matters_in_string);
      auto end = static_cast<std::size_t>(next - data);
      if (end > i) {
        std::string_view run = bytes.substr(i, end - i);
        parser_.feed(run);
        append(run, out);
        i = end;
        // An SOS, PM or APC string ends at a character it cannot hold; what followed it
        // was text, and went out as this string did (only dropped strings cannot end so).
        if (parser_.state() == State::kGround) finish(out);
        continue;
      }
    }
    if (data[i] == kC1Lead) {
      if (i + 1 == bytes.size()) {  // judged with the next feed's first byte
        c2_pending_ = true;
        break;
      }
      std::size_t n = is_c1_second(data[i + 1]) ? 2 : 1;
      unit(bytes.substr(i, n), out);
      i += n;
    } else {
      unit(bytes.substr(i, 1), out);
      ++i;
    }
  }
}

void QueryFilter::unit(std::string_view bytes, std::string& out) {
  const State before = parser_.state();
  const auto first = static_cast<unsigned char>(bytes[0]);
  const bool c1 = bytes.size() == 2;
  if (before == State::kGround) {
    if (first == kEnq) return;  // answered by the daemon; a terminal has no business with it
    if (first != kEsc && !c1) {
      out += bytes;  // text (a lone C2, with what follows it)
      return;
    }
  }
  executed_ = false;
  query_ = false;
  string_ended_ = false;
  parser_.feed(bytes);
  const State after = parser_.state();

  // ESC and the C1 introducers start a new sequence from any state, ending the one under
  // way (the terminator of a string, or the abandonment of anything else).
  if (first == kEsc || (c1 && after != State::kGround)) {
    bool drop_st = false;
    if (before != State::kGround) drop_st = finish(out) == Fate::kDrop && string_ended_;
    drop_st_ = drop_st;
    held_.assign(bytes);
    fate_ = Fate::kHeld;
    colour_osc_ = false;
    body_at_ = held_.size();
    classify(out);
    return;
  }
  if (before == State::kGround) {
    out += bytes;  // a C1 control executed in text
    return;
  }
  if (after == State::kGround) {  // the unit ends the sequence
    append(bytes, out);
    finish(out);
    return;
  }
  if (executed_) {  // a C0 control the terminal executes at once, inside the sequence
    if (first != kEnq) out += bytes;
    return;
  }
  append(bytes, out);
  if (fate_ != Fate::kHeld) return;
  if (after != before && (after == State::kOscString || after == State::kDcsEntry))
    body_at_ = held_.size();
  classify(out);
}

void QueryFilter::append(std::string_view bytes, std::string& out) {
  if (fate_ == Fate::kHeld) {
    held_ += bytes;
  } else if (fate_ == Fate::kPass) {
    out += bytes;
  }
}

// Decides a withheld sequence as soon as where the parser stands tells enough.
void QueryFilter::classify(std::string& out) {
  if (fate_ != Fate::kHeld) return;
  switch (parser_.state()) {
    case State::kOscString:
      if (!colour_osc_) classify_osc(out);
      break;
    case State::kDcsPassthrough:
      classify_dcs(out);
      break;
    case State::kDcsIgnore:
    case State::kSosPmApcString:
      pass(out);  // never queries
      break;
    default:
      break;
  }
  if (fate_ == Fate::kHeld && held_.size() >= kMaxHeld) pass(out);  // too long for a query
}

// An OSC is judged by its number: 52 (clipboard) goes, a colour OSC waits for its end,
// any other passes.
void QueryFilter::classify_osc(std::string& out) {
  std::size_t digits = 0;
  int number = 0;
  for (char c : std::string_view(held_).substr(body_at_)) {
    if (static_cast<unsigned char>(c) < 0x20) continue;  // the parser ignores these here
    if (c >= '0' && c <= '9' && digits < 6) {
      number = number * 10 + (c - '0');
      ++digits;
      continue;
    }
    if (c != ';') {
      pass(out);  // no number, or not one of ours (OSC 104 BEL resets colours)
    } else if (number == 52) {
      drop();
    } else if (is_colour_osc(number)) {
      colour_osc_ = true;
    } else {
      pass(out);
    }
    return;
  }
}

// A DCS is judged when its head (parameters, intermediates, final) is complete: DECRQSS
// (DCS $ q) and XTGETTCAP (DCS + q) go, any other passes.
void QueryFilter::classify_dcs(std::string& out) {
  std::string_view head = std::string_view(held_).substr(body_at_);
  bool prefix = false;
  bool first = true;
  std::string intermediates;
  for (char c : head.substr(0, head.size() - 1)) {
    auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) continue;  // ignored by the parser in a DCS head
    if (first && b >= '<' && b <= '?') prefix = true;
    first = false;
    if (b <= 0x2f) intermediates += c;
  }
  if (!head.empty() && head.back() == 'q' && !prefix &&
      (intermediates == "$" || intermediates == "+")) {
    drop();
  } else {
    pass(out);
  }
}

void QueryFilter::pass(std::string& out) {
  out += held_;
  held_.clear();
  fate_ = Fate::kPass;
}

void QueryFilter::drop() {
  held_.clear();
  fate_ = Fate::kDrop;
}

// The sequence under way is over; returns what became of it.
QueryFilter::Fate QueryFilter::finish(std::string& out) {
  Fate fate = fate_;
  if (fate == Fate::kHeld) {
    fate = query_ ? Fate::kDrop : Fate::kPass;
    if (fate == Fate::kPass) out += held_;
  }
  held_.clear();
  fate_ = Fate::kPass;
  colour_osc_ = false;
  return fate;
}

}  // namespace wharf::core
