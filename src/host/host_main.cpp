// `wharf host`: the entry point of a session host process (host/session_host.hpp).
//
// The daemon starts it detached (its own process session, stdio on /dev/null) with the
// socket pair on fd 3 and `--socket PATH`. The first frame on the pair is the spawn
// request: the program, its arguments and environment travel there and never on a
// command line, where `ps` would show them.
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>

#include "host/handshake.hpp"
#include "host/session_host.hpp"
#include "pty/child_reaper.hpp"
#include "pty/session_cgroup.hpp"

namespace wharf::host {

namespace hp = core::host;

namespace {

constexpr int kPairFd = 3;
constexpr int kSpawnWaitMs = 10000;

void refuse(const std::string& message, const std::string& code) {
  write_frame(kPairFd, hp::FrameType::kRefused, hp::to_json(hp::Refusal{message, code}));
}

// The spawn request, read with a deadline: a daemon that starts a host and says nothing
// does not leave it waiting for ever.
core::Result<hp::SpawnRequest> read_spawn() {
  hp::FrameReader reader;
  auto frame = read_frame(
      kPairFd, reader, std::chrono::steady_clock::now() + std::chrono::milliseconds(kSpawnWaitMs));
  if (!frame) {
    const std::string& code = frame.error().code;
    return core::Error{code == "timeout" ? "no spawn request came"
                       : code == "gone"  ? "the daemon went away before the spawn request"
                                         : frame.error().message,
                       "protocol"};
  }
  if (frame.value().type != hp::FrameType::kSpawn)
    return core::Error{"the first frame was not a spawn request", "protocol"};
  return hp::parse_spawn(frame.value().payload);
}

std::string socket_argument(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--socket") == 0) return argv[i + 1];
  return {};
}

}  // namespace

int run_host(int argc, char** argv) {
  // The host has no terminal of its own; nobody's Ctrl-C or hang-up is meant for it.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGHUP, SIG_IGN);
  std::signal(SIGINT, SIG_IGN);
  prctl(PR_SET_NAME, "wharf-host", 0, 0, 0);

  std::string socket_path = socket_argument(argc, argv);
  if (socket_path.empty()) return 2;
  auto request = read_spawn();
  if (!request) {
    refuse(request.error().message, "protocol");
    return 2;
  }
  if (request.value().protocol != hp::kProtocolVersion) {
    refuse("this host speaks protocol " + std::to_string(hp::kProtocolVersion), "protocol");
    return 2;
  }
  // Processes the program leaves behind come to this host, which reaps them.
  pty::become_subreaper();

  boost::asio::io_context io(1);
  asio::local::stream_protocol::acceptor acceptor(io);
  {
    std::error_code ignored;
    std::filesystem::remove(socket_path, ignored);
    boost::system::error_code ec;
    mode_t old_mask = umask(077);  // the socket is owner-only from its first moment
    acceptor.open(asio::local::stream_protocol(), ec);
    if (!ec) acceptor.bind(asio::local::stream_protocol::endpoint(socket_path), ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    umask(old_mask);
    if (ec) {
      refuse("cannot listen on " + socket_path + ": " + ec.message(), "spawn_failed");
      return 1;
    }
    chmod(socket_path.c_str(), 0600);
  }

  const hp::SpawnRequest& spawn = request.value();
  // A cgroup of its own where the machine lets us make one: then nothing the program
  // starts escapes the end of its session, not even a setsid() child.
  std::optional<pty::SessionCgroup> cgroup;
  if (auto made = pty::SessionCgroup::create("wharf-session-" + std::to_string(spawn.meta.id) +
                                             "-" + std::to_string(getpid())))
    cgroup.emplace(std::move(made.value()));
  auto process =
      pty::PtyProcess::spawn(pty::SpawnSpec{.program = spawn.program,
                                            .argv = spawn.argv,
                                            .env = spawn.env,
                                            .cwd = spawn.cwd,
                                            .size = spawn.size,
                                            .cgroup_procs_fd = cgroup ? cgroup->procs_fd() : -1});
  if (!process) {
    std::error_code ignored;
    std::filesystem::remove(socket_path, ignored);
    refuse(process.error().message, "spawn_failed");
    return 1;
  }

  LocalSocket pair(io);
  boost::system::error_code ec;
  pair.assign(asio::local::stream_protocol(), kPairFd, ec);
  SessionHost host(io, std::move(request.value()), std::move(process.value()), std::move(cgroup),
                   socket_path, std::move(acceptor));
  if (!ec) host.start(std::move(pair));
  io.run();
  return 0;
}

}  // namespace wharf::host
