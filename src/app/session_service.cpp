#include "app/session_service.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/json/serialize.hpp>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/launch.hpp"
#include "app/saved_defaults.hpp"
#include "pty/child_reaper.hpp"
#include "pty/process_tree.hpp"
#include "pty/session_cgroup.hpp"
#include "store/metadata_store.hpp"

namespace wharf::app {

// The registry's clock for driver leases: monotonic, in milliseconds.
static std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {
core::Error no_session(core::SessionId id) {
  return core::Error{"no live session " + std::to_string(id), "no_session"};
}
constexpr auto kIdleCheck = std::chrono::seconds(5);
}  // namespace

SessionService::SessionService(asio::io_context& io, LaunchDefaults defaults,
                               ServiceOptions options, store::MetadataStore* store,
                               std::int64_t run_id)
    : io_(io),
      defaults_(std::move(defaults)),
      options_(options),
      store_(store),
      run_id_(run_id),
      child_signals_(io, SIGCHLD),
      shutdown_timer_(io),
      idle_timer_(io),
      grace_timer_(io),
      registry_(options.max_sessions) {
  watch_children();
  if (options_.idle_expiry.count() > 0) watch_idle();
}

void SessionService::watch_children() {
  child_signals_.async_wait([this](boost::system::error_code ec, int) {
    if (ec) return;
    // The daemon's only children are the short-lived middle processes that start hosts
    // (host/host_launch.hpp); programs are their hosts' children, reaped there.
    pty::reap_exited_children([](pid_t, core::ExitStatus) {});
    watch_children();
  });
}

void SessionService::watch_idle() {
  idle_timer_.expires_after(kIdleCheck);
  idle_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    auto now = std::chrono::steady_clock::now();
    for (auto& [id, session] : sessions_) {
      if (session->observer_count() == 0 && !session->ending() &&
          now - session->last_activity() >= options_.idle_expiry) {
        spdlog::info("session {} idle and unwatched for {} s: ending it", id,
                     options_.idle_expiry.count());
        (void)end(id);
      }
    }
    watch_idle();
  });
}

core::WindowId SessionService::add_window(std::weak_ptr<WindowListener> listener) {
  return windows_.add(std::move(listener));
}

void SessionService::remove_window(core::WindowId window) {
  windows_.remove(window);
  input_audit_.forget_window(window);
}

