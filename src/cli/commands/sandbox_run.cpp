// `wharf sandbox-run`: the first program inside a sandbox with an allow-listed network
// (wharf puts it after bubblewrap's `--`; docs/sandbox.md). It listens on 127.0.0.1:PORT,
// forks the relay that carries those connections to the session's egress proxy over the
// Unix socket bound into the sandbox, and then becomes the session's program, so the
// program keeps its pid, its terminal and its exit status.
//
// Hidden from help: nobody types it.
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"
#include "egress/relay.hpp"
#include "pty/companion.hpp"

namespace wharf::cli {
namespace {

std::function<int()> setup_sandbox_run(CLI::App& verb) {
  auto socket = std::make_shared<std::string>();
  auto port = std::make_shared<std::uint16_t>(0);
  auto program = std::make_shared<std::vector<std::string>>();
  verb.add_option("--proxy-socket", *socket, "The egress proxy's socket inside the sandbox")
      ->required();
  verb.add_option("--proxy-port", *port, "The loopback port HTTPS_PROXY names")
      ->required()
      ->check(CLI::Range(1, 65535));
  verb.add_option("program", *program, "The session's program and its arguments")->required();
  verb.group("");  // hidden
  return [socket, port, program] {
    auto listening = egress::bind_relay_port(*port);
    if (!listening) return report_failure(listening.error());
    int fd = listening.value();
    std::string path = *socket;
    auto started = pty::exec_with_companion(*program, [fd, path] { egress::run_relay(fd, path); });
    return report_failure(started.error());
  };
}

}  // namespace

const Command kSandboxRunCommand{
    .name = "sandbox-run",
    .summary = "(inside a sandbox) relay the egress proxy to loopback, then run the program",
    .setup = setup_sandbox_run,
};

}  // namespace wharf::cli
