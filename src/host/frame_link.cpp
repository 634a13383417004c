#include "host/frame_link.hpp"

#include <boost/asio/write.hpp>

namespace wharf::host {

namespace {
constexpr std::size_t kReadSize = 64 * 1024;
}

FrameLink::FrameLink(LocalSocket socket, Callbacks callbacks)
    : socket_(std::move(socket)), callbacks_(std::move(callbacks)) {}

void FrameLink::start(std::string_view already) {
  read_buffer_.resize(kReadSize);
  if (!already.empty()) {
    reader_.feed(already);
    // Delivered from the loop, so the owner finishes wiring the link first.
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->read_more(); });
    return;
  }
  read_more();
}

void FrameLink::read_more() {
  // Frames already buffered go first; a callback may close the link.
  while (!closed_) {
    auto frame = reader_.next();
    if (!frame) break;
    if (callbacks_.on_frame) callbacks_.on_frame(*frame);
  }
  if (closed_) return;
  if (reader_.failed()) return close("bad frame: " + reader_.error());
  socket_.async_read_some(asio::buffer(read_buffer_),
                          [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                            if (self->closed_) return;
                            if (ec) return self->close(ec.message());
                            self->reader_.feed(std::string_view(self->read_buffer_.data(), n));
                            self->read_more();
                          });
}

void FrameLink::send(core::host::FrameType type, std::string_view payload) {
  if (closed_) return;
  core::host::append_frame(outbox_, type, payload);
  write_more();
}

void FrameLink::write_more() {
  if (writing_ || closed_) return;
  if (outbox_.empty()) {
    if (close_when_flushed_) return close("closed");
    if (callbacks_.on_drained) callbacks_.on_drained();
    return;
  }
  writing_ = true;
  in_flight_.swap(outbox_);
  asio::async_write(socket_, asio::buffer(in_flight_),
                    [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                      self->writing_ = false;
                      self->in_flight_.clear();
                      if (self->closed_) return;
                      if (ec) return self->close(ec.message());
                      self->write_more();
                    });
}

void FrameLink::close_after_flush() {
  close_when_flushed_ = true;
  if (!writing_ && outbox_.empty()) close("closed");
}

void FrameLink::close(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(LocalSocket::shutdown_both, ignored);
  socket_.close(ignored);
  outbox_.clear();
  // Moved out: the owner often drops its pointer to this link from on_closed.
  auto on_closed = std::move(callbacks_.on_closed);
  callbacks_ = {};
  if (on_closed) on_closed(why);
}

}  // namespace wharf::host
