// The WebSocket to the daemon (see attach_connection.hpp for its invariants). The
// handshake carries the daemon's key and this terminal's size in the URL, and the page's
// Origin, since the daemon accepts WebSocket handshakes from its own page only.
#include "cli/attach_connection.hpp"

#include <fmt/format.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/url/parse.hpp>
#include <fstream>
#include <optional>

#include "app/state_paths.hpp"

namespace wharf::cli {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
using asio::ip::tcp;

core::Result<DaemonAddress> read_daemon_address(const std::string& state_dir) {
  auto paths = app::resolve_state_paths(
      state_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(state_dir));
  std::ifstream in(paths.url_file());
  std::string line;
  if (!in || !std::getline(in, line) || line.empty())
    return core::Error{fmt::format("no running daemon found (no {}); start one with `wharf serve`",
                                   paths.url_file().string())};
  auto parsed = boost::urls::parse_uri(line);
  if (!parsed)
    return core::Error{fmt::format("{} does not hold a wharf address", paths.url_file().string())};
  const boost::urls::url_view& url = parsed.value();
  auto key = url.encoded_params().find("k");
  if (url.scheme() != "http" || !url.has_port() || key == url.encoded_params().end() ||
      !(*key).has_value)
    return core::Error{
        fmt::format("{} does not hold a wharf address ({})", paths.url_file().string(), line)};
  return DaemonAddress{
      .url = line,
      .host = url.host_address(),
      .port = std::string(url.port()),
      .host_header = std::string(url.encoded_host_and_port()),
      .key = std::string((*key).value),
  };
}

AttachConnection::AttachConnection(asio::io_context& io, DaemonAddress target,
                                   ConnectionListener& listener)
    : target_(std::move(target)), listener_(listener), ws_(io) {}

asio::awaitable<void> AttachConnection::run(core::TerminalSize size) {
  using asio::as_tuple;
  using asio::use_awaitable;
  tcp::resolver resolver(ws_.get_executor());
  auto [resolve_ec, endpoints] =
      co_await resolver.async_resolve(target_.host, target_.port, as_tuple(use_awaitable));
  if (resolve_ec) {
    listener_.on_connect_failed(
        fmt::format("cannot find {}: {}", target_.host, resolve_ec.message()));
    co_return;
  }
  auto [connect_ec, endpoint] =
      co_await beast::get_lowest_layer(ws_).async_connect(endpoints, as_tuple(use_awaitable));
  if (connect_ec) {
    listener_.on_connect_failed(
        timed_out_ ? fmt::format("the daemon at {} did not answer", target_.url)
                   : fmt::format("cannot reach the daemon at {} ({}); is `wharf serve` "
                                 "still running?",
                                 target_.url, connect_ec.message()));
    co_return;
  }
  // The stream's own timer must be off once the WebSocket handles timeouts.
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout{
      .handshake_timeout = std::chrono::seconds(5),
      .idle_timeout = websocket::stream_base::none(),
      .keep_alive_pings = false,
  });
  // The daemon accepts WebSocket handshakes from its own page's origin only.
  ws_.set_option(websocket::stream_base::decorator(
      [origin = "http://" + target_.host_header](websocket::request_type& req) {
        req.set(http::field::origin, origin);
        req.set(http::field::user_agent, "wharf attach");
      }));
  websocket::response_type response;
  const std::string path =
      fmt::format("/ws?k={}&cols={}&rows={}", target_.key, size.cols, size.rows);
  auto [handshake_ec] =
      co_await ws_.async_handshake(response, target_.host_header, path, as_tuple(use_awaitable));
  if (handshake_ec) {
    if (response.result_int() != 0 && response.result() != http::status::switching_protocols)
      listener_.on_connect_failed(
          fmt::format("the daemon refused the connection (HTTP {}); its address changed? "
                      "`wharf open` prints the current one",
                      response.result_int()));
    else
      listener_.on_connect_failed(fmt::format("cannot open a WebSocket to {}: {}", target_.url,
                                              timed_out_ ? "no answer" : handshake_ec.message()));
    co_return;
  }
  open_ = true;

  beast::flat_buffer buffer;
  for (;;) {
    auto [read_ec, n] = co_await ws_.async_read(buffer, as_tuple(use_awaitable));
    if (read_ec) {
      open_ = false;
      drop_pending();
      std::string why = "the daemon closed the connection";
      const auto& reason = ws_.reason().reason;
      if (read_ec == websocket::error::closed && !reason.empty())
        why += fmt::format(" ({})", std::string(reason.data(), reason.size()));
      else if (read_ec != websocket::error::closed && read_ec != asio::error::eof)
        why += fmt::format(" ({})", read_ec.message());
      listener_.on_closed(std::move(why));
      co_return;
    }
    const auto data = buffer.cdata();
    std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    if (ws_.got_text()) {
      listener_.on_text(bytes);
    } else {
      listener_.on_binary(bytes);
    }
    buffer.consume(buffer.size());
  }
}

void AttachConnection::time_out() {
  timed_out_ = true;
  beast::get_lowest_layer(ws_).cancel();
}

void AttachConnection::send(Frame frame) {
  if (!open_ || close_queued_) return;
  close_queued_ = frame.close;
  queue_.push_back(std::move(frame));
  write_more();
}

// The frame being written stays until its write completes: Beast still reads it.
void AttachConnection::drop_pending() {
  while (queue_.size() > (writing_ ? 1u : 0u)) queue_.pop_back();
}

void AttachConnection::write_more() {
  if (writing_ || queue_.empty() || !open_) return;
  writing_ = true;
  if (queue_.front().close) {
    ws_.async_close(websocket::close_code::normal, [this](boost::system::error_code) {
      writing_ = false;
      open_ = false;
      queue_.clear();
      listener_.on_write_done();
    });
    return;
  }
  ws_.text(queue_.front().text);
  ws_.async_write(asio::buffer(queue_.front().data),
                  [this](boost::system::error_code ec, std::size_t) {
                    writing_ = false;
                    if (ec) {
                      open_ = false;
                      queue_.clear();
                      listener_.on_write_done();
                      return;
                    }
                    queue_.pop_front();
                    write_more();
                    listener_.on_write_done();
                  });
}

}  // namespace wharf::cli