core::Result<std::shared_ptr<Session>> SessionService::start(const StartRequest& request) {
  // Every check comes before anything is registered or forked: a refusal leaves no
  // session, no process and no record behind.
  auto decided = decide_launch(defaults_, request, agents_started_);
  if (!decided) return decided.error();
  LaunchDecision& decision = decided.value();
  const core::CatalogEntry& entry = *decision.entry;

  auto id = registry_.add(entry.name, decision.cwd, now_ms(), request.name,
                          std::string(core::kind_name(entry.kind)));
  if (!id) {
    core::Error error = id.error();
    if (error.code.empty())
      error.code = registry_.live_count() >= registry_.max_live() ? "limit_reached" : "bad_field";
    return error;
  }

  SpawnPlan spawn = plan_spawn(defaults_, request, decision, id.value());
  // The sandbox, when there is one, is made before the program starts: its sockets must
  // be there when it first connects. Any refusal leaves nothing behind.
  auto capabilities = capabilities_for(entry, request.sandbox);
  if (!capabilities) {
    registry_.remove(id.value());
    return capabilities.error();
  }
  if (capabilities.value().sandboxed) {
    std::string dir = (options_.sandbox.sessions_dir / std::to_string(id.value())).string();
    auto wrapped = sandboxed_spawn(spawn.spec, capabilities.value(), options_.sandbox.site, dir);
    core::Status opened = wrapped ? open_sandbox(id.value(), run_id_, capabilities.value())
                                  : core::Status(wrapped.error());
    if (!opened) {
      registry_.remove(id.value());
      close_sandbox(id.value());
      return opened.error();
    }
    spawn.spec = std::move(wrapped.value());
  }
  const pty::SpawnSpec& spec = spawn.spec;
  registry_.set_origin(id.value(), request.owner, request.shared_shell);
  registry_.set_capabilities(id.value(), capabilities.value());
  const core::SessionEntry* registered = registry_.find(id.value());
  core::host::SpawnRequest host_request{
      .program = spec.program,
      .argv = spec.argv,
      .env = spec.env,
      .cwd = spec.cwd,
      .size = spec.size,
      .ending = {.hangup_ms = options_.timings.hangup_grace.count(),
                 .terminate_ms = options_.timings.terminate_grace.count(),
                 .poll_ms = options_.timings.poll.count()},
      .meta = {.id = id.value(),
               .run_id = run_id_,
               .program = entry.name,
               .kind = std::string(core::kind_name(entry.kind)),
               .custom_name = registered->custom_name,
               .cwd = spec.cwd,
               .created_ms = registered->created_ms,
               .creator = registered->creator,
               .shared_shell = registered->shared_shell,
               .shell_integration = spawn.shell_integration,
               .position = static_cast<std::int64_t>(registry_.live_count()),
               .keep_screen = entry.keep_screen,
               .capabilities = capabilities.value()},
  };
  auto connection =
      host::launch_host(host_request, host_socket(id.value()),
                        "wharf-host: " + std::to_string(id.value()) + " " + registered->name());
  if (!connection) {
    registry_.remove(id.value());
    close_sandbox(id.value());
    return core::Error{connection.error().message, "start_failed"};
  }
  if (entry.kind == core::EntryKind::kAgent) agents_started_.insert(entry.name);

  auto session =
      std::make_shared<Session>(io_, id.value(), entry.name, std::move(connection.value()));
  session->set_shell_integration(spawn.shell_integration);
  add_session(session);
  spdlog::info("session {} started: {} {} (pid {}) in {}{}{}{}", id.value(),
               core::kind_name(entry.kind), entry.name, session->pid(), spec.cwd,
               decision.plan.resumed ? ", resuming" : "",
               decision.plan.context ? ", with note" : "",
               capabilities.value().sandboxed ? ", in a sandbox" : "");
  if (store_ != nullptr) {
    auto recorded = store_->session_started(
        run_id_, store::SessionRecord{.session_id = id.value(),
                                      .name = registered->name(),
                                      .entry = entry.name,
                                      .kind = std::string(core::kind_name(entry.kind)),
                                      .program = spec.program,
                                      .cwd = spec.cwd,
                                      .owner = request.owner,
                                      .env_names = spawn.env_names,
                                      .created_at_ms = registered->created_ms,
                                      .capabilities_json = boost::json::serialize(
                                          core::capabilities_object(capabilities.value()))});
    if (!recorded) spdlog::warn("store: {}", recorded.error().message);
  }
  announce_list();
  return session;
}

core::Result<const core::CatalogEntry*> SessionService::set_default_entry(
    std::string_view reference) {
  auto chosen = defaults_.catalog.choose("", reference);
  if (!chosen) return chosen.error();
  const core::CatalogEntry* entry = chosen.value();
  defaults_.default_entry = std::string(core::kind_name(entry->kind)) + ":" + entry->name;
  spdlog::info("new sessions now start {} {}", core::kind_name(entry->kind), entry->name);
  if (!defaults_file_.empty()) {
    kept_defaults_.entry = defaults_.default_entry;
    save_defaults_file();
  }
  return entry;
}

core::Result<std::string> SessionService::set_default_directory(const std::string& directory) {
  auto resolved = choose_directory(defaults_.workspace, directory);
  if (!resolved) return resolved.error();
  std::string relative = std::filesystem::path(resolved.value())
                             .lexically_relative(std::filesystem::canonical(defaults_.workspace))
                             .string();
  defaults_.default_directory = relative == "." ? "" : relative;
  spdlog::info("new sessions now start in {}", resolved.value());
  if (!defaults_file_.empty()) {
    kept_defaults_.cwd = defaults_.default_directory;
    save_defaults_file();
  }
  return resolved.value();
}

// A failure to keep the choice costs only its survival of a restart: the move itself
// already happened, so it is logged rather than refused.
void SessionService::save_defaults_file() {
  if (auto written = save_defaults(defaults_file_, kept_defaults_); !written)
    spdlog::warn("cannot keep the default entry and directory: {}", written.error().message);
}

