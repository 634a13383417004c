// The daemon's live sessions, the windows that watch them, and the one place that
// learns of child exits.
//
// All state lives on the event-loop thread; nothing here locks. The registry (core)
// holds ids, names, order and the driver lease; this service pairs it with the running
// Session objects, starts programs, records lifecycle in the store, and tells every
// window when the list changes. SIGCHLD is watched from construction on (before any
// fork) and every exit is reaped at once.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "app/session_launch.hpp"
#include "app/window_set.hpp"
#include "core/catalog.hpp"
#include "core/env_spec.hpp"
#include "core/environment.hpp"
#include "core/ownership.hpp"
#include "core/paste_text.hpp"
#include "core/result.hpp"
#include "core/session_registry.hpp"
#include "host/host_launch.hpp"

namespace wharf::store {
class MetadataStore;
}

namespace wharf::app {

struct ServiceOptions {
  std::size_t max_sessions = core::kDefaultMaxSessions;
  // End a session nobody has watched and that printed nothing for this long; 0: never.
  std::chrono::seconds idle_expiry{0};
  EndingTimings timings{};
  // Where session hosts put their sockets (host/host_launch.hpp); one per session.
  std::filesystem::path hosts_dir;
  // Where the last screen of each ended session is kept (app/final_screens.hpp); empty:
  // nowhere.
  std::filesystem::path screens_dir;
};

struct LaunchStatus {
  std::string default_entry;                   // "claude"
  std::string default_kind;                    // "agent"
  std::string default_directory;               // relative to the workspace; "" is the workspace
  std::map<std::string, std::size_t> running;  // entry name -> live sessions
};

struct Attachment {
  std::shared_ptr<Session> session;
  bool driver = false;
};

class SessionService {
 public:
  SessionService(asio::io_context& io, LaunchDefaults defaults, ServiceOptions options = {},
                 store::MetadataStore* store = nullptr, std::int64_t run_id = 0);
  SessionService(const SessionService&) = delete;
  SessionService& operator=(const SessionService&) = delete;

  core::WindowId add_window(std::weak_ptr<WindowListener> listener);
  void remove_window(core::WindowId window);

  core::Result<std::shared_ptr<Session>> start(const StartRequest& request);

  // Defaults that can move (`wharf agent`, POST /api/agent, POST /api/cwd); live sessions
  // keep what they started with. Each is checked as a start would check it.
  core::Result<const core::CatalogEntry*> set_default_entry(std::string_view reference);
  core::Result<std::string> set_default_directory(const std::string& directory);
  LaunchStatus launch_status() const;
  const core::Catalog& catalog() const { return defaults_.catalog; }
  const std::string& workspace() const { return defaults_.workspace; }
  // Attaches to `wanted`, else the landing session, else (if `start_if_none`) a new
  // default session. Error code "no_sessions" when there is nothing to attach to.
  core::Result<Attachment> attach(core::WindowId window,
                                  const std::shared_ptr<SessionObserver>& observer,
                                  std::optional<core::SessionId> wanted, bool start_if_none,
                                  core::TerminalSize size);
  void detach(core::WindowId window, core::SessionId session, const SessionObserver* observer);

  core::Status input(core::WindowId window, core::SessionId session, std::string_view bytes);
  core::Result<core::TerminalSize> resize(core::WindowId window, core::SessionId session,
                                          core::TerminalSize size);
  core::Status take(core::WindowId window, core::SessionId session);
  // A person at `window` looked at the session: its finished/waiting light goes out.
  core::Status seen(core::WindowId window, core::SessionId session);
  // `wharf notify waiting|finished`.
  core::Status mark_activity(core::SessionId session, core::Activity activity);
  // Typed as one paste by the driving window (the composer): see core/paste_text.hpp.
  core::Result<core::PastedText> paste(core::WindowId window, core::SessionId session,
                                       std::string_view text, bool submit);
  core::Status end(core::SessionId session);
  core::Status rename(core::SessionId session, std::string_view name);
  core::Status reorder(const std::vector<core::SessionId>& order);

