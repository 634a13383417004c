// The session service's side of session hosts (docs/hosts.md): following a started or
// adopted host, telling hosts what a later daemon must know (name, place, activity),
// taking over the hosts an earlier daemon left, and letting go of them all.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>

#include "app/final_screens.hpp"
#include "app/session_service.hpp"
#include "store/metadata_store.hpp"

namespace wharf::app {

namespace {
// Scrollback kept with a final screen, above its visible rows.
constexpr std::size_t kFinalScreenScrollbackLines = 200;
}  // namespace

std::string SessionService::final_screen_text(const Session& session) {
  core::ScreenText screen = session.text(kFinalScreenScrollbackLines);
  std::string text;
  for (const auto* rows : {&screen.scrollback, &screen.lines})
    for (const std::string& row : *rows) text.append(row).push_back('\n');
  while (text.ends_with("\n\n")) text.pop_back();
  return std::string(FinalScreens::tail(text));
}

void SessionService::keep_final_screen(const Session& session) {
  if (options_.screens_dir.empty() || !session.meta().keep_screen) return;
  // What the program left on screen answers "why did it exit" after the tab is gone.
  std::string text = final_screen_text(session);
  auto saved = FinalScreens(options_.screens_dir).save(session.meta().run_id, session.id(), text);
  if (!saved)
    spdlog::warn("session {}: its last screen was not kept: {}", session.id(),
                 saved.error().message);
}

void SessionService::remember_activity(Session& session) {
  // A finish or a question nobody has seen yet outlives a restart: the host keeps it.
  core::host::SessionMeta meta = session.meta();
  core::Activity now = session.activity();
  meta.activity = now == core::Activity::kWaiting || now == core::Activity::kFinished
                      ? std::string(core::activity_name(now))
                      : std::string();
  session.update_meta(meta);
}

void SessionService::add_session(const std::shared_ptr<Session>& session) {
  session->set_activity_listener(
      [this](core::SessionId sid, Session::ActivityEvent event) { on_activity(sid, event); });
  sessions_.emplace(session->id(), session);
  if (reads_prompts(*session)) watch_prompts();
  session->start([this](core::SessionId finished, const core::ExitStatus& status) {
    on_session_finished(finished, status);
  });
}

std::filesystem::path SessionService::host_socket(core::SessionId id) const {
  return options_.hosts_dir / (std::to_string(id) + ".sock");
}

void SessionService::sync_meta() {
  std::int64_t position = 0;
  for (const core::SessionEntry* e : registry_.entries()) {
    auto session = find(e->id);
    ++position;
    if (!session) continue;
    core::host::SessionMeta meta = session->meta();
    meta.custom_name = e->custom_name;
    meta.position = position;
    session->update_meta(meta);
  }
}

void SessionService::adopt(std::vector<host::HostConnection> hosts) {
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) {
    return a.state.meta.position < b.state.meta.position;
  });
  for (host::HostConnection& found : hosts) {
    const core::host::SessionMeta& meta = found.state.meta;
    core::SessionEntry entry;
    entry.id = meta.id;
    entry.program = meta.program;
    entry.kind = meta.kind;
    entry.custom_name = meta.custom_name;
    entry.cwd = meta.cwd;
    entry.created_ms = meta.created_ms;
    entry.creator = meta.creator;
    entry.shared_shell = meta.shared_shell;
    entry.capabilities = meta.capabilities;
    if (auto restored = registry_.restore(entry); !restored) {
      spdlog::warn("session {}: {}; its host is left running", meta.id, restored.error().message);
      ::close(found.fd);
      continue;
    }
    bool ending = found.state.ending;
    std::string activity = meta.activity;
    auto session = std::make_shared<Session>(io_, meta.id, meta.program, std::move(found));
    session->set_shell_integration(meta.shell_integration);
    if (activity == core::activity_name(core::Activity::kWaiting))
      session->mark_activity(core::Activity::kWaiting);
    else if (activity == core::activity_name(core::Activity::kFinished))
      session->mark_activity(core::Activity::kFinished);
    if (ending) registry_.mark_ending(meta.id);
    spdlog::info("session {} ({}) taken over from an earlier wharf: program pid {}, host pid {}",
                 meta.id, entry.name(), session->pid(), session->host_pid());
    if (store_ != nullptr) {
      auto recorded = store_->session_event(meta.run_id, meta.id, "reattached",
                                            std::to_string(run_id_), now_ms());
      if (!recorded) spdlog::warn("store: {}", recorded.error().message);
    }
    // Its sockets went with the daemon that made them; the program finds them again at
    // the same place (the directory is bound, not the sockets).
    if (auto opened = open_sandbox(meta.id, meta.run_id, meta.capabilities); !opened)
      spdlog::warn("session {}: its sandbox's proxy and channel are gone: {}", meta.id,
                   opened.error().message);
    add_session(session);
  }
  sync_meta();
  announce_list();
}

void SessionService::release_all() {
  auto live = sessions_;
  for (auto& [id, session] : live) session->release();
}

}  // namespace wharf::app
