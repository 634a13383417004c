// The WebSocket to the daemon (see attach_connection.hpp for its invariants). The
// handshake carries the daemon's key and this terminal's size in the URL, and the page's
// Origin, since the daemon accepts WebSocket handshakes from its own page only.
#include "cli/attach_connection.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <array>
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
  bool tls = url.scheme() == "https";
  if ((url.scheme() != "http" && !tls) || !url.has_port() || key == url.encoded_params().end() ||
      !(*key).has_value)
    return core::Error{
        fmt::format("{} does not hold a wharf address ({})", paths.url_file().string(), line)};
  std::string fingerprint;
  if (tls) {
    std::ifstream pinned(paths.fingerprint_file());
    if (!pinned || !std::getline(pinned, fingerprint) || fingerprint.empty())
      return core::Error{fmt::format("the daemon serves https but {} is missing; restart it",
                                     paths.fingerprint_file().string())};
  }
  return DaemonAddress{
      .tls = tls,
      .fingerprint = fingerprint,
      .url = line,
      .host = url.host_address(),
      .port = std::string(url.port()),
      .host_header = std::string(url.encoded_host_and_port()),
      .key = std::string((*key).value),
  };
}

AttachConnection::AttachConnection(asio::io_context& io, DaemonAddress target,
                                   ConnectionListener& listener)
    : target_(std::move(target)), listener_(listener), ws_(tcp::socket(io)) {}

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
      co_await ws_.next_layer().tcp().async_connect(endpoints, as_tuple(use_awaitable));
  if (connect_ec) {
    listener_.on_connect_failed(
        timed_out_ ? fmt::format("the daemon at {} did not answer", target_.url)
                   : fmt::format("cannot reach the daemon at {} ({}); is `wharf serve` "
                                 "still running?",
                                 target_.url, connect_ec.message()));
    co_return;
  }
  // The stream's own timer must be off once the WebSocket handles timeouts.
  if (target_.tls) {
    if (auto failed = co_await start_tls()) {
      listener_.on_connect_failed(std::move(*failed));
      co_return;
    }
  }
  ws_.next_layer().expires_never();
  ws_.set_option(websocket::stream_base::timeout{
      .handshake_timeout = std::chrono::seconds(5),
      .idle_timeout = websocket::stream_base::none(),
      .keep_alive_pings = false,
  });
  // The daemon accepts WebSocket handshakes from its own page's origin only.
  ws_.set_option(websocket::stream_base::decorator(
      [origin = (target_.tls ? "https://" : "http://") +
                target_.host_header](websocket::request_type& req) {
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

asio::awaitable<std::optional<std::string>> AttachConnection::start_tls() {
  // The certificate is pinned, not checked against names or roots: the daemon's own
  // address may be one no certificate names (127.0.0.1 behind a real certificate).
  tls_context_.set_verify_mode(asio::ssl::verify_peer);
  auto& tls = ws_.next_layer().start_tls(tls_context_);
  tls.set_verify_callback([this](bool, asio::ssl::verify_context& ctx) {
    X509* cert = X509_STORE_CTX_get_current_cert(ctx.native_handle());
    if (X509_STORE_CTX_get_error_depth(ctx.native_handle()) != 0) return true;
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (cert == nullptr || X509_digest(cert, EVP_sha256(), digest.data(), &size) != 1) return false;
    std::string hex;
    for (unsigned int i = 0; i < size; ++i)
      hex += fmt::format("{}{:02X}", i > 0 ? ":" : "", digest[i]);
    pin_matched_ = hex == target_.fingerprint;
    return pin_matched_;
  });
  auto [ec] = co_await tls.async_handshake(asio::ssl::stream_base::client,
                                           asio::as_tuple(asio::use_awaitable));
  if (!ec) co_return std::nullopt;
  if (timed_out_) co_return fmt::format("the daemon at {} did not answer", target_.url);
  co_return pin_matched_
      ? fmt::format("TLS with the daemon at {} failed: {}", target_.url, ec.message())
      : fmt::format(
            "the daemon at {} serves another certificate than the one it "
            "wrote in its runtime folder; restart it",
            target_.url);
}

void AttachConnection::time_out() {
  timed_out_ = true;
  ws_.next_layer().tcp().cancel();
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
