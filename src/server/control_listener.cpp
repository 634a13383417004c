#include "server/control_listener.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <istream>
#include <string_view>

#include "server/control_requests.hpp"

namespace wharf::server {
namespace asio = boost::asio;
using local = asio::local::stream_protocol;

core::Result<std::shared_ptr<ControlListener>> ControlListener::open(
    asio::io_context& io, const std::filesystem::path& path, app::SessionService& sessions) {
  // A socket file left by a daemon that died is stale; a live daemon would answer.
  {
    local::socket probe(io);
    boost::system::error_code ec;
    probe.connect(local::endpoint(path.string()), ec);
    if (!ec) return core::Error{"another wharf is already running with " + path.string()};
  }
  unlink(path.c_str());
  local::acceptor acceptor(io);
  boost::system::error_code ec;
  acceptor.open(local(), ec);
  // Created owner-only from the start: no moment where another user could connect.
  mode_t old_mask = umask(077);
  if (!ec) acceptor.bind(local::endpoint(path.string()), ec);
  umask(old_mask);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return core::Error{"cannot create the control socket " + path.string() + ": " + ec.message()};
  chmod(path.c_str(), 0600);
  return std::make_shared<ControlListener>(io, std::move(acceptor), path, sessions);
}

ControlListener::ControlListener(asio::io_context& io, local::acceptor acceptor,
                                 std::filesystem::path path, app::SessionService& sessions)
    : io_(io), acceptor_(std::move(acceptor)), path_(std::move(path)), sessions_(sessions) {}

ControlListener::~ControlListener() {
  unlink(path_.c_str());
}

void ControlListener::start() {
  asio::co_spawn(
      io_, [self = shared_from_this()] { return self->accept_loop(); }, asio::detached);
}

void ControlListener::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
}

asio::awaitable<void> ControlListener::accept_loop() {
  for (;;) {
    auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
    if (ec) continue;
    ucred peer{};
    socklen_t len = sizeof peer;
    if (getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0 ||
        peer.uid != geteuid()) {
      spdlog::warn("control socket: refused a connection from uid {}", peer.uid);
      // One answer line before closing, so the refused `wharf` says why instead of
      // "Broken pipe". Short enough for any socket buffer: the write never blocks.
      boost::system::error_code ignored;
      asio::write(socket,
                  asio::buffer(std::string_view(
                      R"({"ok":false,"code":"forbidden","error":"this wharf daemon belongs to )"
                      R"(another user; only its own user may use its control socket"})"
                      "\n")),
                  ignored);
      continue;  // the socket closes as it goes out of scope
    }
    pid_t peer_pid = peer.pid;
    asio::co_spawn(
        io_,
        [self = shared_from_this(), s = std::move(socket), peer_pid]() mutable {
          return self->serve(std::move(s), peer_pid);
        },
        [](std::exception_ptr error) {
          if (!error) return;
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            spdlog::warn("control connection failed: {}", e.what());
          }
        });
  }
}

asio::awaitable<void> ControlListener::serve(local::socket socket, pid_t peer) {
  // Who is asking: a process inside a wharf session is that session; anything else of
  // this user is the user at a terminal. Decided from the kernel's word, once.
  core::Caller caller = sessions_.caller_of_process(peer);
  asio::streambuf buffer(kMaxControlRequestBytes);
  for (;;) {
    auto [ec, n] =
        co_await asio::async_read_until(socket, buffer, '\n', asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;  // closed, or a line over the limit
    std::string line(asio::buffers_begin(buffer.data()),
                     asio::buffers_begin(buffer.data()) + static_cast<std::ptrdiff_t>(n - 1));
    buffer.consume(n);
    std::string answer = co_await handle_control_request(line, sessions_, caller, actions_) + "\n";
    auto [write_ec, written] = co_await asio::async_write(socket, asio::buffer(answer),
                                                          asio::as_tuple(asio::use_awaitable));
    if (write_ec) co_return;
  }
}

}  // namespace wharf::server
