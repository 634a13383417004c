// Input attribution for the audit store: which kind of client typed into a session and
// when (core/input_attribution.hpp has the rate rule: once per client per session per
// minute), never what was typed. Windows are named by the paired device that opened them
// (set_window_label), the other doors by their caller (core/caller_labels.hpp).
//
// Invariant: nothing here sees the bytes; a store that refuses a row is logged and the
// input goes on regardless.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "core/caller_labels.hpp"
#include "core/input_attribution.hpp"

namespace wharf::store {
class MetadataStore;
}

namespace wharf::app {

class InputAudit {
 public:
  // `run_of`: the run that started a session (its rows are keyed by it); 0: unknown, and
  // nothing is recorded.
  InputAudit(store::MetadataStore* store, std::function<std::int64_t(core::SessionId)> run_of)
      : store_(store), run_of_(std::move(run_of)) {}

  // The device whose cookie opened the window ("" when the key did).
  void set_window_label(std::uint64_t window, std::string device_name);
  void forget_window(std::uint64_t window) { window_labels_.erase(window); }
  void window_input(std::uint64_t window, core::SessionId session, std::int64_t now_ms);
  void input(core::SessionId session, const core::InputClient& client, std::int64_t now_ms);
  void forget_session(core::SessionId session) { rule_.forget(session); }

 private:
  store::MetadataStore* store_;
  std::function<std::int64_t(core::SessionId)> run_of_;
  core::InputAttribution rule_;
  std::map<std::uint64_t, std::string> window_labels_;
};

}  // namespace wharf::app
