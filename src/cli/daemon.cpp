#include "cli/daemon.hpp"

#include <fcntl.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include "app/key_file.hpp"
#include "app/session_service.hpp"
#include "app/state_paths.hpp"
#include "core/access_key.hpp"
#include "core/environment.hpp"
#include "pty/account.hpp"
#include "server/control_listener.hpp"
#include "server/listener.hpp"
#include "server/server_context.hpp"
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

std::vector<std::string> daemon_environment() {
  std::vector<std::string> entries;
  for (char** e = environ; e && *e; ++e) entries.emplace_back(*e);
  return entries;
}

core::Result<std::string> take_key() {
  if (const char* pinned = std::getenv("WHARF_KEY")) {
    std::string key(pinned);
    unsetenv("WHARF_KEY");
    if (!core::is_well_formed_key(key))
      return core::Error{"WHARF_KEY must be 32 lowercase hex characters"};
    return key;
  }
  return app::mint_key();
}

std::string url_host(const asio::ip::address& address) {
  if (address.is_unspecified()) return address.is_v6() ? "[::1]" : "127.0.0.1";
  return address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
}

}  // namespace

int run_daemon(const DaemonOptions& options) {
  occupy_standard_fds();
  std::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death

  auto logger = spdlog::stderr_color_mt("wharf");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  boost::system::error_code address_ec;
  auto address = asio::ip::make_address(options.listen, address_ec);
  if (address_ec) return fail("--listen needs an IP address, not '" + options.listen + "'");

  app::StatePaths paths = app::resolve_state_paths(
      options.state_dir ? std::optional<fs::path>(*options.state_dir) : std::nullopt);
  for (const fs::path& dir : {paths.state_dir, paths.runtime_dir}) {
    if (auto made = app::ensure_private_dir(dir); !made) return fail(made.error().message);
  }

  auto key = take_key();
  if (!key) return fail(key.error().message);

  std::error_code fs_ec;
  fs::path workspace =
      fs::canonical(options.workspace.value_or(fs::current_path().string()), fs_ec);
  if (fs_ec || !fs::is_directory(workspace))
    return fail("the workspace " + options.workspace.value_or(".") + " is not a directory");

  fs::path asset_root = options.assets ? fs::path(*options.assets) : server::default_asset_root();
  auto assets = server::StaticAssets::load(asset_root);
  if (!assets) return fail(assets.error().message);

  auto store = store::MetadataStore::open(paths.database_file());
  if (!store) return fail(store.error().message);
  auto run = store.value().begin_run(app::now_ms(), getpid());
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
  asio::signal_set stop_signals(io, SIGINT, SIGTERM);
  core::Account account = pty::current_account();
  app::SessionService sessions(
      io,
      app::LaunchDefaults{
          .account = account,
          .base_env = core::base_environment(account, daemon_environment()),
          .workspace = workspace.string(),
      },
      app::ServiceOptions{.max_sessions = options.max_sessions,
                          .idle_expiry = std::chrono::seconds(options.idle_expiry_seconds)},
      &store.value(), run.value().run_id);

  server::ServerContext context{
      .key = key.value(),
      .listen = {.ip = address.to_string(), .port = options.port},
      .assets = std::move(assets.value()),
      .status =
          [&sessions] {
            return server::StatusCounts{sessions.live_count(), sessions.attached_count()};
          },
      .sessions = &sessions,
  };

  auto listener = server::Listener::open(io, {address, options.port}, context);
  if (!listener) return fail(listener.error().message);
  context.listen.port = listener.value()->port();

  if (!address.is_loopback()) {
    spdlog::warn(
        "listening on {}: wharf is reachable from beyond this machine; anyone who "
        "can reach this port and holds the key controls your sessions",
        address.to_string());
  }

  std::string url = "http://" + url_host(address) + ":" + std::to_string(context.listen.port) +
                    "/?k=" + context.key;
  if (auto written = app::write_private_file(paths.key_file(), context.key + "\n"); !written)
    return fail(written.error().message);
  if (auto written = app::write_private_file(paths.url_file(), url + "\n"); !written)
    return fail(written.error().message);

  auto control = server::ControlListener::open(io, paths.socket_file(), sessions);
  if (!control) return fail(control.error().message);
  control.value()->start();
  listener.value()->start();
  std::printf("%s\n", url.c_str());
  std::fflush(stdout);
  spdlog::info("wharf serving {} on {}:{} (state in {})", workspace.string(), address.to_string(),
               context.listen.port, paths.state_dir.string());

  bool stopping = false;
  asio::steady_timer shutdown_grace(io);
  std::function<void(boost::system::error_code, int)> on_stop_signal =
      [&](boost::system::error_code ec, int signal) {
        if (ec) return;
        if (stopping) {
          spdlog::warn("second stop signal: exiting now");
          io.stop();
          return;
        }
        stopping = true;
        spdlog::info("{} received: ending {} session(s)", signal == SIGINT ? "SIGINT" : "SIGTERM",
                     sessions.live_count());
        listener.value()->stop();
        control.value()->stop();
        sessions.end_all(kShutdownLimit, [&] {
          // Windows get a proper close frame before the loop stops.
          sessions.stop_windows();
          shutdown_grace.expires_after(std::chrono::milliseconds(200));
          shutdown_grace.async_wait([&io](boost::system::error_code) { io.stop(); });
        });
        stop_signals.async_wait(on_stop_signal);
      };
  stop_signals.async_wait(on_stop_signal);

  io.run();
  fs::remove(paths.url_file(), fs_ec);
  if (auto ended = store.value().end_run(run.value().run_id, app::now_ms()); !ended)
    spdlog::warn("store: {}", ended.error().message);
  spdlog::info("wharf stopped");
  return 0;
}

}  // namespace wharf::cli
