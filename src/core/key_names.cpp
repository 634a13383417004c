#include "core/key_names.hpp"

#include <array>
#include <optional>

#include "core/shown_text.hpp"
#include "core/utf8.hpp"

namespace wharf::core {
namespace {

constexpr std::string_view kCode = "bad_key";
constexpr std::string_view kEsc = "\x1b";

// How a named key is encoded.
enum class Form {
  kSpace,   // the character ' ', so C-Space is NUL and S-Space is refused like S-1
  kPlain,   // fixed bytes; only M- (an ESC in front) changes them
  kTab,     // like kPlain, and S-Tab is BTab
  kCursor,  // CSI x, SS3 x in application cursor mode, CSI 1;m x modified
  kSs3,     // F1..F4: SS3 x, CSI 1;m x modified
  kTilde,   // CSI n ~, CSI n;m ~ modified
  kBackTab,
  kKeypad,  // its character, or SS3 x in application keypad mode; no modifiers
};

struct NamedKey {
  std::string_view name;
  Form form;
  std::string_view bytes = {};  // kPlain: the bytes; kKeypad: the character
  char final = 0;               // kCursor, kSs3, kKeypad: the final byte
  int number = 0;               // kTilde
};

constexpr std::array kKeys{
    NamedKey{"Enter", Form::kPlain, "\r"},
    NamedKey{"Tab", Form::kTab, "\t"},
    NamedKey{"BTab", Form::kBackTab},
    NamedKey{"Escape", Form::kPlain, kEsc},
    NamedKey{"Esc", Form::kPlain, kEsc},
    NamedKey{"Space", Form::kSpace},
    NamedKey{"BSpace", Form::kPlain, "\x7f"},
    NamedKey{"Up", Form::kCursor, {}, 'A'},
    NamedKey{"Down", Form::kCursor, {}, 'B'},
    NamedKey{"Right", Form::kCursor, {}, 'C'},
    NamedKey{"Left", Form::kCursor, {}, 'D'},
    NamedKey{"Home", Form::kCursor, {}, 'H'},
    NamedKey{"End", Form::kCursor, {}, 'F'},
    NamedKey{"IC", Form::kTilde, {}, 0, 2},
    NamedKey{"Insert", Form::kTilde, {}, 0, 2},
    NamedKey{"DC", Form::kTilde, {}, 0, 3},
    NamedKey{"Delete", Form::kTilde, {}, 0, 3},
    NamedKey{"PageUp", Form::kTilde, {}, 0, 5},
    NamedKey{"PgUp", Form::kTilde, {}, 0, 5},
    NamedKey{"PPage", Form::kTilde, {}, 0, 5},
    NamedKey{"PageDown", Form::kTilde, {}, 0, 6},
    NamedKey{"PgDn", Form::kTilde, {}, 0, 6},
    NamedKey{"NPage", Form::kTilde, {}, 0, 6},
    NamedKey{"F1", Form::kSs3, {}, 'P'},
    NamedKey{"F2", Form::kSs3, {}, 'Q'},
    NamedKey{"F3", Form::kSs3, {}, 'R'},
    NamedKey{"F4", Form::kSs3, {}, 'S'},
    NamedKey{"F5", Form::kTilde, {}, 0, 15},
    NamedKey{"F6", Form::kTilde, {}, 0, 17},
    NamedKey{"F7", Form::kTilde, {}, 0, 18},
    NamedKey{"F8", Form::kTilde, {}, 0, 19},
    NamedKey{"F9", Form::kTilde, {}, 0, 20},
    NamedKey{"F10", Form::kTilde, {}, 0, 21},
    NamedKey{"F11", Form::kTilde, {}, 0, 23},
    NamedKey{"F12", Form::kTilde, {}, 0, 24},
    NamedKey{"KP0", Form::kKeypad, "0", 'p'},
    NamedKey{"KP1", Form::kKeypad, "1", 'q'},
    NamedKey{"KP2", Form::kKeypad, "2", 'r'},
    NamedKey{"KP3", Form::kKeypad, "3", 's'},
    NamedKey{"KP4", Form::kKeypad, "4", 't'},
    NamedKey{"KP5", Form::kKeypad, "5", 'u'},
    NamedKey{"KP6", Form::kKeypad, "6", 'v'},
    NamedKey{"KP7", Form::kKeypad, "7", 'w'},
    NamedKey{"KP8", Form::kKeypad, "8", 'x'},
    NamedKey{"KP9", Form::kKeypad, "9", 'y'},
    NamedKey{"KP/", Form::kKeypad, "/", 'o'},
    NamedKey{"KP*", Form::kKeypad, "*", 'j'},
    NamedKey{"KP-", Form::kKeypad, "-", 'm'},
    NamedKey{"KP+", Form::kKeypad, "+", 'k'},
    NamedKey{"KP.", Form::kKeypad, ".", 'n'},
    NamedKey{"KPEnter", Form::kKeypad, "\r", 'M'},
};

constexpr auto kNames = [] {
  std::array<std::string_view, kKeys.size()> names{};
  for (std::size_t i = 0; i < kKeys.size(); ++i) names[i] = kKeys[i].name;
  return names;
}();

struct Modifiers {
  bool ctrl = false;
  bool meta = false;
  bool shift = false;
  bool any() const { return ctrl || meta || shift; }
  // xterm's modifier parameter: 1 + Shift + 2 Meta + 4 Control.
  int parameter() const { return 1 + (shift ? 1 : 0) + (meta ? 2 : 0) + (ctrl ? 4 : 0); }
};

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

const NamedKey* find_key(std::string_view name) {
  for (const NamedKey& key : kKeys) {
    if (same_name(key.name, name)) return &key;
  }
  return nullptr;
}

Error refused(std::string_view name, std::string_view why) {
  return Error{"'" + shown_text(name, kMaxKeyNameBytes) + "' " + std::string(why),
               std::string(kCode)};
}

Error unknown(std::string_view name) {
  return refused(name,
                 "is not a key: send one character, or a key name (Enter, Tab, BTab, Escape, "
                 "Space, BSpace, Up, Down, Left, Right, Home, End, IC, DC, PageUp, PageDown, "
                 "F1..F12, KP0..KP9), optionally after C-, M- or S-");
}

// The one code point `text` holds, if it is exactly one valid UTF-8 character.
std::optional<std::uint32_t> single_code_point(std::string_view text) {
  Utf8Decoder decoder;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto step = decoder.feed(static_cast<unsigned char>(text[i]));
    if (step == Utf8Decoder::Step::kChar) {
      if (i + 1 != text.size()) return std::nullopt;
      return decoder.code_point();
    }
    if (step != Utf8Decoder::Step::kMore) return std::nullopt;
  }
  return std::nullopt;
}

bool valid_utf8(std::string_view text) {
  Utf8Decoder decoder;
  for (char c : text) {
    auto step = decoder.feed(static_cast<unsigned char>(c));
    if (step == Utf8Decoder::Step::kInvalid || step == Utf8Decoder::Step::kRetry) return false;
  }
  return !decoder.pending();
}

// Control-x as a terminal sends it, for the characters that have a control code (the
// same set tmux translates without extended keys).
std::optional<char> control_code(std::uint32_t cp) {
  if (cp >= 'a' && cp <= 'z') return static_cast<char>(cp - 'a' + 1);
  if (cp >= '@' && cp <= '_') return static_cast<char>(cp - '@');  // @ A..Z [ \ ] ^ _
  if (cp == ' ') return '\0';
  if (cp == '?') return '\x7f';
  return std::nullopt;
}

Result<std::string> encode_character(std::string_view name, std::string_view text, std::uint32_t cp,
                                     Modifiers mods) {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
    return refused(name,
                   "is a control character: send it by name (Enter, Tab, Escape, BSpace, "
                   "C-a..C-z)");
  }
  std::string out;
  if (mods.shift) {
    if (!(cp >= 'a' && cp <= 'z') && !(cp >= 'A' && cp <= 'Z')) {
      return refused(name,
                     "cannot be sent: S- applies to letters and named keys only; send the "
                     "shifted character itself");
    }
    cp = cp >= 'a' ? cp - 'a' + 'A' : cp;  // what tmux does: S-a is A
  }
  if (mods.ctrl) {
    auto code = control_code(cp);
    if (!code) {
      return refused(name,
                     "cannot be sent: a terminal has control codes only for C-a..C-z, "
                     "C-Space, C-@, C-[, C-\\, C-], C-^, C-_ and C-?");
    }
    out.push_back(*code);
  } else if (mods.shift) {
    out.push_back(static_cast<char>(cp));
  } else {
    out.assign(text);
  }
  if (mods.meta) out.insert(0, kEsc);
  return out;
}

