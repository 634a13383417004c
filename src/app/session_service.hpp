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

#include "app/decision_desk.hpp"
#include "app/input_audit.hpp"
#include "app/notifier.hpp"
#include "app/pane_store.hpp"
#include "app/sandbox_launch.hpp"
#include "app/saved_defaults.hpp"
#include "app/session.hpp"
#include "app/session_launch.hpp"
#include "app/session_sandbox.hpp"
#include "app/window_set.hpp"
#include "core/catalog.hpp"
#include "core/env_spec.hpp"
#include "core/environment.hpp"
#include "core/ownership.hpp"
#include "core/paste_text.hpp"
#include "core/result.hpp"
#include "core/session_registry.hpp"
#include "host/host_launch.hpp"
#include "sandbox/resolve.hpp"

namespace wharf::store {
class MetadataStore;
}

namespace wharf::app {

class DeviceService;

inline constexpr std::chrono::milliseconds kDefaultDriverGrace{10000};

// What sandboxed sessions need of the machine and the config (app/sandbox_launch.hpp).
struct SandboxOptions {
  SandboxSite site;
  sandbox::ResolveContext resolve;
  std::filesystem::path sessions_dir;  // <state>/sandbox: one directory per session
};

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
  // An ended session's tab (EndedSession) closes by itself after this long; 0: never
  // (`[page] ended_auto_close`).
  std::chrono::seconds ended_auto_close{0};
  // Where the web pane's pages and feedback are kept (app/pane_store.hpp); empty: memory only.
  std::filesystem::path panes_dir;
  std::size_t pane_max_bytes = core::kDefaultPaneMaxBytes;
  // How long a driving window that went away keeps its lease for its own return
  // (core/session_registry.hpp, "Driver grace"; `[sessions] driver_grace_ms`); 0: none.
  std::chrono::milliseconds driver_grace{kDefaultDriverGrace};
  // How long a pending decision waits for an answer (`[sandbox] decision_expiry_seconds`).
  std::chrono::seconds decision_expiry{core::kDefaultDecisionExpiry};
  SandboxOptions sandbox;
};

struct LaunchStatus {
  std::string default_entry;                   // "claude"
  std::string default_kind;                    // "agent"
  std::string default_directory;               // relative to the workspace; "" is the workspace
  std::map<std::string, std::size_t> running;  // entry name -> live sessions
};

// A session whose program ended by itself with a failure (a status other than 0, a
// signal, a host that went away): kept as a tab in every window, with its last screen,
// until someone closes it (`dismiss`) or `ended_auto_close` passes. In memory only: the
// screen on disk (app/final_screens.hpp) outlives the daemon, these tabs do not.
struct EndedSession {
  core::EndedSummary summary;
  std::string screen;  // plain text, the same as `wharf history ID --screen`
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
  // From now on every move of the defaults is also written to `file` (app/saved_defaults),
  // so the next daemon starts the same way. Called once the start-up defaults are set;
  // `kept`: what the file already holds and still applies. Only what a person moved is
  // written, so a default nobody moved keeps following the config file.
  void remember_defaults_in(std::filesystem::path file, SavedDefaults kept = {}) {
    defaults_file_ = std::move(file);
    kept_defaults_ = std::move(kept);
  }
  LaunchStatus launch_status() const;
  const core::Catalog& catalog() const { return defaults_.catalog; }
  const std::string& workspace() const { return defaults_.workspace; }
  // Attaches to `wanted`, else the landing session, else (if `start_if_none`) a new
  // default session. Error code "no_sessions" when there is nothing to attach to.
  // `window_token`: the page's token (empty: none); the driver that left with it gets
  // its lease back within the grace.
  core::Result<Attachment> attach(core::WindowId window,
                                  const std::shared_ptr<SessionObserver>& observer,
                                  std::optional<core::SessionId> wanted, bool start_if_none,
                                  core::TerminalSize size, std::string_view window_token = {});
  // `gone_token`: set when the window's connection closed (not when it moved on by its
  // own request) and it had a token: a driver's lease is then kept for it for the grace.
  void detach(core::WindowId window, core::SessionId session, const SessionObserver* observer,
              std::string_view gone_token = {});

