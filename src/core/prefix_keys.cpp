#include "core/prefix_keys.hpp"

#include <utility>

namespace wharf::core {

std::vector<KeyAction> PrefixKeys::scan(std::string_view keys) {
  std::vector<KeyAction> actions;
  std::string input;
  // The input typed so far goes ahead of whatever comes next.
  auto flush_input = [&] {
    if (!input.empty()) actions.push_back({KeyAction::Kind::kInput, std::exchange(input, {})});
  };
  for (char c : keys) {
    if (!prefix_) {
      if (c == kPrefixKey) {
        prefix_ = true;
      } else {
        input += c;
      }
      continue;
    }
    prefix_ = false;
    switch (c) {
      case kPrefixKey:
        input += c;
        break;
      case 'd':
        flush_input();
        actions.push_back({KeyAction::Kind::kDetach, {}});
        return actions;
      case 't':
        flush_input();
        actions.push_back({KeyAction::Kind::kTake, {}});
        break;
      case 'r':
        flush_input();
        actions.push_back({KeyAction::Kind::kRedraw, {}});
        break;
      default:  // not a command: swallowed, as tmux does
        break;
    }
  }
  flush_input();
  return actions;
}

}  // namespace wharf::core
