#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>

#include "app/session_service.hpp"
#include "core/control_message.hpp"

namespace wharf::server {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

WebSocketSession::WebSocketSession(asio::ip::tcp::socket socket, ServerContext& context)
    : ws_(std::move(socket)), context_(context), slot_(context) {}

WebSocketSession::~WebSocketSession() = default;

void WebSocketSession::start(http::request<http::string_body> request, core::TerminalSize wanted) {
  asio::co_spawn(
      ws_.get_executor(),
      [self = shared_from_this(), request = std::move(request), wanted]() mutable {
        return self->run(std::move(request), wanted);
      },
      [self = shared_from_this()](std::exception_ptr error) {
        // Whatever happened, this window no longer watches its session.
        if (self->session_) self->session_->detach(self.get());
        if (!error) return;
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          spdlog::warn("websocket connection failed: {}", e.what());
        }
      });
}

asio::awaitable<void> WebSocketSession::run(http::request<http::string_body> request,
                                            core::TerminalSize wanted) {
  websocket::stream_base::timeout timeouts{
      .handshake_timeout = std::chrono::seconds(10),
      // A peer that answers no ping for this long is gone (slept laptop, dead network).
      .idle_timeout = std::chrono::seconds(60),
      .keep_alive_pings = true,
  };
  ws_.set_option(timeouts);
  ws_.read_message_max(core::kMaxClientMessageBytes);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "wharf"); }));

  auto [accept_ec] = co_await ws_.async_accept(request, asio::as_tuple(asio::use_awaitable));
  if (accept_ec) co_return;
  open_ = true;
  send_text(core::hello_message());

  auto started = context_.sessions->current_or_start(wanted);
  if (!started) {
    spdlog::error("cannot start a session: {}", started.error().message);
    send_text(core::error_message("start_failed", started.error().message));
    close_after_queue(websocket::close_code::internal_error, "session could not start");
  } else {
    session_ = started.value();
    session_->attach(shared_from_this());
    send_text(core::ready_message(session_->id(), session_->pid(), session_->size()));
  }

  beast::flat_buffer buffer;
  for (;;) {
    auto [ec, n] = co_await ws_.async_read(buffer, asio::as_tuple(asio::use_awaitable));
    if (ec) {
      if (ec == websocket::error::message_too_big)
        spdlog::info("websocket closed: client message over {} bytes",
                     core::kMaxClientMessageBytes);
      break;
    }
    auto data = buffer.cdata();
    std::string_view bytes(static_cast<const char*>(data.data()), data.size());
    if (ws_.got_text()) {
      handle_text(bytes);
    } else if (session_ && !session_->write_input(bytes)) {
      send_text(core::error_message("input_refused",
                                    "the session is not taking input (ended, or not reading)"));
    }
    buffer.consume(buffer.size());
  }
  open_ = false;
}

void WebSocketSession::handle_text(std::string_view text) {
  auto message = core::parse_client_message(text);
  std::visit(
      [this](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, core::ProtocolError>) {
          send_text(core::error_message(m.code, m.message));
        } else if constexpr (std::is_same_v<T, core::PingRequest>) {
          send_text(core::pong_message());
        } else if constexpr (std::is_same_v<T, core::ResizeRequest>) {
          if (!session_) return;
          core::TerminalSize before = session_->size();
          core::TerminalSize after = session_->resize(m.size);
          // A resize that changes nothing still gets its answer (others got on_resize).
          if (after == before) send_text(core::size_message(after));
        } else if constexpr (std::is_same_v<T, core::EndRequest>) {
          if (session_) session_->end();
        }
      },
      message);
}

void WebSocketSession::on_output(const app::OutputChunk& chunk) {
  send(chunk, false);
}

void WebSocketSession::on_resize(core::TerminalSize size) {
  send_text(core::size_message(size));
}

void WebSocketSession::on_exit(core::SessionId id, const core::ExitStatus& status) {
  send_text(core::exit_message(id, status));
  session_.reset();
  close_after_queue(websocket::close_code::normal, "session ended");
}

void WebSocketSession::send_text(std::string text) {
  send(std::make_shared<const std::string>(std::move(text)), true);
}

void WebSocketSession::send(app::OutputChunk data, bool text) {
  if (!open_ || pending_close_) return;
  if (queued_bytes_ + data->size() > kMaxQueuedBytes) {
    // Fallen behind: drop what is queued (the in-flight frame stays) and let it reconnect.
    spdlog::info("websocket fell {} bytes behind; closing it so it reconnects", queued_bytes_);
    while (queue_.size() > (writing_ ? 1u : 0u)) {
      queued_bytes_ -= queue_.back().data->size();
      queue_.pop_back();
    }
    close_after_queue(static_cast<websocket::close_code>(kCloseFellBehind), "fell behind");
    return;
  }
  queued_bytes_ += data->size();
  queue_.push_back({std::move(data), text});
  write_more();
}

void WebSocketSession::close_after_queue(websocket::close_code code, std::string reason) {
  if (pending_close_) return;
  pending_close_ = websocket::close_reason(code, reason);
  write_more();
}

void WebSocketSession::write_more() {
  if (writing_) return;
  if (queue_.empty()) {
    if (pending_close_ && open_) {
      writing_ = true;
      ws_.async_close(*pending_close_, [self = shared_from_this()](beast::error_code) {
        self->writing_ = false;
        self->open_ = false;
      });
    }
    return;
  }
  writing_ = true;
  ws_.text(queue_.front().text);
  ws_.async_write(asio::buffer(*queue_.front().data),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    self->writing_ = false;
                    self->queued_bytes_ -= self->queue_.front().data->size();
                    self->queue_.pop_front();
                    if (ec) {
                      self->open_ = false;
                      self->queue_.clear();
                      self->queued_bytes_ = 0;
                      return;
                    }
                    self->write_more();
                  });
}

}  // namespace wharf::server
