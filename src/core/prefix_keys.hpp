// The prefix key of `wharf attach`: what the person types goes to the session, except
// that Ctrl-] (as tmux has Ctrl-b) and the key after it are a command for the client.
// d detaches, t takes over driving, r redraws, Ctrl-] twice sends one Ctrl-]; any other
// key after the prefix is swallowed, as tmux does. This is only the scan, with no I/O, so
// the rules are tested with plain bytes; the client does what each action says.
//
// Invariants:
// - Typed bytes keep their order around commands: the input before a command is its own
//   action, ahead of the command, so it reaches the session first (what was typed before
//   a detach still goes).
// - The prefix may end one read and its command start the next: the state carries over.
// - Nothing after a detach is scanned: the client is leaving, and those bytes were typed
//   for a terminal that is no longer the session's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wharf::core {

inline constexpr char kPrefixKey = '\x1d';  // Ctrl-]

struct KeyAction {
  enum class Kind {
    kInput,   // `input` goes to the session (never empty)
    kDetach,  // leave; the session goes on
    kTake,    // become the session's driver
    kRedraw,  // ask the daemon for a fresh snapshot
  };
  Kind kind = Kind::kInput;
  std::string input;
};

class PrefixKeys {
 public:
  // The actions in `keys`, in the order they were typed.
  std::vector<KeyAction> scan(std::string_view keys);

 private:
  bool prefix_ = false;  // the last byte scanned was the prefix key
};

}  // namespace wharf::core
