// The WebSocket from `wharf attach` to the daemon: where the daemon listens (its URL
// file), opening the connection as the daemon's own page would, reading frames, and
// writing them in order. What the frames mean is attach_client.cpp's business.
//
// Invariants:
// - Beast allows one read and one write in flight on the socket, so every frame to the
//   daemon goes through one queue, and the closing handshake goes after everything
//   queued before it; nothing is queued after it.
// - Failures are reported as sentences for the person: before the WebSocket opens, the
//   whole line to print (on_connect_failed); after, how it ended (on_closed), to which
//   the client adds what it knows, since that depends on how far it got.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "core/terminal_size.hpp"
#include "server/server_stream.hpp"

namespace wharf::cli {

// Where the daemon listens, from its URL file (http(s)://HOST:PORT/?k=KEY).
struct DaemonAddress {
  // https: the daemon serves TLS, and the connection accepts exactly the certificate
  // whose SHA-256 the daemon wrote beside its URL file ("AB:CD:...").
  bool tls = false;
  std::string fingerprint;
  std::string url;
  std::string host;  // for the resolver: IPv6 without brackets
  std::string port;
  std::string host_header;  // HOST:PORT as the URL spells it
  std::string key;
};

core::Result<DaemonAddress> read_daemon_address(const std::string& state_dir);

// What the connection tells the client, always on the io_context's thread.
class ConnectionListener {
 public:
  virtual ~ConnectionListener() = default;
  // The WebSocket could not be opened; `why` is the line to print.
  virtual void on_connect_failed(std::string why) = 0;
  virtual void on_text(std::string_view text) = 0;
  virtual void on_binary(std::string_view bytes) = 0;
  // Reading ended: the daemon closed, the connection broke, or time_out() cut it (then
  // `why` is moot). "the daemon closed the connection", with its close reason or the
  // error. Frames still queued were dropped.
  virtual void on_closed(std::string why) = 0;
  // A write finished (or failed): the queue may be empty now.
  virtual void on_write_done() = 0;
};

class AttachConnection {
 public:
  AttachConnection(boost::asio::io_context& io, DaemonAddress target, ConnectionListener& listener);
  AttachConnection(const AttachConnection&) = delete;
  AttachConnection& operator=(const AttachConnection&) = delete;

  const DaemonAddress& target() const { return target_; }

  // Resolves, connects, opens the WebSocket for a window of `size`, then reads until the
  // connection ends.
  boost::asio::awaitable<void> run(core::TerminalSize size);
  // The client gave up waiting: whatever is in progress fails, and says so.
  void time_out();
  bool timed_out() const { return timed_out_; }

  void send_text(std::string text) { send(Frame{std::move(text), true, false}); }
  void send_binary(std::string bytes) { send(Frame{std::move(bytes), false, false}); }
  // The closing handshake, after the frames already queued.
  void close() { send(Frame{{}, true, true}); }
  // Frames are being written or wait to be.
  bool busy() const { return open_ && (writing_ || !queue_.empty()); }

 private:
  struct Frame {
    std::string data;
    bool text = true;
    bool close = false;
  };

  // Shakes hands with an HTTPS daemon; nullopt, or the line to print.
  boost::asio::awaitable<std::optional<std::string>> start_tls();
  void send(Frame frame);
  void drop_pending();
  void write_more();

  DaemonAddress target_;
  ConnectionListener& listener_;
  // TLS only to an HTTPS daemon (the stream is the server's: plain or TLS over TCP).
  boost::asio::ssl::context tls_context_{boost::asio::ssl::context::tls_client};
  boost::beast::websocket::stream<server::ServerStream> ws_;
  bool timed_out_ = false;
  bool pin_matched_ = false;  // the daemon's certificate was the pinned one
  std::deque<Frame> queue_;
  bool open_ = false;
  bool writing_ = false;
  bool close_queued_ = false;
};

}  // namespace wharf::cli
