#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>

#include "core/control_message.hpp"
#include "core/pane.hpp"
#include "ops/decisions.hpp"

namespace wharf::server {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

WebSocketSession::WebSocketSession(ServerStream stream, ServerContext& context)
    : ws_(std::move(stream)), context_(context), slot_(context) {}

WebSocketSession::~WebSocketSession() = default;

void WebSocketSession::start(http::request<http::string_body> request, core::TerminalSize wanted) {
  wanted_size_ = wanted;
  asio::co_spawn(
      ws_.get_executor(),
      [self = shared_from_this(), request = std::move(request)]() mutable {
        return self->run(std::move(request));
      },
      [self = shared_from_this()](std::exception_ptr error) {
        // Whatever happened, this window no longer watches anything.
        self->detach_quietly(true);
        if (self->window_ != 0) self->service().remove_window(self->window_);
        if (!error) return;
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          spdlog::warn("websocket connection failed: {}", e.what());
        }
      });
}

asio::awaitable<void> WebSocketSession::run(http::request<http::string_body> request) {
  websocket::stream_base::timeout timeouts{
      .handshake_timeout = std::chrono::seconds(5),
      // A peer that answers no ping for this long is gone (server_context.hpp).
      .idle_timeout = context_.window_timeout,
      .keep_alive_pings = true,
  };
  ws_.set_option(timeouts);
  ws_.read_message_max(core::kMaxClientMessageBytes);
  ws_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "wharf"); }));

  auto [accept_ec] = co_await ws_.async_accept(request, asio::as_tuple(asio::use_awaitable));
  if (accept_ec) co_return;
  open_ = true;
  window_ = service().add_window(weak_from_this());
  send_text(core::hello_message(window_, context_.keep_sessions));
  send_list(service().sessions_list());
  // The pending decisions, empty or not: the page's cards start from this list.
  send_text(service().decisions().decisions_message());
  service().input_audit().set_window_label(window_, ops::device_name(service(), device_));

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
    } else {
      handle_input(bytes);
    }
    buffer.consume(buffer.size());
  }
  open_ = false;
}

