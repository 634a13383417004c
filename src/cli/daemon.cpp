#include "cli/daemon.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "app/agent_hooks.hpp"
#include "app/config_file.hpp"
#include "app/context_note.hpp"
#include "app/conversation_probe.hpp"
#include "app/key_file.hpp"
#include "app/launch.hpp"
#include "app/saved_defaults.hpp"
#include "app/session_service.hpp"
#include "app/shell_files.hpp"
#include "app/state_paths.hpp"
#include "app/upload_store.hpp"
#include "app/web_push_channel.hpp"
#include "cli/daemon_devices.hpp"
#include "cli/daemon_notifications.hpp"
#include "cli/daemon_sandbox.hpp"
#include "cli/daemon_takeover.hpp"
#include "cli/daemon_tls.hpp"
#include "cli/listen_addresses.hpp"
#include "cli/log_format.hpp"
#include "cli/system_service.hpp"
#include "core/access_key.hpp"
#include "core/catalog.hpp"
#include "core/environment.hpp"
#include "core/version.hpp"
#include "host/host_launch.hpp"
#include "pty/account.hpp"
#include "pty/session_cgroup.hpp"
#include "server/api_endpoints.hpp"
#include "server/control_listener.hpp"
#include "server/listener.hpp"
#include "server/openapi.hpp"
#include "server/server_context.hpp"
#include "server/service_launch_api.hpp"
#include "store/metadata_store.hpp"

extern char** environ;

namespace wharf::cli {
namespace asio = boost::asio;
namespace fs = std::filesystem;

namespace {

constexpr auto kShutdownLimit = std::chrono::seconds(5);

int fail(const std::string& message) {
  std::fprintf(stderr, "wharf: %s\n", message.c_str());
  return 1;
}

// A daemon started with a closed stdin/stdout/stderr would hand those numbers to the
// first files it opens; occupy them with /dev/null first.
void occupy_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0) continue;
    int null_fd = open("/dev/null", O_RDWR);
    if (null_fd >= 0 && null_fd != fd) {
      dup2(null_fd, fd);
      close(null_fd);
    }
  }
}

// Thousands of windows and hundreds of PTYs need more descriptors than the common soft
// limit of 1024; the hard limit is what the administrator allows.
void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  rlim_t wanted = std::min<rlim_t>(limit.rlim_max, 65536);
  if (limit.rlim_cur >= wanted) return;
  limit.rlim_cur = wanted;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
    spdlog::warn("cannot raise the open-file limit to {}: {}", wanted, std::strerror(errno));
}

std::vector<std::string> daemon_environment() {
  std::vector<std::string> entries;
  for (char** e = environ; e && *e; ++e) entries.emplace_back(*e);
  return entries;
}

std::string url_host(const asio::ip::address& address) {
  if (address.is_unspecified()) return address.is_v6() ? "[::1]" : "127.0.0.1";
  return address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
}

std::string expand_home(const std::string& path) {
  if (path == "~" || path.starts_with("~/")) {
    const char* home = std::getenv("HOME");
    return std::string(home != nullptr ? home : "") + path.substr(1);
  }
  return path;
}

std::string session_path_variable(const std::vector<std::string>& env) {
  for (const std::string& entry : env)
    if (entry.starts_with("PATH=")) return entry.substr(5);
  return std::string(core::kDefaultPath);
}

// The operator's context note, if any: WHARF_CONTEXT_FILE, else the config's.
std::pair<std::optional<std::string>, std::string> chosen_context_note(const core::Config& file) {
  if (const char* chosen = std::getenv("WHARF_CONTEXT_FILE"); chosen != nullptr && *chosen) {
    std::string path(chosen);
    unsetenv("WHARF_CONTEXT_FILE");
    return {path, "WHARF_CONTEXT_FILE"};
  }
  if (file.context_file)
    return {expand_home(*file.context_file), file.source + ": [sessions] context_file"};
  return {std::nullopt, ""};
}