namespace {

// "ID" or "ID-HOSTPID" after `prefix`: the names wharf gives a session's cgroup
// ("wharf-session-3-1234") and its host's argv[0] ("wharf-host: 3 claude").
struct NamedSession {
  core::SessionId id = 0;
  pid_t host = 0;  // 0: not in the name
};

std::optional<NamedSession> parse_named(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return std::nullopt;
  text.remove_prefix(prefix.size());
  NamedSession out;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out.id);
  if (ec != std::errc{} || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  if (text.starts_with('-')) std::from_chars(text.data() + 1, text.data() + text.size(), out.host);
  return out;
}

// The session cgroup a process is in, if any: cgroup v2's "0::/a/b/wharf-session-3-99/c".
// Membership is inherited by every child and kept across setsid(), double forks and the
// death of every ancestor.
std::optional<NamedSession> session_cgroup_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("0::")) continue;
    std::string_view path = std::string_view(line).substr(3);
    while (!path.empty()) {
      auto slash = path.find('/');
      if (auto named = parse_named(path.substr(0, slash), "wharf-session-")) return named;
      if (slash == std::string_view::npos) break;
      path.remove_prefix(slash + 1);
    }
  }
  return std::nullopt;
}

// Whether `pid` is a wharf host (its argv[0] is "wharf-host: ID NAME"), of this daemon or
// of any other: what runs under one is a session's, never the user's.
bool is_wharf_host(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
  std::array<char, 32> head{};
  in.read(head.data(), head.size());
  std::string_view text(head.data(), static_cast<std::size_t>(in.gcount()));
  return parse_named(text, "wharf-host: ").has_value();
}

constexpr std::size_t kMaxAdopted = 4096;

}  // namespace

core::Caller SessionService::caller_of_process(pid_t pid) const {
  // Decided from what a program cannot shed: its cgroup, where sessions have one; its
  // parent chain reaching a session's program, its host, a wharf host or this daemon
  // (each host is its session's subreaper, so an orphan is the host's child); the
  // processes a finished session left behind, recorded when it ended. Its environment
  // (WHARF_SESSION_ID) and process session (setsid) are its own to change: never read.
  auto in = [](core::SessionId id) {
    return core::Caller{.kind = core::Caller::Kind::kSession, .session = id};
  };
  // A session's id is trusted only where this daemon started that host: a cgroup or a
  // host of another wharf (another state directory) numbers its sessions its own way.
  // Anything else of wharf's is session 0, which may use no session.
  if (auto named = session_cgroup_of(pid)) {
    for (const auto& [id, session] : sessions_)
      if (id == named->id && session->host_pid() == named->host) return in(id);
    if (ended_hosts_.contains({named->id, named->host})) return in(named->id);
    return in(0);
  }
  std::map<pid_t, core::SessionId> leaders;
  for (const auto& [id, session] : sessions_) {
    leaders.emplace(session->pid(), id);
    leaders.emplace(session->host_pid(), id);
  }
  bool under_wharf = false;
  for (const pty::ProcessLink& link : pty::process_ancestry(pid)) {
    if (auto it = leaders.find(link.session); it != leaders.end()) return in(it->second);
    if (auto it = leaders.find(link.pid); it != leaders.end()) return in(it->second);
    if (auto it = adopted_.find({link.pid, link.start_time}); it != adopted_.end())
      return in(it->second);
    // A descendant of any wharf host, or of this daemon (an orphan of a host it started,
    // say), is never the user, whatever session it came from.
    if (link.pid != pid && (link.pid == getpid() || is_wharf_host(link.pid))) under_wharf = true;
  }
  if (under_wharf) return in(0);
  return core::Caller{.kind = core::Caller::Kind::kLocalUser};
}

void SessionService::remember_left_behind(core::SessionId id, pid_t host_pid) {
  if (ended_hosts_.size() >= kMaxAdopted) ended_hosts_.erase(ended_hosts_.begin());
  ended_hosts_.insert({id, host_pid});
  // The host is still alive (it waits for `recorded`): what the program left behind is
  // its child, adopted as the session's subreaper. Once the host exits they go to init
  // and nothing else would tie them to the session.
  std::erase_if(adopted_, [](const auto& entry) {
    auto chain = pty::process_ancestry(entry.first.first, 1);
    return chain.empty() || chain.front().start_time != entry.first.second;
  });
  for (pid_t pid : pty::all_processes()) {
    if (adopted_.size() >= kMaxAdopted) break;
    auto chain = pty::process_ancestry(pid);
    if (chain.empty() || pid == host_pid) continue;
    bool left = std::any_of(chain.begin() + 1, chain.end(),
                            [host_pid](const pty::ProcessLink& l) { return l.pid == host_pid; });
    if (left) adopted_.emplace(std::pair{pid, chain.front().start_time}, id);
  }
}

