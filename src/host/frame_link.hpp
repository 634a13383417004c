// One end of a daemon-host connection (core/host_protocol.hpp) on an event loop: reads
// frames and hands each to its owner, and writes frames from an outbox.
//
// Invariants: the outbox is one string that a single async_write drains at a time; the
// owner bounds it by looking at queued() before sending bulk data (output, input) and is
// told by on_drained when it has emptied. A malformed frame, a read error or close()
// ends the link once: on_closed runs exactly once, and nothing is delivered after it.
#pragma once

#include <boost/asio/local/stream_protocol.hpp>
#include <functional>
#include <memory>
#include <string>

#include "core/host_protocol.hpp"

namespace wharf::host {

namespace asio = boost::asio;
using LocalSocket = asio::local::stream_protocol::socket;

class FrameLink : public std::enable_shared_from_this<FrameLink> {
 public:
  struct Callbacks {
    std::function<void(core::host::Frame&)> on_frame;
    std::function<void(const std::string& why)> on_closed;
    std::function<void()> on_drained;  // the outbox has been written out
  };

  FrameLink(LocalSocket socket, Callbacks callbacks);
  FrameLink(const FrameLink&) = delete;
  FrameLink& operator=(const FrameLink&) = delete;

  // Starts reading; `already` is what was read before the link took over the socket.
  void start(std::string_view already = {});
  void send(core::host::FrameType type, std::string_view payload);
  // Bytes waiting to be written (the outbox and the write in flight).
  std::size_t queued() const { return outbox_.size() + in_flight_.size(); }
  bool open() const { return !closed_; }
  // Ends the link after what is queued has been written (bounded by the socket).
  void close_after_flush();
  void close(const std::string& why = "closed");
  void set_callbacks(Callbacks callbacks) { callbacks_ = std::move(callbacks); }

 private:
  void read_more();
  void write_more();

  LocalSocket socket_;
  Callbacks callbacks_;
  core::host::FrameReader reader_;
  std::string read_buffer_;
  std::string outbox_;
  std::string in_flight_;
  bool writing_ = false;
  bool closed_ = false;
  bool close_when_flushed_ = false;
};

}  // namespace wharf::host