// The entry and directory new sessions start with, weakest first: the config file, then
// what a person chose while an earlier daemon ran (`wharf agent`, `wharf cwd`, the page;
// kept in the state dir), then `--agent` on this command line, except when this daemon
// is a restart of the last one: `wharf restart` repeats the old command line, and a
// choice made since must survive it. A name that is not in the catalog stops the start
// (it is a typo); an agent that is not installed only warns, and new sessions start the
// login shell until it is. A kept choice that no longer applies only warns. From then
// on every move is kept.
core::Status choose_defaults(app::SessionService& sessions, const DaemonOptions& options,
                             const core::Config& file, const std::filesystem::path& saved_file,
                             bool restarted) {
  auto set_entry = [&](const std::string& entry) -> core::Status {
    if (entry.empty()) return core::ok_status();
    if (auto chosen = sessions.set_default_entry(entry); !chosen) {
      const core::Error& error = chosen.error();
      if (error.code == "unknown_entry") return core::Error{"the default entry: " + error.message};
      spdlog::warn("{}; new sessions start your login shell instead", error.message);
    }
    return core::ok_status();
  };
  if (file.default_entry)
    if (auto set = set_entry(*file.default_entry); !set) return set;
  if (file.default_directory) {
    if (auto moved = sessions.set_default_directory(*file.default_directory); !moved)
      return core::Error{file.source + ": [sessions] directory: " + moved.error().message};
  }
  bool command_line_wins = options.default_entry && !restarted;
  app::SavedDefaults kept;  // what the file holds that still applies
  auto saved = app::load_defaults(saved_file);
  if (!saved) {
    spdlog::warn("the kept default entry and directory are ignored: {}", saved.error().message);
  } else {
    if (saved.value().entry) {
      kept.entry = saved.value().entry;
      if (command_line_wins) {
        // --agent now: the kept choice stays in the file for a later start without it.
      } else if (auto chosen = sessions.set_default_entry(*kept.entry); !chosen) {
        spdlog::warn("the kept default entry no longer applies: {}", chosen.error().message);
        kept.entry.reset();
      }
    }
    if (saved.value().cwd) {
      if (auto moved = sessions.set_default_directory(*saved.value().cwd); !moved) {
        spdlog::warn("the kept default directory no longer applies: {}", moved.error().message);
      } else {
        kept.cwd = saved.value().cwd;
      }
    }
  }
  if (options.default_entry && (command_line_wins || !kept.entry))
    if (auto set = set_entry(*options.default_entry); !set) return set;
  sessions.remember_defaults_in(saved_file, kept);
  return core::ok_status();
}

}  // namespace

