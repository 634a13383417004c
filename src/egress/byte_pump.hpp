// Carrying bytes one way between two sockets until the source ends, for the egress proxy
// and the relay inside the sandbox: neither reads what it carries. When the source ends
// (or the destination stops taking bytes), the destination's sending half is shut, so a
// peer that half-closes is seen as such on the other side.
#pragma once

#include <array>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace wharf::egress {

template <class From, class To>
boost::asio::awaitable<void> pump_bytes(From& from, To& to) {
  namespace asio = boost::asio;
  std::array<char, 16384> buffer;
  boost::system::error_code ec;
  for (;;) {
    std::size_t n = co_await from.async_read_some(asio::buffer(buffer),
                                                  asio::redirect_error(asio::use_awaitable, ec));
    if (n > 0) {
      boost::system::error_code write_error;
      co_await asio::async_write(to, asio::buffer(buffer.data(), n),
                                 asio::redirect_error(asio::use_awaitable, write_error));
      if (write_error) break;
    }
    if (ec) break;
  }
  boost::system::error_code ignored;
  to.shutdown(asio::socket_base::shutdown_send, ignored);
}

}  // namespace wharf::egress