  std::shared_ptr<Session> find(core::SessionId session) const;
  // Who a local process is: a program of the session it runs in (its cgroup, or a parent
  // chain reaching the session's program or host, or a process the session left behind
  // when it ended); a program of no known session (session 0) when its parent chain
  // reaches this daemon; the user only when nothing ties it to wharf.
  core::Caller caller_of_process(pid_t pid) const;
  // The shared shell, if one is live.
  std::shared_ptr<Session> shared_shell() const;
  // The shared shell, started (the account's login shell, in the default directory) if
  // none is live; error code "no_shared_shell" when the daemon keeps none.
  core::Result<std::shared_ptr<Session>> ensure_shared_shell();
  const core::SessionRegistry& registry() const { return registry_; }
  std::size_t live_count() const { return sessions_.size(); }
  // Ids below `id` belong to sessions alive elsewhere (hosts of another wharf version).
  void reserve_ids_below(core::SessionId id) { registry_.reserve_ids_below(id); }
  std::size_t attached_count() const;
  // The current `sessions` message (docs/protocol.md), shared by every window.
  OutputChunk sessions_list() const;

  // Tells every window the daemon has begun to stop (their pages say so at once).
  void announce_stop(bool sessions_kept = false);
  // Tells every window the daemon is going away (they close their connections).
  void stop_windows();
  // Tells every window its key is spent (they close their connections).
  void key_rotated() { windows_.tell_key_rotated(); }
  // Ends every session; `done` runs once all have finished, or when `limit` passes.
  void end_all(std::chrono::milliseconds limit, std::function<void()> done);
  // Lets go of every session without ending it: their hosts run on for the next daemon.
  void release_all();
  // Takes over sessions whose hosts a previous daemon left (found and greeted by the
  // caller), in their old tab order, with their ids, names and screens. A host whose
  // program exited meanwhile is recorded with its real status and then lets go.
  void adopt(std::vector<host::HostConnection> hosts);

 private:
  void watch_children();
  void watch_idle();
  void on_session_finished(core::SessionId id, const core::ExitStatus& status);
  // Registers a started or adopted session and starts following its host.
  void add_session(const std::shared_ptr<Session>& session);
  // Tells each host its session's name and place, so a later daemon shows them as now.
  void sync_meta();
  std::filesystem::path host_socket(core::SessionId id) const;
  // Saves the last screen of a session that ended (app/final_screens.hpp).
  void keep_final_screen(const Session& session);
  // Tells the host an unseen waiting/finished light, so a later daemon shows it.
  void remember_activity(Session& session);
  void notify_if_all_finished();
  void on_activity(core::SessionId id, Session::ActivityEvent event);
  // Tells every window the list changed. Coalesced: many changes in one turn of the
  // event loop (a burst of attaches) reach each window as one message, built once;
  // otherwise N windows attaching would cost N x N lists.
  void announce_list();
  void send_list_now();

  asio::io_context& io_;
  LaunchDefaults defaults_;
  ServiceOptions options_;
  store::MetadataStore* store_;
  std::int64_t run_id_;
  asio::signal_set child_signals_;
  asio::steady_timer shutdown_timer_;
  asio::steady_timer idle_timer_;
  core::SessionRegistry registry_;
  std::map<core::SessionId, std::shared_ptr<Session>> sessions_;
  WindowSet windows_;
  // Records what a session left running when it ended (see caller_of_process).
  void remember_left_behind(core::SessionId id, pid_t host_pid);
  std::map<std::pair<pid_t, unsigned long long>, core::SessionId> adopted_;  // (pid, start)
  std::set<std::pair<core::SessionId, pid_t>> ended_hosts_;  // (id, host pid), for cgroups
  std::set<core::SessionId> ended_by_request_;               // "ended", as opposed to "exited"
  // Agents that have started a session in this daemon's life: only the first may resume.
  std::set<std::string> agents_started_;
  std::function<void()> on_all_finished_;
  bool list_announce_pending_ = false;
  mutable OutputChunk list_cache_;  // null when the list changed since it was built
};

std::int64_t now_ms();

}  // namespace wharf::app