  core::Status input(core::WindowId window, core::SessionId session, std::string_view bytes);
  core::Result<core::TerminalSize> resize(core::WindowId window, core::SessionId session,
                                          core::TerminalSize size);
  core::Status take(core::WindowId window, core::SessionId session);
  // A person at `window` looked at the session: its finished/waiting light goes out.
  core::Status seen(core::WindowId window, core::SessionId session);
  // What a session of `entry` may do (sandbox/resolve.hpp): the launcher's preview and
  // the session's own, through one function. `requested`: the request's sandbox field.
  core::Result<core::Capabilities> capabilities_for(const core::CatalogEntry& entry,
                                                    std::optional<bool> requested = {}) const;
  // Removes the sandbox directories of sessions no longer live (after adopt()).
  void sweep_sandboxes();
  // {"available": bool, "missing": why not (absent when available), "default": bool}.
  boost::json::object sandbox_status() const;
  // `wharf notify waiting|finished`; also a notification that leaves the page.
  core::Status mark_activity(core::SessionId session, core::Activity activity);
  // Notifications that leave the page (app/notifier.hpp, session_service_notify.cpp):
  // the notifier hears each session that waits or finished; null: none is sent.
  void set_notifier(Notifier* notifier) {
    notifier_ = notifier;
    decisions_.set_notifier(notifier);
  }
  // Pending decisions (app/decision_desk.hpp, session_service_decisions.cpp): every
  // window hears the list when it changes; a session's are withdrawn when it ends.
  DecisionDesk& decisions() { return decisions_; }
  // Input attribution for the audit (app/input_audit.hpp); windows are counted in input().
  InputAudit& input_audit() { return input_audit_; }
  // The `looking` message: whether the window's page is visible and focused.
  void set_looking(core::WindowId window, bool looking) { windows_.set_looking(window, looking); }
  // Whether a window attached to the session is looking at it now.
  bool looked_at(core::SessionId session) const;
  // The web pane (app/pane_store.hpp, session_service_pane.cpp): each change is told to
  // the windows attached to the session, which load the page by its token.
  core::Result<core::PaneSummary> publish_pane(core::SessionId session, std::string_view html,
                                               std::string_view title);
  core::Status clear_pane(core::SessionId session);
  // The protocol's `pane` message for the session (page null when it has none).
  std::string pane_message(core::SessionId session);
  std::shared_ptr<const std::string> pane_document(core::SessionId session, std::string_view token);
  // A form of the page `token` was submitted from a window: filed, then one line typed
  // into the session if it is still live. `typed` says whether it was.
  struct PaneFeedbackReceipt {
    std::filesystem::path path;
    bool typed = false;
  };
  core::Result<PaneFeedbackReceipt> pane_feedback(core::SessionId session, std::string_view token,
                                                  std::string_view fields_json);
  PaneStore& panes() { return panes_; }
  // Typed as one paste by the driving window (the composer): see core/paste_text.hpp.
  core::Result<core::PastedText> paste(core::WindowId window, core::SessionId session,
                                       std::string_view text, bool submit);
  core::Status end(core::SessionId session);
  // Ended sessions kept as tabs (session_service_ended.cpp); at most kMaxEnded, oldest
  // first. `dismiss` closes one in every window; error code "no_session" if none.
  static constexpr std::size_t kMaxEnded = 20;
  const EndedSession* ended(core::SessionId session) const;
  core::Status dismiss(core::SessionId session);
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
  // The paired devices (app/device_service.hpp), for the device operations; null: none.
  void set_devices(DeviceService* devices) { devices_ = devices; }
  DeviceService* devices() const { return devices_; }
  // A device was revoked: the windows it opened close at once.
  void device_revoked(std::int64_t device) { windows_.tell_device_revoked(device); }
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
  void save_defaults_file();
  void on_session_finished(core::SessionId id, const core::ExitStatus& status);
  // Registers a started or adopted session and starts following its host.
  void add_session(const std::shared_ptr<Session>& session);
  // Tells each host its session's name and place, so a later daemon shows them as now.
  void sync_meta();
  std::filesystem::path host_socket(core::SessionId id) const;
  // Saves the last screen of a session that ended (app/final_screens.hpp).
  void keep_final_screen(const Session& session);
  // The text kept as a final screen: recent scrollback, then the visible rows.
  static std::string final_screen_text(const Session& session);
  // Keeps a session that failed as an ended tab (before it leaves the registry).
  void keep_ended(const Session& session, const core::ExitStatus& status, bool crashed);
  // Tells the host an unseen waiting/finished light, so a later daemon shows it.
  void remember_activity(Session& session);
  void notify_if_all_finished();
  void on_activity(core::SessionId id, Session::ActivityEvent event);
  // Tells the notifier (if any) that the session calls for its person.
  void notify_person(core::SessionId id, core::NotifyKind kind, NotifySource source);
  Notifier* notifier_ = nullptr;
  bool marking_ = false;  // inside mark_activity: its change is told as the session's word
  // Tells every window the list changed. Coalesced: many changes in one turn of the
  // event loop (a burst of attaches) reach each window as one message, built once;
  // otherwise N windows attaching would cost N x N lists.
  void announce_list();
  void send_list_now();