void WebSocketSession::handle_input(std::string_view bytes) {
  if (!session_) {
    send_text(core::error_message("no_session", "this window is not attached to a session"));
    return;
  }
  if (auto typed = service().input(window_, session_->id(), bytes); !typed) {
    send_error(typed.error());
  }
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
        } else if constexpr (std::is_same_v<T, core::AttachRequest>) {
          if (!m.window_token.empty()) window_token_ = m.window_token;
          attach(m.session, m.start);
        } else if constexpr (std::is_same_v<T, core::DetachRequest>) {
          std::optional<core::SessionId> was =
              session_ ? std::optional<core::SessionId>(session_->id()) : std::nullopt;
          detach_quietly();
          send_text(core::detached_message(was, "requested"));
        } else if constexpr (std::is_same_v<T, core::NewRequest>) {
          auto started = service().start(app::start_request(m.launch, wanted_size_));
          if (!started) {
            send_error(started.error());
            return;
          }
          attach(started.value()->id(), false);
        } else if constexpr (std::is_same_v<T, core::EndRequest>) {
          std::optional<core::SessionId> target = m.session;
          if (!target && session_) target = session_->id();
          if (!target) {
            send_text(core::error_message("no_session", "name the session to end"));
            return;
          }
          if (auto ended = service().end(*target); !ended) send_error(ended.error());
        } else if constexpr (std::is_same_v<T, core::RenameRequest>) {
          if (auto renamed = service().rename(m.session, m.name); !renamed)
            send_error(renamed.error());
        } else if constexpr (std::is_same_v<T, core::ReorderRequest>) {
          if (auto reordered = service().reorder(m.order); !reordered)
            send_error(reordered.error());
        } else if constexpr (std::is_same_v<T, core::TakeRequest>) {
          if (!session_) {
            send_text(core::error_message("no_session", "attach to a session first"));
            return;
          }
          if (auto taken = service().take(window_, session_->id()); !taken)
            send_error(taken.error());
        } else if constexpr (std::is_same_v<T, core::ResizeRequest>) {
          wanted_size_ = m.size;
          // A watcher's size changes nothing; only the driver's reaches the PTY.
          if (session_ && service().registry().is_driver(session_->id(), window_)) {
            core::TerminalSize before = session_->size();
            auto applied = service().resize(window_, session_->id(), m.size);
            // An unchanged size still gets its answer (a change reached on_resize).
            if (applied && applied.value() == before) send_text(core::size_message(before));
          }
        } else if constexpr (std::is_same_v<T, core::PasteRequest>) {
          if (!session_) {
            send_text(core::error_message("no_session", "attach to a session first"));
            return;
          }
          auto pasted = service().paste(window_, session_->id(), m.text, m.submit);
          if (!pasted) {
            send_error(pasted.error());
            return;
          }
          send_text(core::pasted_message(session_->id(), pasted.value().bytes.size(),
                                         pasted.value().removed));
        } else if constexpr (std::is_same_v<T, core::SeenRequest>) {
          std::optional<core::SessionId> target = m.session;
          if (!target && session_) target = session_->id();
          if (!target) {
            send_text(core::error_message("no_session", "name the session you have seen"));
            return;
          }
          if (auto seen = service().seen(window_, *target); !seen) send_error(seen.error());
        } else if constexpr (std::is_same_v<T, core::LookingRequest>) {
          service().set_looking(window_, m.looking);
        } else if constexpr (std::is_same_v<T, core::PaneFeedbackRequest>) {
          // Any window may answer a page it was shown (the form is the person's, not the
          // driver's); the token proves which page, and the caps are the store's.
          auto filed = service().pane_feedback(m.session, m.page, m.fields);
          if (!filed) {
            send_error(filed.error());
            return;
          }
          send_text(core::pane_feedback_message(m.session, filed.value().path.string(),
                                                filed.value().typed));
        } else if constexpr (std::is_same_v<T, core::EndedScreenRequest>) {
          const app::EndedSession* ended = service().ended(m.session);
          if (ended == nullptr) {
            send_text(core::error_message(
                "no_session", "no ended session " + std::to_string(m.session) + " is shown"));
            return;
          }
          send_text(core::ended_screen_message(ended->summary, ended->screen));
        } else if constexpr (std::is_same_v<T, core::DecideRequest>) {
          // The same path as answer_decision: the page is the key holder (or its device).
          auto answered = ops::answer_decision_as(
              service(),
              core::Caller{
                  .kind = core::Caller::Kind::kKeyHolder, .device = device_, .via = "window"},
              m.id, m.approve, m.note);
          if (!answered) send_error(answered.error());
        } else if constexpr (std::is_same_v<T, core::DismissRequest>) {
          if (auto closed = service().dismiss(m.session); !closed) send_error(closed.error());
        } else if constexpr (std::is_same_v<T, core::AckRequest>) {
          // An ack that does not fit (one in flight across an exit or a switch of
          // session) is ignored: the window's next ack will be right.
          if (budget_.on_ack(m.bytes, std::chrono::steady_clock::now()) ==
                  core::OutputBudget::Ack::kResync &&
              session_)
            send_snapshot();
        }
      },
      message);
}

void WebSocketSession::attach(std::optional<core::SessionId> wanted, bool start) {
  if (session_ && wanted == session_->id()) {
    // Attaching again to the same session: a fresh snapshot, nothing else changes.
    send_text(core::attached_message(session_->id(),
                                     service().registry().is_driver(session_->id(), window_),
                                     session_->pid(), session_->size()));
    budget_.reset();
    send_snapshot();
    return;
  }
  detach_quietly();
  auto attached =
      service().attach(window_, shared_from_this(), wanted, start, wanted_size_, window_token_);
  if (!attached) {
    if (attached.error().code == "no_sessions") {
      send_text(core::detached_message(std::nullopt, "no_sessions"));
    } else {
      send_error(attached.error());
    }
    return;
  }
  attached_to(attached.value());
}

void WebSocketSession::attached_to(const app::Attachment& attachment) {
  session_ = attachment.session;
  budget_.reset();
  send_text(
      core::attached_message(session_->id(), attachment.driver, session_->pid(), session_->size()));
  send_snapshot();
  // Every attach hears the session's web pane, empty or not (page null).
  send_text(service().pane_message(session_->id()));
  // Every attach hears the status, empty or not: the strip shows this session's now.
  send(session_->status_message(), true);
}

void WebSocketSession::detach_quietly(bool closing) {
  if (!session_) return;
  auto session = std::exchange(session_, nullptr);
  service().detach(window_, session->id(), this, closing ? window_token_ : std::string());
}

