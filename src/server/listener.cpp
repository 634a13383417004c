#include "server/listener.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cerrno>
#include <optional>
#include <string>

#include "server/http_session.hpp"

namespace wharf::server {
namespace {

constexpr auto kWarnEvery = std::chrono::seconds(10);
// How long the loop waits after an accept error it cannot clear by itself (no spare
// descriptor left, the kernel out of memory): long enough not to spin, short enough that
// nobody notices once descriptors are free again.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);
// One pass takes at most this many waiting connections, so a flood of connects cannot
// hold the loop; the rest wait for the next pass.
constexpr std::size_t kMaxShedPerPass = 256;

bool out_of_descriptors(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors ||
         ec == boost::system::errc::too_many_files_open_in_system;
}

int open_spare() {
  return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

// What a refused connection reads: the same JSON refusal as every other, with a hint to
// retry.
const std::string& busy_answer() {
  static const std::string answer = [] {
    std::string body =
        R"({"ok":false,"error":{"code":"unavailable","message":"wharf is out of file descriptors; try again shortly"}})"
        "\n";
    return "HTTP/1.1 503 Service Unavailable\r\nServer: wharf\r\nContent-Type: "
           "application/json\r\nCache-Control: no-store\r\nRetry-After: 1\r\nConnection: "
           "close\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }();
  return answer;
}

}  // namespace

core::Result<std::shared_ptr<Listener>> Listener::open(asio::io_context& io,
                                                       const asio::ip::tcp::endpoint& endpoint,
                                                       ServerContext& context) {
  asio::ip::tcp::acceptor acceptor(io);
  boost::system::error_code ec;
  std::string where = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  if (acceptor.open(endpoint.protocol(), ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  // Restarting right after a stop must not fail on connections in TIME_WAIT.
  acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (acceptor.bind(endpoint, ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
    return core::Error{"cannot listen on " + where + ": " + ec.message()};
  return std::make_shared<Listener>(io, std::move(acceptor), context);
}

Listener::Listener(asio::io_context& io, asio::ip::tcp::acceptor acceptor, ServerContext& context)
    : io_(io), acceptor_(std::move(acceptor)), context_(context), spare_fd_(open_spare()) {
  // shed_waiting_connections() calls accept itself and must never block.
  boost::system::error_code ignored;
  acceptor_.non_blocking(true, ignored);
}

Listener::~Listener() {
  if (spare_fd_ >= 0) ::close(spare_fd_);
}

void Listener::start() {
  asio::co_spawn(
      io_, [self = shared_from_this()] { return self->accept_loop(); }, asio::detached);
}

void Listener::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
}

asio::awaitable<void> Listener::accept_loop() {
  asio::steady_timer backoff(io_);
  for (;;) {
    auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
    if (ec == asio::error::connection_aborted) continue;  // the client gave up first
    if (ec) {
      // Keep serving the connections we have. Out of descriptors, accept fails at once
      // whether or not anyone is waiting: the waiting ones are refused with the spare's
      // slot, then the loop sleeps until the next client connects (by then descriptors
      // may be free again). Without a spare, or on another error, it waits a moment
      // rather than spin on an error that will not clear by itself.
      if (auto shed = out_of_descriptors(ec) ? shed_waiting_connections() : std::nullopt) {
        if (*shed > 0)
          warn_limited(shed_warning_,
                       "out of file descriptors (raise `ulimit -n`): connections refused", *shed);
        auto [wait_ec] = co_await acceptor_.async_wait(asio::socket_base::wait_read,
                                                       asio::as_tuple(asio::use_awaitable));
        if (wait_ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
        continue;
      }
      warn_limited(error_warning_, "accept failed: " + ec.message(), 1);
      backoff.expires_after(kAcceptBackoff);
      auto [wait_ec] = co_await backoff.async_wait(asio::as_tuple(asio::use_awaitable));
      if (wait_ec == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
      continue;
    }
    if (spare_fd_ < 0) spare_fd_ = open_spare();  // descriptors are free again
    if (shed_warning_.unreported > 0) {
      spdlog::warn("accepting connections again; {} more were refused while out of descriptors",
                   shed_warning_.unreported);
      shed_warning_ = {};
    }
    if (*context_.open_connections >= kMaxConnections) {
      warn_limited(cap_warning_,
                   "connections refused at the cap of " + std::to_string(kMaxConnections) +
                       " open connections",
                   1);
      boost::system::error_code ignored;
      socket.close(ignored);
      continue;
    }
    // Keystroke echoes and the attach messages are small writes that must not wait
    // for the peer's delayed ACK.
    boost::system::error_code ignored;
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
    std::make_shared<HttpSession>(std::move(socket), context_)->start();
  }
}

std::optional<std::size_t> Listener::shed_waiting_connections() {
  if (spare_fd_ < 0) spare_fd_ = open_spare();
  if (spare_fd_ < 0) return std::nullopt;
  ::close(spare_fd_);
  spare_fd_ = -1;
  std::size_t shed = 0;
  while (shed < kMaxShedPerPass) {
    int fd = ::accept4(acceptor_.native_handle(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      break;  // EAGAIN: none left waiting (or out of descriptors again)
    }
    // Best effort and never blocking: read what the client already sent (closing with
    // unread bytes would reset the connection before it reads the answer), answer, close.
    std::array<char, 4096> sink{};
    while (::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT) > 0) {
    }
    const std::string& answer = busy_answer();
    (void)::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
    ++shed;
  }
  spare_fd_ = open_spare();
  return shed;
}

void Listener::warn_limited(LimitedWarning& warning, std::string_view what, std::size_t count) {
  warning.unreported += count;
  auto now = std::chrono::steady_clock::now();
  bool first = warning.last == std::chrono::steady_clock::time_point{};
  if (!first && now - warning.last < kWarnEvery) return;
  spdlog::warn("{} ({} since this was last logged; logged at most every {} s)", what,
               warning.unreported, kWarnEvery.count());
  warning.last = now;
  warning.unreported = 0;
}

}  // namespace wharf::server
