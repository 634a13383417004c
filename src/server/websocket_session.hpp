// One window over WebSocket (docs/protocol.md, protocol 2): sees the session list,
// attaches to one session at a time, drives or watches it.
//
// Reading: binary frames are input, text frames are control messages; a message over
// 64 KiB closes the socket with 1009 (Beast enforces read_message_max). Writing: one
// write at a time from a queue. Output is metered by an OutputBudget: past 1 MiB
// unacknowledged, live output stops and the window gets a fresh snapshot once it has
// caught up, so what is queued for a window stays bounded whatever the program prints.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "app/session.hpp"
#include "app/session_service.hpp"
#include "core/output_budget.hpp"
#include "server/connection_slot.hpp"
#include "server/server_context.hpp"
#include "server/server_stream.hpp"

namespace wharf::server {

// A safety net above budget + snapshot; reaching it means a bug, and the window is
// closed with 4001 rather than let memory grow.
inline constexpr std::size_t kMaxQueuedBytes = 16 * 1024 * 1024;
inline constexpr std::size_t kMaxCoalescedFrame = 256 * 1024;
inline constexpr std::uint16_t kCloseFellBehind = 4001;
// The key the window opened with was replaced (`wharf key rotate`).
inline constexpr std::uint16_t kCloseKeyRotated = 4003;
// The paired device whose cookie opened the window was revoked (`wharf devices revoke`).
inline constexpr std::uint16_t kCloseDeviceRevoked = 4004;

class WebSocketSession : public app::SessionObserver,
                         public app::WindowListener,
                         public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(ServerStream stream, ServerContext& context);
  ~WebSocketSession() override;

  void start(boost::beast::http::request<boost::beast::http::string_body> request,
             core::TerminalSize wanted);
  // The paired device whose cookie opened this window (0: the key did); before start().
  void set_device(std::int64_t device) { device_ = device; }

  // app::SessionObserver
  void on_output(const app::OutputChunk& chunk) override;
  void on_resize(core::TerminalSize size) override;
  void on_exit(core::SessionId id, const core::ExitStatus& status,
               std::optional<core::SessionId> next) override;
  void on_status(const app::OutputChunk& message) override;
  // app::WindowListener
  void on_sessions_changed(const app::OutputChunk& list) override;
  void on_driver_changed(core::SessionId session, bool driving,
                         std::optional<core::WindowId> by) override;
  void on_daemon_stopping() override;
  void on_stop_announced(bool sessions_kept) override;
  void on_chime(core::SessionId session) override;
  void on_key_rotated() override;
  void on_device_revoked(std::int64_t device) override;
  void on_pane_changed(core::SessionId session) override;
  void on_decisions_changed(const app::OutputChunk& message) override;

 private:
  struct Outgoing {
    app::OutputChunk data;
    bool text = false;
    bool list = false;  // a `sessions` message: a newer one replaces it while it waits
  };

  boost::asio::awaitable<void> run(
      boost::beast::http::request<boost::beast::http::string_body> request);
  void handle_text(std::string_view text);
  void handle_input(std::string_view bytes);
  void attach(std::optional<core::SessionId> wanted, bool start);
  void attached_to(const app::Attachment& attachment);
  // `closing`: the connection is gone (not a move this window asked for), so a driver's
  // lease is kept for its token for the grace.
  void detach_quietly(bool closing = false);
  void send_snapshot();
  void send_error(const core::Error& error);
  void send(app::OutputChunk data, bool text);
  void send_text(std::string text);
  void send_list(const app::OutputChunk& list);
  void close_after_queue(boost::beast::websocket::close_code code, std::string reason);
  void write_more();
  app::SessionService& service() { return *context_.sessions; }

  boost::beast::websocket::stream<ServerStream> ws_;
  ServerContext& context_;
  ConnectionSlot slot_;
  core::WindowId window_ = 0;
  std::int64_t device_ = 0;
  core::TerminalSize wanted_size_;
  // The page's window token from its last `attach` (empty: none). A secret that proves
  // which browser tab this is across a reload: never logged.
  std::string window_token_;
  std::shared_ptr<app::Session> session_;
  core::OutputBudget budget_;
  std::deque<Outgoing> queue_;
  // The last queued output frame when this window made it itself (not shared with other
  // windows), so later output can be appended to it while it waits.
  std::shared_ptr<std::string> coalescing_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool open_ = false;
  std::optional<boost::beast::websocket::close_reason> pending_close_;
};

}  // namespace wharf::server
