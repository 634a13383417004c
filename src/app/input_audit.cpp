#include "app/input_audit.hpp"

#include <spdlog/spdlog.h>

#include "store/metadata_store.hpp"

namespace wharf::app {

void InputAudit::set_window_label(std::uint64_t window, std::string device_name) {
  if (device_name.size() > core::kMaxClientLabelBytes)
    device_name.resize(core::kMaxClientLabelBytes);
  window_labels_[window] = std::move(device_name);
}

void InputAudit::window_input(std::uint64_t window, core::SessionId session, std::int64_t now_ms) {
  auto it = window_labels_.find(window);
  input(session, core::InputClient{"window", it == window_labels_.end() ? "" : it->second}, now_ms);
}

void InputAudit::input(core::SessionId session, const core::InputClient& client,
                       std::int64_t now_ms) {
  if (store_ == nullptr) return;
  std::int64_t run = run_of_ ? run_of_(session) : 0;
  if (run == 0) return;
  if (!rule_.should_record(session, client.kind, client.label, now_ms)) return;
  auto recorded = store_->input_received(run, session, client.kind, client.label, now_ms);
  if (!recorded) spdlog::warn("store: {}", recorded.error().message);
}

}  // namespace wharf::app
