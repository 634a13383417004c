#include "core/query_filter.hpp"

#include <algorithm>
#include <array>

namespace wharf::core {
namespace {

constexpr char kEsc = '\x1b';
constexpr char kBel = '\x07';
constexpr char kEnq = '\x05';  // asks for the answerback message

bool cancels(char c) {
  return c == '\x18' || c == '\x1a';  // CAN, SUB
}
bool is_final(char c) {
  return c >= 0x40 && c <= 0x7e;
}
bool is_intermediate(char c) {
  return c >= 0x20 && c <= 0x2f;
}
bool is_parameter(char c) {
  return c >= 0x30 && c <= 0x3f;
}
bool is_c0(char c) {
  return static_cast<unsigned char>(c) < 0x20;
}

// A control inside a sequence is executed at once by the terminal, as if it came first.
void execute(char c, std::string& out) {
  if (c != kEnq) out += c;
}

// The first parameter of a CSI or OSC (0 when empty or not a number).
int first_number(std::string_view params) {
  int n = 0;
  for (char c : params) {
    if (c < '0' || c > '9') break;
    n = std::min(n * 10 + (c - '0'), 100000);
  }
  return n;
}

// XTWINOPS that produce a report; the others (title stack, moves, resizes) are harmless.
bool is_window_report(int op) {
  constexpr std::array kReports{11, 13, 14, 15, 16, 18, 19, 20, 21};
  return std::find(kReports.begin(), kReports.end(), op) != kReports.end();
}

struct Csi {
  char prefix = 0;  // one of < = > ?, or 0
  std::string_view params;
  std::string intermediates;
  char final = 0;
};

// `seq` is a whole CSI: ESC [ ... final.
Csi parse_csi(std::string_view seq) {
  Csi csi;
  csi.final = seq.back();
  std::string_view body = seq.substr(2, seq.size() - 3);
  if (!body.empty() && body.front() >= '<' && body.front() <= '?') {
    csi.prefix = body.front();
    body.remove_prefix(1);
  }
  std::size_t i = 0;
  while (i < body.size() && is_parameter(body[i])) ++i;
  csi.params = body.substr(0, i);
  for (char c : body.substr(i))
    if (is_intermediate(c)) csi.intermediates += c;
  return csi;
}

bool is_query(const Csi& csi) {
  const char f = csi.final;
  if (csi.intermediates.empty()) {
    switch (csi.prefix) {
      case 0:  // DA1, DSR/CPR, DECREQTPARM, window reports
        return f == 'c' || f == 'n' || f == 'x' ||
               (f == 't' && is_window_report(first_number(csi.params)));
      case '>':  // DA2, XTVERSION
        return f == 'c' || f == 'q';
      case '=':  // DA3
        return f == 'c';
      case '?':  // DECXCPR and other DSRs, kitty keyboard flags, XTQMODKEYS, XTSMGRAPHICS
        return f == 'n' || f == 'u' || f == 'm' || f == 'S';
      default:
        return false;
    }
  }
  if (csi.intermediates == "$")  // DECRQM (ANSI and DEC modes), DECRQPSR
    return (f == 'p' && (csi.prefix == 0 || csi.prefix == '?')) || (f == 'w' && csi.prefix == 0);
  if (csi.intermediates == "*") return f == 'y' && csi.prefix == 0;  // DECRQCRA
  return false;
}

// OSC numbers whose "?" form asks for a colour: palette, special colours, dynamic colours.
bool is_colour_osc(int number) {
  return number == 4 || number == 5 || (number >= 10 && number <= 19);
}

}  // namespace

void QueryFilter::filter(std::string_view bytes, std::string& out) {
  out.reserve(out.size() + bytes.size());
  std::size_t i = 0;
  while (i < bytes.size()) {
    if (state_ == State::kText) {
      // Plain text goes out in runs; only ESC and ENQ need a look.
      std::size_t end = i;
      while (end < bytes.size() && bytes[end] != kEsc && bytes[end] != kEnq) ++end;
      out.append(bytes.substr(i, end - i));
      i = end;
      if (i == bytes.size()) break;
    }
    if (step(bytes[i], out)) ++i;
  }
}

bool QueryFilter::step(char c, std::string& out) {
  switch (state_) {
    case State::kText:
      if (c == kEsc) {
        held_.assign(1, kEsc);
        state_ = State::kEscape;
      } else if (c != kEnq) {
        out += c;
      }
      return true;

    case State::kEscape:
      if (c == '[' || c == ']' || c == 'P') {
        held_ += c;
        state_ = c == '[' ? State::kCsi : c == ']' ? State::kOscNumber : State::kDcsHead;
      } else if (c == 'Z') {  // DECID: an old way to ask for DA
        held_.clear();
        state_ = State::kText;
      } else if (c == 'X' || c == '^' || c == '_') {  // SOS, PM, APC: never queries
        out += held_;
        out += c;
        held_.clear();
        enter_string(false, false);
      } else if (c == kEsc) {
        out += held_;  // a lone ESC: the second one starts again
      } else if (cancels(c)) {
        out += held_;
        out += c;
        held_.clear();
        state_ = State::kText;
      } else if (is_c0(c)) {
        execute(c, out);
      } else {
        out += held_;
        out += c;
        held_.clear();
        state_ = is_intermediate(c) ? State::kEscapeIntermediate : State::kText;
      }
      return true;

    case State::kEscapeIntermediate:
      if (c == kEsc) {
        held_.assign(1, kEsc);
        state_ = State::kEscape;
        return true;
      }
      out += c;
      if (!is_intermediate(c) && !is_c0(c)) state_ = State::kText;
      if (cancels(c)) state_ = State::kText;
      return true;

    case State::kCsi:
      if (is_final(c)) {
        held_ += c;
        end_csi(out);
      } else if (c == kEsc) {
        out += held_;  // cut short: the terminal abandons it too
        held_.assign(1, kEsc);
        state_ = State::kEscape;
      } else if (cancels(c) || static_cast<unsigned char>(c) >= 0x80) {
        out += held_;
        out += c;
        held_.clear();
        state_ = State::kText;
      } else if (is_c0(c)) {
        execute(c, out);
      } else {
        held_ += c;
        if (held_.size() > kMaxHeld) {
          out += held_;
          held_.clear();
          state_ = State::kCsiPass;
        }
      }
      return true;

    case State::kCsiPass:
      if (c == kEsc) {
        held_.assign(1, kEsc);
        state_ = State::kEscape;
        return true;
      }
      out += c;
      if (is_final(c) || cancels(c)) state_ = State::kText;
      return true;

    case State::kOscNumber:
      if (c >= '0' && c <= '9' && held_.size() < 8) {
        held_ += c;
        return true;
      }
      if (c == ';') {
        const int number = first_number(std::string_view(held_).substr(2));
        held_ += c;
        if (number == 52) {
          held_.clear();
          enter_string(true, true);
        } else if (is_colour_osc(number)) {
          state_ = State::kOscHeld;
        } else {
          out += held_;
          held_.clear();
          enter_string(false, true);
        }
        return true;
      }
      // No number or no ';' (OSC 104 BEL resets colours): not a query; the rest of the
      // string, terminator included, goes out as it is.
      out += held_;
      held_.clear();
      enter_string(false, true);
      return false;

    case State::kOscHeld:
      if (c == kBel) {
        held_ += c;
        end_osc_held(out);
      } else if (c == kEsc) {
        string_state_ = State::kOscHeld;
        state_ = State::kStringEscape;
      } else if (cancels(c)) {
        out += held_;
        out += c;
        held_.clear();
        state_ = State::kText;
      } else {
        held_ += c;
        if (held_.size() > kMaxHeld) {  // a long palette set, not a query
          out += held_;
          held_.clear();
          enter_string(false, true);
        }
      }
      return true;

    case State::kDcsHead:
      if (is_final(c)) {
        held_ += c;
        Csi head = parse_csi(held_);  // same shape: ESC P params intermediates final
        if (c == 'q' && head.prefix == 0 &&
            (head.intermediates == "$" || head.intermediates == "+")) {  // DECRQSS, XTGETTCAP
          held_.clear();
          enter_string(true, true);
        } else {
          out += held_;
          held_.clear();
          enter_string(false, false);
        }
      } else if (c == kEsc) {
        out += held_;
        held_.assign(1, kEsc);
        state_ = State::kEscape;
      } else if (cancels(c)) {
        out += held_;
        out += c;
        held_.clear();
        state_ = State::kText;
      } else if (is_c0(c)) {
        execute(c, out);
      } else {
        held_ += c;
        if (held_.size() > kMaxHeld) {
          out += held_;
          held_.clear();
          enter_string(false, false);
        }
      }
      return true;

    case State::kString:
      if (c == kEsc) {
        string_state_ = State::kString;
        state_ = State::kStringEscape;
        return true;
      }
      if (!string_drop_) out += c;
      if ((c == kBel && string_bel_ends_) || cancels(c)) state_ = State::kText;
      return true;

    case State::kStringEscape:
      if (c == '\\') {  // ST: the string ends here
        if (string_state_ == State::kOscHeld) {
          held_ += "\x1b\\";
          end_osc_held(out);
        } else {
          if (!string_drop_) out += "\x1b\\";
          state_ = State::kText;
        }
        return true;
      }
      // Any other byte: the ESC ended the string and begins a new sequence.
      if (string_state_ == State::kOscHeld) end_osc_held(out);
      held_.assign(1, kEsc);
      state_ = State::kEscape;
      return false;
  }
  return true;
}

void QueryFilter::end_csi(std::string& out) {
  Csi csi = parse_csi(held_);
  if (!is_query(csi)) {
    if (csi.prefix == '?' && csi.intermediates.empty() && (csi.final == 'h' || csi.final == 'l')) {
      std::string_view params = csi.params;
      while (!params.empty()) {
        std::size_t semi = params.find(';');
        int mode = first_number(params.substr(0, semi));
        if (mode == 47 || mode == 1047 || mode == 1049) alternate_screen_ = csi.final == 'h';
        params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
      }
    }
    out += held_;
  }
  held_.clear();
  state_ = State::kText;
}

void QueryFilter::end_osc_held(std::string& out) {
  // OSC 4;1;? asks, OSC 4;1;rgb:ff/00/00 sets: only the asking form is removed.
  if (held_.find('?') == std::string::npos) out += held_;
  held_.clear();
  state_ = State::kText;
}

void QueryFilter::enter_string(bool drop, bool bel_ends) {
  string_drop_ = drop;
  string_bel_ends_ = bel_ends || drop;
  state_ = State::kString;
}

}  // namespace wharf::core