std::shared_ptr<Session> SessionService::shared_shell() const {
  for (const core::SessionEntry* e : registry_.entries())
    if (e->shared_shell && e->status == core::SessionStatus::kRunning) return find(e->id);
  return nullptr;
}

core::Result<std::shared_ptr<Session>> SessionService::ensure_shared_shell() {
  if (auto live = shared_shell()) return live;
  if (!defaults_.shared_shell)
    return core::Error{
        "this wharf keeps no shared shell: name a session, or start wharf with --shared-shell",
        "no_shared_shell"};
  return start(StartRequest{.kind = "shell",
                            .name = "shared shell",
                            .size = {120, 32},
                            .owner = "key",
                            .shared_shell = true});
}

LaunchStatus SessionService::launch_status() const {
  LaunchStatus status;
  auto chosen = choose_entry(defaults_, StartRequest{});
  if (chosen) {
    status.default_entry = chosen.value()->name;
    status.default_kind = std::string(core::kind_name(chosen.value()->kind));
  }
  status.default_directory = defaults_.default_directory;
  for (const core::SessionEntry* e : registry_.entries()) ++status.running[e->program];
  return status;
}

core::Result<Attachment> SessionService::attach(core::WindowId window,
                                                const std::shared_ptr<SessionObserver>& observer,
                                                std::optional<core::SessionId> wanted,
                                                bool start_if_none, core::TerminalSize size,
                                                std::string_view window_token) {
  std::optional<core::SessionId> target = registry_.landing(wanted);
  if (wanted && target != wanted && sessions_.contains(*wanted)) target = wanted;
  std::shared_ptr<Session> session;
  if (target) {
    session = sessions_.at(*target);
  } else if (start_if_none) {
    auto started = start(StartRequest{.size = size});
    if (!started) return started.error();
    session = started.value();
  } else {
    return core::Error{"there are no sessions", "no_sessions"};
  }
  session->attach(observer);
  core::DriverChange change = registry_.attach(session->id(), window, window_token, steady_ms());
  windows_.mark_used(window);
  bool driver = registry_.is_driver(session->id(), window);
  // The first window to attach gives the session its size (and so does a driver back
  // from its reload: its page may have a new size).
  if (change.gained == window) session->resize(size);
  // A kept lease that ran out before its timer fired went to another window: tell it.
  else if (change.gained)
    windows_.tell_driver(session->id(), change);
  announce_list();
  return Attachment{session, driver};
}

void SessionService::detach(core::WindowId window, core::SessionId id,
                            const SessionObserver* observer, std::string_view gone_token) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return;
  it->second->detach(observer);
  core::DriverChange change =
      registry_.detach(id, window, gone_token, steady_ms(), options_.driver_grace.count());
  windows_.tell_driver(id, change);
  arm_grace_timer();
  announce_list();
}

void SessionService::arm_grace_timer() {
  std::optional<std::int64_t> due = registry_.next_expiry();
  if (!due) {
    grace_timer_.cancel();
    return;
  }
  grace_timer_.expires_at(std::chrono::steady_clock::time_point(std::chrono::milliseconds(*due)));
  grace_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    // The driver did not come back in time: its lease goes where it would have gone.
    for (const auto& [id, change] : registry_.expire_reservations(steady_ms()))
      windows_.tell_driver(id, change);
    announce_list();
    arm_grace_timer();
  });
}

core::Status SessionService::input(core::WindowId window, core::SessionId id,
                                   std::string_view bytes) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  if (!registry_.is_driver(id, window)) {
    return core::Error{"another window drives this session; take it over to type", "not_driver"};
  }
  if (!it->second->write_input(bytes)) {
    return core::Error{"the session is not taking input (ended, or not reading)", "input_refused"};
  }
  windows_.mark_used(window);
  input_audit_.window_input(window, id, now_ms());
  return core::ok_status();
}

