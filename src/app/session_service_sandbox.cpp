// The session service's side of sandboxes (app/sandbox_launch.hpp, session_sandbox.hpp):
// a session's effective capabilities, its outside parts (egress proxy, channel) made before
// its program starts and again when a restarted daemon takes it over, the channel's
// requests routed to the same paths every other door uses (`wharf notify` to
// mark_activity, a guard to the decision desk), and refusals of the egress proxy written
// to the store.
#include <spdlog/spdlog.h>

#include <charconv>

#include "app/session_service.hpp"
#include "store/metadata_store.hpp"

namespace wharf::app {

core::Result<core::Capabilities> SessionService::capabilities_for(
    const core::CatalogEntry& entry, std::optional<bool> requested) const {
  return sandbox::resolve_capabilities(entry, options_.sandbox.resolve, requested);
}

boost::json::object SessionService::sandbox_status() const {
  boost::json::object out{{"available", options_.sandbox.site.bwrap.ok()},
                          {"default", options_.sandbox.resolve.default_on}};
  if (!options_.sandbox.site.bwrap) out["missing"] = options_.sandbox.site.bwrap.error().message;
  return out;
}

SessionChannelHooks SessionService::channel_hooks(core::SessionId id) {
  SessionChannelHooks hooks;
  hooks.notify = [this, id](const core::ChannelNotify& notify) {
    auto marked = mark_activity(id, notify.state == core::ChannelNotifyState::waiting
                                        ? core::Activity::kWaiting
                                        : core::Activity::kFinished);
    if (!marked) spdlog::warn("session {}: notify: {}", id, marked.error().message);
  };
  hooks.open_decision = [this, id](const GuardRequest& guard,
                                   DecisionCallback decided) -> core::Result<DecisionTicket> {
    std::uint64_t opened = decisions_.open(
        core::DecisionRequest{
            .session = id, .what = guard.what, .argv = guard.argv, .cwd = guard.cwd},
        [decided](const core::DecisionOutcome& outcome) {
          DecisionOutcome verdict{
              .verdict = DecisionVerdict::expired, .by = outcome.by, .note = outcome.note};
          if (outcome.state == core::DecisionState::kApproved)
            verdict.verdict = DecisionVerdict::approved;
          else if (outcome.state == core::DecisionState::kDenied)
            verdict.verdict = DecisionVerdict::denied;
          decided(verdict);
        });
    if (opened == 0)
      return core::Error{"too many decisions are waiting; answer some first", "too_many_decisions"};
    return DecisionTicket{.id = opened,
                          .expires_in_s = static_cast<std::int64_t>(decisions_.expiry().count())};
  };
  hooks.withdraw_decision = [this](std::uint64_t decision) { decisions_.withdraw(decision); };
  // The approved command runs as the person would run it in a terminal of their own:
  // the daemon's environment, without the sandbox's proxy.
  hooks.environment = [this] { return defaults_.base_env; };
  return hooks;
}

core::Status SessionService::open_sandbox(core::SessionId id, std::int64_t run,
                                          const core::Capabilities& capabilities) {
  if (!capabilities.sandboxed) return std::monostate{};
  auto opened = SessionSandbox::open(
      io_.get_executor(), options_.sandbox.sessions_dir / std::to_string(id), id, capabilities,
      [this, id, run](const egress::Refusal& refusal) {
        spdlog::info("session {}: egress refused {}:{} ({})", id, refusal.host, refusal.port,
                     refusal.reason);
        if (store_ == nullptr) return;
        auto recorded = store_->egress_refused(run, id, refusal.host, refusal.port, now_ms());
        if (!recorded) spdlog::warn("store: {}", recorded.error().message);
      },
      channel_hooks(id));
  if (!opened) return opened.error();
  sandboxes_[id] = std::move(opened.value());
  return std::monostate{};
}

void SessionService::close_sandbox(core::SessionId id) {
  auto it = sandboxes_.find(id);
  if (it == sandboxes_.end()) return;
  it->second->ended();
  sandboxes_.erase(it);
}

void SessionService::sweep_sandboxes() {
  // Directories of sessions that ended while no daemon ran (or a start that failed).
  std::error_code ec;
  for (const auto& found : std::filesystem::directory_iterator(options_.sandbox.sessions_dir, ec)) {
    std::uint64_t id = 0;
    std::string name = found.path().filename().string();
    auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), id);
    if (parsed == std::errc{} && end == name.data() + name.size() && sandboxes_.contains(id))
      continue;
    std::error_code removed;
    std::filesystem::remove_all(found.path(), removed);
  }
}

}  // namespace wharf::app