std::string csi_modified(std::string_view number, char final, Modifiers mods) {
  return "\x1b[" + std::string(number) + ";" + std::to_string(mods.parameter()) + final;
}

Result<std::string> encode_named(std::string_view name, const NamedKey& key, Modifiers mods,
                                 const KeyModes& modes) {
  switch (key.form) {
    case Form::kSpace:
      return encode_character(name, " ", ' ', mods);
    case Form::kTab:
      if (mods.shift && !mods.ctrl) return std::string(mods.meta ? "\x1b\x1b[Z" : "\x1b[Z");
      [[fallthrough]];
    case Form::kPlain:
      if (mods.ctrl || mods.shift) {
        return refused(name,
                       "cannot be sent: a terminal sends nothing distinct for C- or S- with " +
                           std::string(key.name) + " (M- works)");
      }
      return (mods.meta ? std::string(kEsc) : std::string()) + std::string(key.bytes);
    case Form::kBackTab:
      if (mods.ctrl)
        return refused(name, "cannot be sent: a terminal sends nothing distinct for C-BTab");
      return std::string(mods.meta ? "\x1b\x1b[Z" : "\x1b[Z");
    case Form::kCursor:
      if (mods.any()) return csi_modified("1", key.final, mods);
      return std::string(modes.application_cursor ? "\x1bO" : "\x1b[") + key.final;
    case Form::kSs3:
      if (mods.any()) return csi_modified("1", key.final, mods);
      return std::string("\x1bO") + key.final;
    case Form::kTilde:
      if (mods.any()) return csi_modified(std::to_string(key.number), '~', mods);
      return "\x1b[" + std::to_string(key.number) + "~";
    case Form::kKeypad:
      if (mods.any()) return refused(name, "cannot be sent: keypad keys take no modifiers");
      if (modes.application_keypad) return std::string("\x1bO") + key.final;
      return std::string(key.bytes);
  }
  return unknown(name);
}