int run_daemon(const DaemonOptions& options) {
  occupy_standard_fds();
  std::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death

  // The command line and WHARF_* variables win over the config file, which wins over
  // wharf's defaults.
  auto config = app::load_config(options.config);
  if (!config) return fail(config.error().message);
  const core::Config& file = config.value();
  std::string listen = options.listen.value_or(file.listen.value_or("127.0.0.1"));
  std::uint16_t port = options.port.value_or(file.port.value_or(7373));
  // A daemon that restarted itself (`wharf restart`) keeps the port it had.
  bool restarted = false;  // this daemon replaces the last one (`wharf restart`)
  if (const char* kept = std::getenv("WHARF_RESTART_PORT")) {
    restarted = true;
    port = static_cast<std::uint16_t>(std::strtoul(kept, nullptr, 10));
    unsetenv("WHARF_RESTART_PORT");
  }
  std::string log_level = options.log_level.value_or(file.log_level.value_or("info"));

  if (options.log_format == "json") {
    install_json_logger();
  } else {
    install_daemon_logger();  // the journal's conventions when run as a service
  }
  spdlog::set_level(spdlog::level::from_str(log_level));

  raise_descriptor_limit();

  boost::system::error_code address_ec;
  auto address = asio::ip::make_address(listen, address_ec);
  if (address_ec) return fail("--listen needs an IP address, not '" + listen + "'");

  app::StatePaths paths = app::resolve_state_paths(
      options.state_dir ? std::optional<fs::path>(*options.state_dir) : std::nullopt);
  for (const fs::path& dir : {paths.state_dir, paths.runtime_dir}) {
    if (auto made = app::ensure_private_dir(dir); !made) return fail(made.error().message);
  }

  // One daemon per state dir, decided before anything in it is touched: a second one
  // would greet the first one's hosts (taking its sessions) and rewrite its key and URL.
  // The lock lives as long as this process image (`wharf restart` takes it again).
  int lock_fd = open((paths.state_dir / "lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    return fail("another wharf is already running with the state dir " + paths.state_dir.string() +
                " (`wharf open` prints its address)");
  }

  // HTTPS or not, decided before anything listens: a certificate that cannot be used
  // stops the start (cli/daemon_tls.hpp).
  std::vector<std::string> reached_at;
  for (std::string host : url_hosts(address, interface_addresses())) {
    if (host.starts_with('[')) host = host.substr(1, host.size() - 2);
    reached_at.push_back(host);
  }
  auto tls = prepare_tls(options, file, paths.state_dir, reached_at, address.is_unspecified());
  if (!tls) return fail(tls.error().message);
  const std::string scheme = tls.value().context ? "https://" : "http://";

  fs::path hosts_dir = paths.runtime_dir / "hosts";
  if (auto made = app::ensure_private_dir(hosts_dir); !made) return fail(made.error().message);
  FoundHosts hosts = find_hosts(hosts_dir);
  pty::remove_empty_session_cgroups();  // those of hosts that died while no daemon ran

  auto key = take_key(paths.key_file(), !hosts.live.empty());
  if (!key) return fail(key.error().message);

  std::error_code fs_ec;
  std::string workspace_given =
      options.workspace.value_or(expand_home(file.workspace.value_or(".")));
  fs::path workspace = fs::canonical(workspace_given, fs_ec);
  if (fs_ec || !fs::is_directory(workspace))
    return fail("the workspace " + workspace_given + " is not a directory");

  fs::path asset_root = options.assets ? fs::path(*options.assets) : server::default_asset_root();
  auto assets = server::StaticAssets::load(asset_root);
  if (!assets) return fail(assets.error().message);

  auto store = store::MetadataStore::open(paths.database_file());
  if (!store) return fail(store.error().message);
  // Sessions whose hosts answered stay live in the store; the rest were interrupted.
  std::vector<std::pair<std::int64_t, std::uint64_t>> alive;
  for (const host::HostConnection& found : hosts.live)
    alive.emplace_back(found.state.meta.run_id, found.state.meta.id);
  auto run = store.value().begin_run(app::now_ms(), getpid(), alive);
  if (!run) return fail(run.error().message);
  if (run.value().interrupted > 0) {
    spdlog::info(
        "{} session(s) were live when wharf last stopped abruptly; recorded as "
        "interrupted",
        run.value().interrupted);
  }

  asio::io_context io(1);
  // Installed before the port is bound and the URL printed: a stop signal that arrives
  // the moment the URL appears must still be a clean stop, never a default death.
  asio::signal_set stop_signals(io, SIGINT, SIGTERM, SIGHUP);
  core::Account account = pty::current_account();
  std::vector<std::string> base_env = core::base_environment(account, daemon_environment());
  std::string session_path = session_path_variable(base_env);
  auto catalog = core::Catalog::build(
      file, [&](std::string_view name) { return app::find_program(name, session_path); },
      app::find_shell);
  if (!catalog) return fail(catalog.error().message);
  // Claude's status line runs this very binary (`wharf status-line`), and the agents'
  // note names it for the web pane (`wharf pane show`).
  std::error_code exe_ec;
  fs::path self_binary = fs::read_symlink("/proc/self/exe", exe_ec);
  auto [chosen_note, note_origin] = chosen_context_note(file);
  auto note = app::prepare_context_note(chosen_note, note_origin, paths.state_dir,
                                        exe_ec ? std::string() : self_binary.string());
  if (!note) return fail(note.error().message);
  std::string agent_settings;
  if (!exe_ec) {
    auto settings = app::prepare_agent_settings(paths.state_dir, self_binary.string());
    if (!settings) return fail(settings.error().message);
    agent_settings = settings.value();
  }

  std::string integration_dir;
  if (file.shell_integration.value_or(true)) {
    auto installed = app::install_shell_integration(paths.state_dir / "shell");
    if (!installed) return fail(installed.error().message);
    integration_dir = (paths.state_dir / "shell").string();
  }
  bool shared_shell = options.shared_shell.value_or(file.shared_shell.value_or(false));

  // Notifications that leave the page (app/notifier.hpp): before the sessions, which
  // tell it who waits or finished, so that it outlives them.
  // Web Push (app/web_push_channel.hpp): the VAPID key, made once, and the browsers that
  // subscribed; the page reaches it through /api/push. Made before the notifier it joins,
  // so that it outlives it (and the sessions).
  app::WebPushChannel web_push(
      paths.state_dir,
      file.notifications.vapid_subject.value_or(app::default_vapid_subject(file.public_url)),
      io.get_executor());
  auto notifier = make_notifier(file, io.get_executor(), session_path);
  if (!notifier) return fail(notifier.error().message);
  notifier.value()->add_channel(web_push);
  std::string opencode_plugin;
  if (!exe_ec) {
    auto plugin = app::prepare_opencode_plugin(paths.state_dir, self_binary.string());
    if (!plugin) return fail(plugin.error().message);
    opencode_plugin = plugin.value();
  }

  app::SessionService sessions(
      io,
      app::LaunchDefaults{
          .account = account,
          .base_env = std::move(base_env),
          .workspace = workspace.string(),
          .catalog = std::move(catalog.value()),
          .machine_env = file.env,
          .allowed_env = file.allow_env,
          .context_file = note.value().path,
          .context_text = note.value().text,
          .agent_settings = agent_settings,
          .wharf_binary = exe_ec ? std::string() : self_binary.string(),
          .opencode_plugin = opencode_plugin,
          .state_dir = options.state_dir.value_or(""),
          .shell_integration = integration_dir,
          .shared_shell = shared_shell,
          .has_conversation =
              [](std::string_view probe, const std::string& home, const std::string& dir) {
                return app::has_previous_conversation(probe, home, dir);
              },
      },
      app::ServiceOptions{
          .max_sessions = options.max_sessions.value_or(file.max_sessions.value_or(8)),
          .idle_expiry = std::chrono::seconds(
              options.idle_expiry_seconds.value_or(file.idle_expiry_seconds.value_or(0))),
          .hosts_dir = hosts_dir,
          .screens_dir = paths.screens_dir(),
          .ended_auto_close = std::chrono::seconds(file.page.ended_auto_close.value_or(0)),
          .panes_dir = paths.state_dir / "pane",
          .pane_max_bytes = file.pane_max_bytes.value_or(core::kDefaultPaneMaxBytes),
          .driver_grace = file.driver_grace_ms ? std::chrono::milliseconds(*file.driver_grace_ms)
                                               : app::kDefaultDriverGrace,
          .decision_expiry = std::chrono::seconds(file.sandbox.decision_expiry_seconds.value_or(
              static_cast<unsigned>(core::kDefaultDecisionExpiry.count()))),
          .sandbox = sandbox_options(
              file, SandboxInputs{.state_dir = paths.state_dir,
                                  .home = account.home,
                                  .workspace = workspace.string(),
                                  .wharf_binary = exe_ec ? std::string() : self_binary.string(),
                                  .exposed = {note.value().path, agent_settings, opencode_plugin,
                                              integration_dir},
                                  .session_path = session_path})},
      &store.value(), run.value().run_id);
  if (auto chosen = choose_defaults(sessions, options, file, paths.defaults_file(), restarted);
      !chosen)
    return fail(chosen.error().message);
  sessions.set_notifier(notifier.value().get());
  sessions.reserve_ids_below(hosts.first_free_id);
  if (!hosts.live.empty()) {
    spdlog::info("taking over {} session(s) an earlier wharf left running", hosts.live.size());
    sessions.adopt(std::move(hosts.live));
  }
  sessions.sweep_sandboxes();

  // Uploads (the composer's images) live beside the state, swept at start and weekly.
  app::UploadStore uploads(paths.state_dir / "uploads",
                           file.upload_max_bytes.value_or(app::kDefaultUploadMaxBytes),
                           file.upload_any_type.value_or(false));
  if (std::size_t swept = uploads.sweep(); swept > 0)
    spdlog::info("removed {} upload(s) older than a week", swept);
  asio::steady_timer upload_sweep(io);
  std::function<void(boost::system::error_code)> sweep_weekly = [&](boost::system::error_code ec) {
    if (ec) return;
    uploads.sweep();
    upload_sweep.expires_after(std::chrono::hours(24 * 7));
    upload_sweep.async_wait(sweep_weekly);
  };
  upload_sweep.expires_after(std::chrono::hours(24 * 7));
  upload_sweep.async_wait(sweep_weekly);

  server::ServiceLaunchApi launch_api(sessions, server::page_defaults_json(file.page),
                                      notifications_summary(*notifier.value()));
  server::ServerContext context{
      .key = key.value(),
      .listen = {.ip = address.to_string(), .port = port},
      .assets = std::move(assets.value()),
      .status =
          [&sessions] {
            return server::StatusCounts{sessions.live_count(), sessions.attached_count()};
          },
      .launch = &launch_api,
      .sessions = &sessions,
      // The page's power button takes the same path as SIGTERM: one way to stop.
      .request_stop = [] { std::raise(SIGTERM); },
      .uploads = &uploads,
      .window_timeout = std::chrono::seconds(options.window_timeout_seconds.value_or(
          file.window_timeout_seconds.value_or(server::kDefaultWindowTimeout.count()))),
  };

  bool keep_sessions = options.keep_sessions.value_or(file.keep_sessions.value_or(false));
  context.keep_sessions = keep_sessions;
  context.api_description = &server::openapi_document();
  context.push = server::push_hooks(web_push);
  context.pane_document = [&sessions](std::uint64_t session, std::string_view token) {
    return sessions.pane_document(session, token);
  };
  // TLS and the names a proxy reaches wharf by, for the Host and Origin rules.
  context.reach = {.tls = tls.value().context != nullptr,
                   .public_url = file.public_url.value_or(""),
                   .allowed_hosts = file.allowed_hosts};
  context.tls_context = tls.value().context.get();
  context.tls_fingerprint = tls.value().fingerprint;
  // Paired devices: the cookie, the `?k=` trade, /pair/CODE (cli/daemon_devices.hpp).
  auto devices = open_devices(paths.state_dir, context, sessions);
  if (!devices) return fail(devices.error().message);
  context.secure_cookies = file.public_url.value_or("").starts_with("https://");
  if (context.reach.tls) context.secure_cookies = true;
  auto listener = server::Listener::open(io, {address, port}, context);
  if (!listener) return fail(listener.error().message);
  context.listen.port = listener.value()->port();

  if (!address.is_loopback()) {
    spdlog::warn(
        "listening on {}: wharf is reachable from beyond this machine; anyone who "
        "can reach this port and holds the key controls your sessions",
        address.to_string());
    if (!context.reach.tls)
      spdlog::warn(
          "and over plain HTTP: the key crosses the network unencrypted; on a network you do "
          "not trust use --tls self-signed, a proxy or a tailnet (docs/remote.md)");
  }

  auto url_with_key = [&](const std::string& with) {
    return scheme + url_host(address) + ":" + std::to_string(context.listen.port) + "/?k=" + with;
  };
  std::string url = url_with_key(context.key);
  if (auto written = app::write_private_file(paths.key_file(), context.key + "\n"); !written)
    return fail(written.error().message);
  if (auto written = app::write_private_file(paths.url_file(), url + "\n"); !written)
    return fail(written.error().message);
  // `wharf attach` pins the certificate by it (cli/attach_connection.hpp).
  fs::remove(paths.fingerprint_file(), fs_ec);
  if (tls.value().context) {
    if (auto written =
            app::write_private_file(paths.fingerprint_file(), tls.value().fingerprint + "\n");
        !written)
      return fail(written.error().message);
  }

  auto control = server::ControlListener::open(io, paths.socket_file(), sessions);
  if (!control) return fail(control.error().message);
  control.value()->start();
  listener.value()->start();
  if (shared_shell) {
    if (auto started = sessions.ensure_shared_shell(); !started)
      spdlog::warn("the shared shell did not start: {}", started.error().message);
  }
  // The journal is no place for the key: users in the adm group read every journal.
  // A service's one line is the address without it; `wharf open` adds the key.
  // One line per address it is reachable at (a wildcard: every interface's), loopback
  // first: the first line is the one scripts read and the one the URL file holds.
  std::vector<std::string> urls;
  for (const std::string& host : url_hosts(address, interface_addresses()))
    urls.push_back(scheme + host + ":" + std::to_string(context.listen.port) +
                   "/?k=" + context.key);
  if (urls.empty()) urls.push_back(url);
  devices.value()->set_base_url(pairing_base_url(file.public_url, urls));
  // `wharf pair` shows the certificate's fingerprint when wharf serves https itself.
  devices.value()->set_fingerprint([&context] { return context.tls_fingerprint; });
  for (const std::string& each : urls) {
    if (is_journal_stream(1)) {
      std::printf("%s (`wharf open` prints it with the key)\n",
                  each.substr(0, each.find('?')).c_str());
    } else {
      std::printf("%s\n", each.c_str());
    }
  }
  std::fflush(stdout);
  if (tls.value().context) {
    // What a person compares on the phone before trusting the certificate (docs/remote.md).
    spdlog::info("serving HTTPS with {}{} certificate {}; SHA-256 fingerprint {}",
                 tls.value().created ? "a new " : "the ",
                 tls.value().self_signed ? "self-signed" : "given", tls.value().cert.string(),
                 tls.value().fingerprint);
  }
  // Which build wrote a log is the first thing a bug report needs.
  spdlog::info("wharf serving {} on {}:{} (version {}, pid {}, state in {})", workspace.string(),
               address.to_string(), context.listen.port, core::kVersion, getpid(),
               paths.state_dir.string());
  // A Type=notify unit counts as started from here: both listeners accept.
  notify_ready("serving " + workspace.string() + " on " + address.to_string() + ":" +
               std::to_string(context.listen.port));
  // Which kind of stop this is, said where the person who will press Ctrl-C looks.
  spdlog::info(keep_sessions ? "Ctrl-C stops wharf and leaves its sessions running for the next "
                               "`wharf serve`"
                             : "Ctrl-C stops wharf and ends its sessions (`wharf serve "
                               "--keep-sessions` keeps them; `wharf restart` always does)");

  // Three ways to stop. A stop signal (Ctrl-C, SIGTERM, the page's power button) ends
  // every session unless the daemon keeps them (--keep-sessions); `wharf restart` keeps
  // them and starts this daemon again on the binary now on disk. A crash keeps them too:
  // they live in their hosts.
  bool stopping = false;
  bool restarting = false;
  asio::steady_timer shutdown_grace(io);
  auto close_windows_and_stop = [&] {
    // Windows get a proper close frame before the loop stops.
    sessions.stop_windows();
    shutdown_grace.expires_after(std::chrono::milliseconds(200));
    shutdown_grace.async_wait([&io](boost::system::error_code) { io.stop(); });
  };
  auto stop = [&](const char* why, bool keep) {
    stopping = true;
    // systemd waits for a restart's new image to say READY=1 again.
    if (restarting) {
      notify_reloading();
    } else {
      notify_stopping();
    }
    upload_sweep.cancel();
    listener.value()->stop();
    control.value()->stop();
    sessions.announce_stop(keep);
    if (keep) {
      spdlog::info("{}: leaving {} session(s) running for the next wharf", why,
                   sessions.live_count());
      sessions.release_all();
      close_windows_and_stop();
      return;
    }
    spdlog::info("{}: ending {} session(s)", why, sessions.live_count());
    sessions.end_all(kShutdownLimit, close_windows_and_stop);
  };
  control.value()->set_actions(server::DaemonActions{
      .restart =
          [&] {
            if (stopping) return;
            restarting = true;
            stop("restart asked for", true);
          },
      .rotate_key =
          [&] {
            // A new key is an explicit act: the old link, every window opened with it and
            // every program holding it stop working at once; the windows are told why.
            auto minted = app::mint_key();
            if (!minted) {
              spdlog::warn("no new key: {}", minted.error().message);
              return url_with_key(context.key);
            }
            context.key = minted.value();
            std::string new_url = url_with_key(context.key);
            if (auto written = app::write_private_file(paths.key_file(), context.key + "\n");
                !written)
              spdlog::warn("{}", written.error().message);
            if (auto written = app::write_private_file(paths.url_file(), new_url + "\n"); !written)
              spdlog::warn("{}", written.error().message);
            sessions.key_rotated();
            spdlog::info("the key was rotated; open windows were closed");
            if (!is_journal_stream(1)) {
              std::printf("%s\n", new_url.c_str());
              std::fflush(stdout);
            }
            return new_url;
          },
  });
  std::function<void(boost::system::error_code, int)> on_stop_signal =
      [&](boost::system::error_code ec, int signal) {
        if (ec) return;
        if (stopping) {
          spdlog::warn("second stop signal: exiting now");
          io.stop();
          return;
        }
        // A closed terminal or SSH connection is no request to end anyone's work: the
        // sessions stay for the next `wharf serve`, as tmux keeps them.
        if (signal == SIGHUP) {
          stop("SIGHUP received (the terminal that ran wharf closed)", true);
        } else {
          stop(signal == SIGINT ? "SIGINT received" : "SIGTERM received", keep_sessions);
        }
        stop_signals.async_wait(on_stop_signal);
      };
  stop_signals.async_wait(on_stop_signal);

  io.run();
  fs::remove(paths.url_file(), fs_ec);
  fs::remove(paths.fingerprint_file(), fs_ec);
  if (auto ended = store.value().end_run(run.value().run_id, app::now_ms()); !ended)
    spdlog::warn("store: {}", ended.error().message);
  if (restarting) return fail(restart_in_place(context.listen.port, context.key).message);
  spdlog::info("wharf stopped");
  return 0;
}

}  // namespace wharf::cli