core::Result<core::PastedText> SessionService::paste(core::WindowId window, core::SessionId id,
                                                     std::string_view text, bool submit) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  core::PastedText pasted = core::encode_paste(text, it->second->screen().modes().bracketed_paste);
  if (submit) pasted.bytes += '\r';
  if (auto typed = input(window, id, pasted.bytes); !typed) return typed.error();
  return pasted;
}

core::Status SessionService::seen(core::WindowId window, core::SessionId id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  windows_.mark_used(window);
  it->second->seen();
  return core::ok_status();
}

core::Status SessionService::mark_activity(core::SessionId id, core::Activity activity) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  marking_ = true;
  it->second->mark_activity(activity);
  marking_ = false;
  // Every word counts, even one that repeats the light: the debounce decides.
  notify_person(id,
                activity == core::Activity::kWaiting ? core::NotifyKind::kWaiting
                                                     : core::NotifyKind::kFinished,
                NotifySource::kSaid);
  return core::ok_status();
}

void SessionService::on_activity(core::SessionId id, Session::ActivityEvent event) {
  if (event == Session::ActivityEvent::kChanged) {
    auto session = find(id);
    if (session) remember_activity(*session);
    announce_list();
    // Finished by the quiet after work (core/activity.hpp); a mark is told by mark_activity.
    if (session && !marking_ && session->activity() == core::Activity::kFinished)
      notify_person(id, core::NotifyKind::kFinished, NotifySource::kQuiet);
    return;
  }
  if (event == Session::ActivityEvent::kBell) {
    notify_person(id, core::NotifyKind::kWaiting, NotifySource::kBell);
    return;
  }
  windows_.chime(id);
}

core::Result<core::TerminalSize> SessionService::resize(core::WindowId window, core::SessionId id,
                                                        core::TerminalSize size) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  if (!registry_.is_driver(id, window))
    return core::Error{"only the driving window sets the size", "not_driver"};
  return it->second->resize(size);
}

core::Status SessionService::take(core::WindowId window, core::SessionId id) {
  if (!sessions_.contains(id)) return no_session(id);
  core::DriverChange change = registry_.take(id, window);
  if (!registry_.is_driver(id, window))
    return core::Error{"attach to the session before taking it over", "no_session"};
  windows_.tell_driver(id, change);
  arm_grace_timer();  // a take ends a kept lease
  announce_list();
  return core::ok_status();
}

core::Status SessionService::end(core::SessionId id) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return no_session(id);
  if (!it->second->ending()) {
    std::shared_ptr<Session> session = it->second;  // end() may erase it from the map
    ended_by_request_.insert(id);
    registry_.mark_ending(id);
    session->end();
    announce_list();
  }
  return core::ok_status();
}

core::Status SessionService::rename(core::SessionId id, std::string_view name) {
  if (auto renamed = registry_.rename(id, name); !renamed) {
    core::Error error = renamed.error();
    error.code = sessions_.contains(id) ? "bad_field" : "no_session";
    return error;
  }
  if (store_ != nullptr) {
    auto recorded =
        store_->session_renamed(find(id)->meta().run_id, id, registry_.find(id)->name(), now_ms());
    if (!recorded) spdlog::warn("store: {}", recorded.error().message);
  }
  sync_meta();
  announce_list();
  return core::ok_status();
}

core::Status SessionService::reorder(const std::vector<core::SessionId>& order) {
  if (auto done = registry_.reorder(order); !done) {
    core::Error error = done.error();
    error.code = "bad_field";
    return error;
  }
  sync_meta();
  announce_list();
  return core::ok_status();
}