void WebSocketSession::send_snapshot() {
  app::OutputChunk bytes = session_->snapshot();
  send_text(core::snapshot_message(session_->id(), bytes->size(), session_->size()));
  budget_.snapshot_sent(bytes->size());
  send(std::move(bytes), false);
}

void WebSocketSession::send_error(const core::Error& error) {
  send_text(core::error_message(error.code.empty() ? "bad_field" : error.code, error.message));
}

void WebSocketSession::on_output(const app::OutputChunk& chunk) {
  // Past the budget the window skips this output; a snapshot catches it up later.
  if (!budget_.try_send(chunk->size())) return;
  // While the socket is busy, output joins the frame waiting behind the write instead
  // of queueing a frame per PTY read: a window slower than the program (or one of a
  // hundred watching it) costs fewer frames and system calls, not more.
  bool tail_waiting = !queue_.empty() && queue_.back().data.get() == coalescing_.get() &&
                      !(writing_ && queue_.size() == 1);
  if (tail_waiting && coalescing_->size() + chunk->size() <= kMaxCoalescedFrame &&
      queued_bytes_ + chunk->size() <= kMaxQueuedBytes && open_ && !pending_close_) {
    coalescing_->append(*chunk);
    queued_bytes_ += chunk->size();
    return;
  }
  if (writing_) {
    coalescing_ = std::make_shared<std::string>(*chunk);
    send(coalescing_, false);
    return;
  }
  send(chunk, false);
}

void WebSocketSession::on_resize(core::TerminalSize size) {
  send_text(core::size_message(size));
}

void WebSocketSession::on_exit(core::SessionId id, const core::ExitStatus& status,
                               std::optional<core::SessionId> next) {
  session_.reset();
  send_text(core::exit_message(id, status, next, service().ended(id) != nullptr));
}

void WebSocketSession::on_status(const app::OutputChunk& message) {
  send(message, true);
}

void WebSocketSession::on_pane_changed(core::SessionId session) {
  if (session_ && session_->id() == session) send_text(service().pane_message(session));
}

void WebSocketSession::on_decisions_changed(const app::OutputChunk& message) {
  if (open_) send(message, true);
}

void WebSocketSession::on_sessions_changed(const app::OutputChunk& list) {
  send_list(list);
}

void WebSocketSession::on_driver_changed(core::SessionId session, bool driving,
                                         std::optional<core::WindowId> by) {
  if (session_ && session_->id() == session) send_text(core::driver_message(session, driving, by));
}

void WebSocketSession::on_stop_announced(bool sessions_kept) {
  send_text(core::stopping_message(sessions_kept));
}

void WebSocketSession::on_chime(core::SessionId session) {
  send_text(core::chime_message(session));
}

void WebSocketSession::on_key_rotated() {
  // A window a paired device opened never held the key: rotating it leaves it open.
  if (device_ != 0) return;
  send_text(core::key_rotated_message());
  close_after_queue(static_cast<websocket::close_code>(kCloseKeyRotated), "the key was rotated");
}

void WebSocketSession::on_device_revoked(std::int64_t device) {
  if (device_ == 0 || device != device_) return;
  send_text(R"({"type":"device_revoked"})");
  close_after_queue(static_cast<websocket::close_code>(kCloseDeviceRevoked),
                    "this device was revoked");
}

void WebSocketSession::on_daemon_stopping() {
  close_after_queue(websocket::close_code::normal, "wharf is stopping");
}

void WebSocketSession::send_text(std::string text) {
  send(std::make_shared<const std::string>(std::move(text)), true);
}

void WebSocketSession::send_list(const app::OutputChunk& list) {
  if (!open_ || pending_close_) return;
  // Only the newest list matters; one still waiting (not being written) is replaced, so
  // a window that reads slowly holds at most one.
  for (std::size_t i = writing_ ? 1 : 0; i < queue_.size(); ++i) {
    if (queue_[i].list) {
      queued_bytes_ = queued_bytes_ - queue_[i].data->size() + list->size();
      queue_[i].data = list;
      return;
    }
  }
  queued_bytes_ += list->size();
  queue_.push_back({list, true, true});
  write_more();
}

void WebSocketSession::send(app::OutputChunk data, bool text) {
  if (!open_ || pending_close_) return;
  if (queued_bytes_ + data->size() > kMaxQueuedBytes) {
    spdlog::warn("websocket queue over {} bytes; closing it so it reconnects", kMaxQueuedBytes);
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
