// Key names to terminal bytes (core/key_names.hpp): every form of key against the exact
// bytes xterm sends, the modes that change them, tmux's spellings, and each refusal with
// the words it gives.
#include "core/key_names.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace wharf::core {
namespace {

std::string keys(const std::vector<std::string>& names, KeyModes modes = {}) {
  auto bytes = encode_keys(names, modes);
  EXPECT_TRUE(bytes) << (bytes ? "" : bytes.error().message);
  return bytes ? bytes.value() : std::string("<refused>");
}

std::string key(const std::string& name, KeyModes modes = {}) {
  return keys({name}, modes);
}

std::string refusal(const std::vector<std::string>& names) {
  auto bytes = encode_keys(names, {});
  EXPECT_FALSE(bytes) << "expected a refusal";
  if (bytes) return {};
  EXPECT_EQ(bytes.error().code, "bad_key");
  return bytes.error().message;
}

std::string lowered(std::string_view name) {
  std::string out;
  for (char c : name) out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
  return out;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(KeyNames, SingleCharactersAreSentLiterally) {
  EXPECT_EQ(key("a"), "a");
  EXPECT_EQ(key("Z"), "Z");
  EXPECT_EQ(key("1"), "1");
  EXPECT_EQ(key("-"), "-");
  EXPECT_EQ(key("^"), "^");
  EXPECT_EQ(key("~"), "~");
  EXPECT_EQ(key("\xc3\xa9"), "\xc3\xa9");                  // é
  EXPECT_EQ(key("\xe4\xb8\xad"), "\xe4\xb8\xad");          // 中
  EXPECT_EQ(key("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");  // 😀
}

TEST(KeyNames, SequencesConcatenateInOrder) {
  EXPECT_EQ(keys({"l", "s", "Enter"}), "ls\r");
  EXPECT_EQ(keys({"C-c", "Up", "Enter"}), "\x03\x1b[A\r");
}

TEST(KeyNames, PlainNamedKeys) {
  EXPECT_EQ(key("Enter"), "\r");
  EXPECT_EQ(key("Tab"), "\t");
  EXPECT_EQ(key("BTab"), "\x1b[Z");
  EXPECT_EQ(key("Escape"), "\x1b");
  EXPECT_EQ(key("Esc"), "\x1b");
  EXPECT_EQ(key("Space"), " ");
  EXPECT_EQ(key("BSpace"), "\x7f");
}

TEST(KeyNames, NamesAreCaseInsensitiveLikeTmux) {
  EXPECT_EQ(key("enter"), "\r");
  EXPECT_EQ(key("ENTER"), "\r");
  EXPECT_EQ(key("pageup"), "\x1b[5~");
  EXPECT_EQ(key("f5"), "\x1b[15~");
  EXPECT_EQ(key("c-up"), "\x1b[1;5A");
  EXPECT_EQ(key("m-a"),
            "\x1b"
            "a");
  EXPECT_EQ(key("s-a"), "A");
}

TEST(KeyNames, CursorKeysInNormalAndApplicationMode) {
  EXPECT_EQ(keys({"Up", "Down", "Right", "Left", "Home", "End"}),
            "\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F");
  KeyModes app{.application_cursor = true};
  EXPECT_EQ(keys({"Up", "Down", "Right", "Left", "Home", "End"}, app),
            "\x1bOA\x1bOB\x1bOC\x1bOD\x1bOH\x1bOF");
}

TEST(KeyNames, ModifiedCursorKeysIgnoreApplicationMode) {
  KeyModes app{.application_cursor = true};
  EXPECT_EQ(key("C-Up", app), "\x1b[1;5A");
  EXPECT_EQ(key("S-Home", app), "\x1b[1;2H");
}

TEST(KeyNames, XtermModifierParameters) {
  EXPECT_EQ(key("S-Up"), "\x1b[1;2A");
  EXPECT_EQ(key("M-Up"), "\x1b[1;3A");
  EXPECT_EQ(key("S-M-Up"), "\x1b[1;4A");
  EXPECT_EQ(key("C-Up"), "\x1b[1;5A");
  EXPECT_EQ(key("S-C-Up"), "\x1b[1;6A");
  EXPECT_EQ(key("M-C-Up"), "\x1b[1;7A");
  EXPECT_EQ(key("S-M-C-Up"), "\x1b[1;8A");
  EXPECT_EQ(key("C-S-M-Left"), "\x1b[1;8D");  // any order
  EXPECT_EQ(key("C-End"), "\x1b[1;5F");
}

TEST(KeyNames, EditingKeysAndTheirAliases) {
  EXPECT_EQ(key("IC"), "\x1b[2~");
  EXPECT_EQ(key("Insert"), "\x1b[2~");
  EXPECT_EQ(key("DC"), "\x1b[3~");
  EXPECT_EQ(key("Delete"), "\x1b[3~");
  for (std::string name : {"PageUp", "PgUp", "PPage"}) EXPECT_EQ(key(name), "\x1b[5~") << name;
  for (std::string name : {"PageDown", "PgDn", "NPage"}) EXPECT_EQ(key(name), "\x1b[6~") << name;
  EXPECT_EQ(key("C-DC"), "\x1b[3;5~");
  EXPECT_EQ(key("S-PageUp"), "\x1b[5;2~");
  EXPECT_EQ(key("M-NPage"), "\x1b[6;3~");
}

TEST(KeyNames, FunctionKeys) {
  EXPECT_EQ(keys({"F1", "F2", "F3", "F4"}), "\x1bOP\x1bOQ\x1bOR\x1bOS");
  EXPECT_EQ(keys({"F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12"}),
            "\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~");
  EXPECT_EQ(key("C-F1"), "\x1b[1;5P");
  EXPECT_EQ(key("S-F4"), "\x1b[1;2S");
  EXPECT_EQ(key("S-F5"), "\x1b[15;2~");
  EXPECT_EQ(key("M-C-F12"), "\x1b[24;7~");
  KeyModes app{.application_cursor = true, .application_keypad = true};
  EXPECT_EQ(key("F1", app), "\x1bOP");  // the modes do not change function keys
  EXPECT_EQ(key("F5", app), "\x1b[15~");
}

TEST(KeyNames, ControlCodesAsTmuxTranslatesThem) {
  EXPECT_EQ(key("C-a"), "\x01");
  EXPECT_EQ(key("C-A"), "\x01");
  EXPECT_EQ(key("C-c"), "\x03");
  EXPECT_EQ(key("C-z"), "\x1a");
  EXPECT_EQ(key("C-Space"), std::string(1, '\0'));
  EXPECT_EQ(key("C-@"), std::string(1, '\0'));
  EXPECT_EQ(key("C-["), "\x1b");
  EXPECT_EQ(key("C-\\"), "\x1c");
  EXPECT_EQ(key("C-]"), "\x1d");
  EXPECT_EQ(key("C-^"), "\x1e");
  EXPECT_EQ(key("C-_"), "\x1f");
  EXPECT_EQ(key("C-?"), "\x7f");
  EXPECT_EQ(key("C-S-a"), "\x01");  // Shift adds nothing a terminal can send
}

TEST(KeyNames, CaretIsTmuxsOtherSpellingOfControl) {
  EXPECT_EQ(key("^c"), "\x03");
  EXPECT_EQ(key("^C"), "\x03");
  EXPECT_EQ(key("^^"), "\x1e");
  EXPECT_EQ(key("M-^a"), "\x1b\x01");
}

TEST(KeyNames, MetaPutsEscapeInFront) {
  EXPECT_EQ(key("M-a"),
            "\x1b"
            "a");
  EXPECT_EQ(key("M-."), "\x1b.");
  EXPECT_EQ(key("M-\xc3\xa9"), "\x1b\xc3\xa9");
  EXPECT_EQ(key("M-Space"), "\x1b ");
  EXPECT_EQ(key("M-Enter"), "\x1b\r");
  EXPECT_EQ(key("M-Escape"), "\x1b\x1b");
  EXPECT_EQ(key("M-BSpace"), "\x1b\x7f");
  EXPECT_EQ(key("M-Tab"), "\x1b\t");
  EXPECT_EQ(key("C-M-x"), "\x1b\x18");
  EXPECT_EQ(key("M-C-x"), "\x1b\x18");
  EXPECT_EQ(key("M-S-a"),
            "\x1b"
            "A");
  EXPECT_EQ(key("M--"), "\x1b-");
}

TEST(KeyNames, ShiftUppercasesLettersLikeTmux) {
  EXPECT_EQ(key("S-a"), "A");
  EXPECT_EQ(key("S-A"), "A");
  EXPECT_EQ(key("S-z"), "Z");
}

TEST(KeyNames, BackTabIsShiftTab) {
  EXPECT_EQ(key("S-Tab"), "\x1b[Z");
  EXPECT_EQ(key("s-tab"), "\x1b[Z");
  EXPECT_EQ(key("S-BTab"), "\x1b[Z");
  EXPECT_EQ(key("M-BTab"), "\x1b\x1b[Z");
  EXPECT_EQ(key("M-S-Tab"), "\x1b\x1b[Z");
}

TEST(KeyNames, DoubledModifiersCountOnce) {
  EXPECT_EQ(key("C-C-a"), "\x01");
  EXPECT_EQ(key("S-S-Up"), "\x1b[1;2A");
}

TEST(KeyNames, KeypadFollowsApplicationKeypadMode) {
  EXPECT_EQ(keys({"KP0", "KP5", "KP9", "KP/", "KP*", "KP-", "KP+", "KP.", "KPEnter"}),
            "059/*-+.\r");
  KeyModes app{.application_keypad = true};
  EXPECT_EQ(keys({"KP0", "KP5", "KP9", "KP/", "KP*", "KP-", "KP+", "KP.", "KPEnter"}, app),
            "\x1bOp\x1bOu\x1bOy\x1bOo\x1bOj\x1bOm\x1bOk\x1bOn\x1bOM");
  KeyModes cursor_only{.application_cursor = true};
  EXPECT_EQ(key("KP1", cursor_only), "1");
}

TEST(KeyNames, ListsEveryNameOnceAndEachEncodes) {
  std::set<std::string> listed;
  for (std::string_view name : key_names()) {
    EXPECT_TRUE(listed.insert(lowered(name)).second) << "listed twice: " << name;
    auto bytes = encode_keys(std::vector<std::string>{std::string(name)}, {});
    ASSERT_TRUE(bytes) << name;
    EXPECT_FALSE(bytes.value().empty()) << name;
  }
  for (std::string_view expected :
       {"Enter", "Tab",   "BTab",     "Escape", "Esc",   "Space",  "BSpace", "Up",     "Down",
        "Left",  "Right", "Home",     "End",    "IC",    "Insert", "DC",     "Delete", "PageUp",
        "PgUp",  "PPage", "PageDown", "PgDn",   "NPage", "F1",     "F12",    "KP0",    "KPEnter"})
    EXPECT_EQ(listed.count(lowered(expected)), 1u) << expected;
  EXPECT_EQ(listed.size(), 51u);
}

// Refusals: each says what was wrong and what is accepted, and nothing is encoded.

TEST(KeyNames, RefusesUnknownNamesSayingWhatIsAccepted) {
  std::string message = refusal({"Foo"});
  EXPECT_EQ(message.rfind("'Foo' is not a key", 0), 0u) << message;
  EXPECT_TRUE(contains(message, "one character")) << message;
  EXPECT_TRUE(contains(message, "Enter")) << message;
  EXPECT_TRUE(contains(message, "C-, M- or S-")) << message;
  for (std::string bad :
       {"F13", "F0", "Ctrl-c", "C-Foo", "ab", "Enterr", "KP10", "\xc3\xa9\xc3\xa9", "a-b", "^C-a"})
    EXPECT_TRUE(contains(refusal({bad}), "is not a key")) << bad;
}

TEST(KeyNames, OneBadNameRefusesTheWholeCall) {
  auto bytes = encode_keys(std::vector<std::string>{"l", "s", "Enter", "Nope"}, {});
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error().code, "bad_key");
  EXPECT_TRUE(contains(bytes.error().message, "'Nope'"));
}

TEST(KeyNames, RefusesEmptyNamesAndEmptyCalls) {
  EXPECT_EQ(refusal({""}), "an empty key name");
  EXPECT_EQ(refusal({"a", ""}), "an empty key name");
  EXPECT_EQ(refusal({}), "no key names given");
}

TEST(KeyNames, RefusesModifiersOnNothing) {
  for (std::string bad : {"C-", "M-", "S-", "C-M-", "c-s-"})
    EXPECT_EQ(refusal({bad}), "'" + bad + "' has modifiers but no key after them") << bad;
}

TEST(KeyNames, RefusesShiftOnPrintablesOtherThanLetters) {
  for (std::string bad : {"S-1", "S-;", "S-Space", "S-\xc3\xa9", "M-S-/"}) {
    std::string message = refusal({bad});
    EXPECT_TRUE(contains(message, "S- applies to letters and named keys only")) << bad;
  }
}

TEST(KeyNames, RefusesControlWithoutAControlCode) {
  for (std::string bad : {"C-1", "C-/", "C-;", "C-\xc3\xa9", "^1", "C-S-1"}) {
    std::string message = refusal({bad});
    EXPECT_TRUE(contains(message, "control codes only for C-a..C-z") ||
                contains(message, "S- applies"))
        << bad << ": " << message;
  }
  EXPECT_TRUE(contains(refusal({"C-1"}), "'C-1' cannot be sent"));
}

TEST(KeyNames, RefusesModifiersThatPlainKeysCannotCarry) {
  for (std::string bad : {"C-Enter", "S-Enter", "C-Escape", "S-BSpace", "C-Tab", "C-S-Tab"})
    EXPECT_TRUE(contains(refusal({bad}), "sends nothing distinct for C- or S-")) << bad;
  EXPECT_TRUE(contains(refusal({"C-BTab"}), "nothing distinct for C-BTab"));
  EXPECT_TRUE(contains(refusal({"C-KP5"}), "keypad keys take no modifiers"));
  EXPECT_TRUE(contains(refusal({"M-KPEnter"}), "keypad keys take no modifiers"));
}

TEST(KeyNames, RefusesControlCharactersAsLiteralNames) {
  for (std::string bad :
       {std::string(1, '\0'), std::string("\x1b"), std::string("\r"), std::string("\t"),
        std::string("\x7f"), std::string("\xc2\x9b"), std::string("M-\x03")}) {
    std::string message = refusal({bad});
    EXPECT_TRUE(contains(message, "is a control character: send it by name")) << message;
    for (char c : message) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unprintable in message";
  }
}

TEST(KeyNames, RefusesInvalidUtf8) {
  for (std::string bad :
       {"\xff", "\xc3", "\xe4\xb8", "\xc0\xaf", "\xed\xa0\x80", "\x80", "a\xff"}) {
    std::string message = refusal({bad});
    EXPECT_TRUE(contains(message, "is not valid UTF-8")) << message;
    for (char c : message) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "unprintable in message";
  }
}

TEST(KeyNames, RefusesOverlongNamesQuotingThemShortened) {
  std::string name(33, 'x');
  std::string message = refusal({name});
  EXPECT_EQ(message, "'" + std::string(32, 'x') +
                         "...' is longer than 32 bytes, which no key "
                         "name is");
  EXPECT_TRUE(encode_keys(std::vector<std::string>{"C-M-S-" + std::string(26, 'x')}, {})
                  .error()
                  .message.find("is not a key") != std::string::npos);
}

TEST(KeyNames, RefusesMoreThan64Names) {
  std::vector<std::string> names(64, "a");
  EXPECT_EQ(keys(names), std::string(64, 'a'));
  names.push_back("a");
  EXPECT_EQ(refusal(names), "65 key names: at most 64 per call");
}

TEST(KeyNames, QuotesUnprintableNamesSafely) {
  std::string message = refusal({"\x1b[31mred"});
  EXPECT_EQ(message.rfind("'?[31mred' is not a key", 0), 0u) << message;
}

}  // namespace
}  // namespace wharf::core