std::shared_ptr<Session> SessionService::find(core::SessionId id) const {
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

std::size_t SessionService::attached_count() const {
  std::size_t n = 0;
  for (const auto& [id, session] : sessions_) n += session->observer_count();
  return n;
}

void SessionService::on_session_finished(core::SessionId id, const core::ExitStatus& status) {
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return;
  if (notifier_ != nullptr) notifier_->forget(id);
  decisions_.withdraw_session(id);
  close_sandbox(id);
  input_audit_.forget_session(id);
  std::shared_ptr<Session> session = it->second;
  std::optional<core::SessionId> next = registry_.neighbour(id);
  bool requested = ended_by_request_.erase(id) > 0;
  std::string outcome = session->host_lost() ? "crashed" : requested ? "ended" : "exited";
  if (store_ != nullptr) {
    auto recorded = store_->session_finished(
        session->meta().run_id, id,
        store::SessionOutcome{.status = outcome,
                              .exit_code = status.code,
                              .signal = status.signal,
                              .ended_at_ms = now_ms(),
                              .bytes_out = session->bytes_out(),
                              .bytes_in = session->bytes_in(),
                              .scrollback_truncated = session->screen().scrollback_dropped() > 0});
    if (!recorded) spdlog::warn("store: {}", recorded.error().message);
  }
  keep_final_screen(*session);
  bool failed = session->host_lost() || status.signal || (status.code && *status.code != 0);
  if (failed && !requested) keep_ended(*session, status, session->host_lost());
  panes_.session_ended(id);
  if (!session->host_lost()) remember_left_behind(id, session->host_pid());
  registry_.remove(id);
  sessions_.erase(it);
  if (session->host_lost()) {
    spdlog::warn("session {}: its host process went away without a word (crashed or killed)", id);
    // A host that dies this way cannot remove its own socket, nor its cgroup.
    std::error_code ignored;
    std::filesystem::remove(host_socket(id), ignored);
    pty::remove_empty_session_cgroups();
  } else {
    spdlog::info("session {} finished ({})", id,
                 status.code ? "exit code " + std::to_string(*status.code)
                             : core::signal_name(status.signal.value_or(0)));
  }
  session->recorded();
  session->notify_exit(next);
  announce_list();
  notify_if_all_finished();
}

void SessionService::announce_list() {
  list_cache_.reset();
  if (list_announce_pending_) return;
  list_announce_pending_ = true;
  asio::post(io_, [this] { send_list_now(); });
}

void SessionService::send_list_now() {
  list_announce_pending_ = false;
  OutputChunk list = sessions_list();
  windows_.tell_sessions(list);
}

OutputChunk SessionService::sessions_list() const {
  if (list_cache_) return list_cache_;
  std::vector<core::SessionSummary> rows;
  for (const core::SessionEntry* e : registry_.entries()) {
    auto session = find(e->id);
    rows.push_back(core::SessionSummary{.id = e->id,
                                        .name = e->name(),
                                        .program = e->program,
                                        .kind = e->kind,
                                        .cwd = e->cwd,
                                        .created_ms = e->created_ms,
                                        .ending = e->status == core::SessionStatus::kEnding,
                                        .driver = e->driver,
                                        .windows = e->windows.size(),
                                        .activity = std::string(core::activity_name(
                                            session ? session->activity() : core::Activity::kIdle)),
                                        .shared_shell = e->shared_shell,
                                        .capabilities = e->capabilities});
  }
  std::vector<core::EndedSummary> ended;
  ended.reserve(ended_.size());
  for (const EndedSession& e : ended_) ended.push_back(e.summary);
  list_cache_ = std::make_shared<const std::string>(core::sessions_message(rows, ended));
  return list_cache_;
}

void SessionService::announce_stop(bool sessions_kept) {
  windows_.tell_stop_announced(sessions_kept);
}

void SessionService::stop_windows() {
  windows_.tell_stopping();
}

void SessionService::end_all(std::chrono::milliseconds limit, std::function<void()> done) {
  on_all_finished_ = std::move(done);
  // Ending may finish sessions synchronously and erase them: iterate over a copy.
  auto live = sessions_;
  for (auto& [id, session] : live) (void)end(id);
  shutdown_timer_.expires_after(limit);
  shutdown_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || !on_all_finished_) return;
    spdlog::warn("{} session(s) did not finish in time", sessions_.size());
    std::exchange(on_all_finished_, nullptr)();
  });
  notify_if_all_finished();
}

void SessionService::notify_if_all_finished() {
  if (!sessions_.empty() || !on_all_finished_) return;
  shutdown_timer_.cancel();
  // Posted so that a caller in the middle of a session callback unwinds first.
  asio::post(io_, std::exchange(on_all_finished_, nullptr));
}

}  // namespace wharf::app