Result<std::string> encode_one(std::string_view name, const KeyModes& modes) {
  if (name.empty()) return Error{"an empty key name", std::string(kCode)};
  if (name.size() > kMaxKeyNameBytes) {
    return refused(name, "is longer than " + std::to_string(kMaxKeyNameBytes) +
                             " bytes, which no key name is");
  }
  Modifiers mods;
  std::string_view rest = name;
  for (;;) {
    if (rest.size() >= 2 && rest[1] == '-') {
      char m = ascii_lower(rest[0]);
      if (m == 'c' || m == 'm' || m == 's') {
        (m == 'c' ? mods.ctrl : m == 'm' ? mods.meta : mods.shift) = true;
        rest.remove_prefix(2);
        continue;
      }
    }
    if (rest.size() >= 2 && rest[0] == '^') {  // tmux's other spelling of C-
      mods.ctrl = true;
      rest.remove_prefix(1);
    }
    break;
  }
  if (rest.empty()) return refused(name, "has modifiers but no key after them");
  if (const NamedKey* key = find_key(rest)) return encode_named(name, *key, mods, modes);
  if (auto cp = single_code_point(rest)) return encode_character(name, rest, *cp, mods);
  if (!valid_utf8(rest)) return refused(name, "is not valid UTF-8");
  return unknown(name);
}

}  // namespace

Result<std::string> encode_keys(std::span<const std::string> names, const KeyModes& modes) {
  if (names.empty()) return Error{"no key names given", std::string(kCode)};
  if (names.size() > kMaxKeyNames) {
    return Error{std::to_string(names.size()) + " key names: at most " +
                     std::to_string(kMaxKeyNames) + " per call",
                 std::string(kCode)};
  }
  std::string out;
  for (const std::string& name : names) {
    auto bytes = encode_one(name, modes);
    if (!bytes) return bytes.error();
    out += bytes.value();
  }
  return out;
}

std::span<const std::string_view> key_names() {
  return kNames;
}

}  // namespace wharf::core
