// One browser window attached to a terminal session over WebSocket (docs/protocol.md).
//
// Reading: binary frames are input, text frames are control messages; a message over
// 64 KiB closes the socket with 1009 (Beast enforces read_message_max). Writing: one
// write at a time from a queue bounded in bytes. A window whose queue passes the bound
// has fallen too far behind: its queue is dropped and it is closed with 4001 so it
// reconnects, and the PTY and the other windows never wait for it.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <memory>
#include <optional>

#include "app/session.hpp"
#include "server/connection_slot.hpp"
#include "server/server_context.hpp"

namespace wharf::server {

inline constexpr std::size_t kMaxQueuedBytes = 8 * 1024 * 1024;
inline constexpr std::uint16_t kCloseFellBehind = 4001;

class WebSocketSession : public app::SessionObserver,
                         public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(boost::asio::ip::tcp::socket socket, ServerContext& context);
  ~WebSocketSession() override;

  void start(boost::beast::http::request<boost::beast::http::string_body> request,
             core::TerminalSize wanted);

  void on_output(const app::OutputChunk& chunk) override;
  void on_resize(core::TerminalSize size) override;
  void on_exit(core::SessionId id, const core::ExitStatus& status) override;

 private:
  struct Outgoing {
    app::OutputChunk data;
    bool text = false;
  };

  boost::asio::awaitable<void> run(
      boost::beast::http::request<boost::beast::http::string_body> request,
      core::TerminalSize wanted);
  void handle_text(std::string_view text);
  void send(app::OutputChunk data, bool text);
  void send_text(std::string text);
  void close_after_queue(boost::beast::websocket::close_code code, std::string reason);
  void write_more();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  ServerContext& context_;
  ConnectionSlot slot_;
  std::shared_ptr<app::Session> session_;
  std::deque<Outgoing> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool open_ = false;
  std::optional<boost::beast::websocket::close_reason> pending_close_;
};

}  // namespace wharf::server
