// `wharf serve`: runs the daemon in the foreground and prints the address to open.
#include <memory>

#include "cli/commands.hpp"
#include "cli/daemon.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_serve(CLI::App& verb) {
  auto options = std::make_shared<DaemonOptions>();
  auto state_dir = std::make_shared<std::string>();
  verb.add_option("--port", options->port, "TCP port to listen on; 0 picks a free one [7373]")
      ->envname("WHARF_PORT")
      ->check(whole_number(0, 65535));
  verb.add_option("--listen", options->listen,
                  "Address to listen on; anything but loopback is reachable from other "
                  "machines [127.0.0.1]")
      ->envname("WHARF_LISTEN");
  add_state_dir_option(verb, *state_dir);
  verb.add_option("--config", options->config,
                  "Config file (default: ~/.config/wharf/config.toml; see docs/config.md)")
      ->envname("WHARF_CONFIG");
  verb.add_option("--workspace", options->workspace,
                  "The directory every session works inside (default: the current directory)")
      ->envname("WHARF_WORKSPACE");
  verb.add_option("--agent", options->default_entry,
                  "What new sessions start: an agent, shell or action from the catalog "
                  "(default: your login shell)")
      ->envname("WHARF_AGENT");
  verb.add_option("--max-sessions", options->max_sessions, "Most live sessions at once [8]")
      ->envname("WHARF_MAX_SESSIONS")
      ->check(whole_number(1, 10000));
  verb.add_option("--idle-expiry", options->idle_expiry_seconds,
                  "End a session nobody watched and that printed nothing for this many "
                  "seconds (0: never) [0]")
      ->envname("WHARF_IDLE_EXPIRY")
      ->check(whole_number(0, UINT32_MAX));
  verb.add_option("--window-timeout", options->window_timeout_seconds,
                  "Drop a window that answers no ping for this many seconds (a dead "
                  "network); a window that only stops reading costs its flow budget [300]")
      ->envname("WHARF_WINDOW_TIMEOUT")
      ->check(whole_number(10, 7 * 24 * 3600));
  verb.add_flag(
          "--shared-shell{true}", options->shared_shell,
          "Keep a shell session, named \"shared shell\", that `wharf run` and run_command use "
          "when no session is named; you see every command they run in it")
      ->envname("WHARF_SHARED_SHELL");
  verb.add_flag("--keep-sessions{true}", options->keep_sessions,
                "Leave the sessions running when this daemon stops (Ctrl-C, SIGTERM); the "
                "next `wharf serve` takes them over. Without it a stop ends them; a crash "
                "never does")
      ->envname("WHARF_KEEP_SESSIONS");
  verb.add_option("--tls", options->tls,
                  "Serve HTTPS with a certificate wharf makes and keeps in STATE_DIR/tls "
                  "(self-signed), or turn a config file's TLS off (off); see docs/remote.md")
      ->envname("WHARF_TLS")
      ->check(CLI::IsMember({"self-signed", "off"}));
  verb.add_option("--tls-cert", options->tls_cert,
                  "Serve HTTPS with this PEM certificate (chain); needs --tls-key")
      ->envname("WHARF_TLS_CERT");
  verb.add_option("--tls-key", options->tls_key, "The PEM private key of --tls-cert")
      ->envname("WHARF_TLS_KEY");
  verb.add_option("--assets", options->assets,
                  "Folder holding the page's files (default: beside the binary)");
  verb.add_option("--log-level", options->log_level,
                  "trace, debug, info, warn, error or off [info]")
      ->envname("WHARF_LOG_LEVEL")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  verb.add_option("--log-format", options->log_format,
                  "text (coloured on a terminal unless NO_COLOR is set) or json (one object "
                  "per line: time, level, msg) [text]")
      ->envname("WHARF_LOG_FORMAT")
      ->check(CLI::IsMember({"text", "json"}));
  verb.footer(R"(Examples:
  wharf serve                                # this directory, http://127.0.0.1:7373
  wharf serve --workspace ~/src --agent claude
  wharf serve --listen 100.101.102.103 --tls self-signed   # a phone on the tailnet
  wharf serve --port 0 --log-format json 2>wharf.log)");
  return [options, state_dir] {
    if (!state_dir->empty()) options->state_dir = *state_dir;
    return run_daemon(*options);
  };
}

}  // namespace

const Command kServeCommand{
    .name = "serve",
    .summary = "Run the wharf daemon and print the address to open in a browser",
    .setup = setup_serve,
};

}  // namespace wharf::cli