  asio::io_context& io_;
  LaunchDefaults defaults_;
  std::filesystem::path defaults_file_;  // empty: moves of the defaults are not kept
  SavedDefaults kept_defaults_;          // what defaults_file_ holds
  ServiceOptions options_;
  store::MetadataStore* store_;
  std::int64_t run_id_;
  asio::signal_set child_signals_;
  asio::steady_timer shutdown_timer_;
  asio::steady_timer idle_timer_;
  // Wakes when the earliest kept driver lease runs out (registry_.next_expiry()).
  asio::steady_timer grace_timer_;
  void arm_grace_timer();
  core::SessionRegistry registry_;
  std::map<core::SessionId, std::shared_ptr<Session>> sessions_;
  WindowSet windows_;
  DeviceService* devices_ = nullptr;
  // Records what a session left running when it ended (see caller_of_process).
  void remember_left_behind(core::SessionId id, pid_t host_pid);
  std::map<std::pair<pid_t, unsigned long long>, core::SessionId> adopted_;  // (pid, start)
  std::set<std::pair<core::SessionId, pid_t>> ended_hosts_;  // (id, host pid), for cgroups
  std::set<core::SessionId> ended_by_request_;               // "ended", as opposed to "exited"
  // Agents that have started a session in this daemon's life: only the first may resume.
  std::set<std::string> agents_started_;
  std::function<void()> on_all_finished_;
  bool list_announce_pending_ = false;
  mutable OutputChunk list_cache_;   // null when the list changed since it was built
  std::vector<EndedSession> ended_;  // oldest first
  std::map<core::SessionId, std::shared_ptr<asio::steady_timer>> ended_timers_;
  PaneStore panes_{options_.panes_dir, options_.pane_max_bytes};
  // Last, so they go first: their callbacks reach the members above.
  std::optional<DecisionSessionView> decision_view(core::SessionId id) const;
  void announce_decisions();
  InputAudit input_audit_{store_, [this](core::SessionId id) {
                            auto session = find(id);
                            return session ? session->meta().run_id : std::int64_t{0};
                          }};
  DecisionDesk decisions_{io_,
                          options_.decision_expiry,
                          store_,
                          run_id_,
                          [this](core::SessionId id) { return decision_view(id); },
                          [this] { announce_decisions(); }};
  // Sandboxed sessions' outside parts (session_service_sandbox.cpp); after the desk, so
  // they close (withdrawing their decisions) before it goes.
  SessionChannelHooks channel_hooks(core::SessionId id);
  core::Status open_sandbox(core::SessionId id, std::int64_t run,
                            const core::Capabilities& capabilities);
  void close_sandbox(core::SessionId id);
  std::map<core::SessionId, std::unique_ptr<SessionSandbox>> sandboxes_;
  // Agents' permission dialogs as decisions (session_service_prompts.cpp).
  struct PromptDecision {
    std::uint64_t decision = 0;
    std::string key;  // the dialog's text (core::AgentPrompt::key)
    std::string approve_keys, deny_keys;
  };
  bool reads_prompts(const Session& session) const;
  void watch_prompts();
  void check_prompt(core::SessionId id, Session& session);
  void answer_prompt(core::SessionId id, const core::DecisionOutcome& outcome);
  std::map<core::SessionId, PromptDecision> prompt_decisions_;
  asio::steady_timer prompt_timer_{io_};
  bool prompt_watch_running_ = false;
};

std::int64_t now_ms();

}  // namespace wharf::app
