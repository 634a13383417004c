// The person's own terminal while `wharf attach` runs (attach_client.cpp speaks to the
// daemon). It puts the terminal in raw mode and gives it back, reads the keys, follows
// the window's size (SIGWINCH) and writes what the session shows, with the client's
// notices in their place between the output.
//
// Invariants:
// - The terminal gets back what it had on every way out, once (restore() is idempotent
//   and the destructor calls it, so an exception cannot leave it raw): the modes a
//   program may have set (alternate screen, cursor, mouse, paste, focus, keys) are reset,
//   then termios and the descriptor flags are restored.
// - stdin and stdout are read and written through descriptors of our own, never the
//   shared ones, whose non-blocking flag the shell would inherit after we leave.
// - Writes to stdout are queued and one is in flight at a time; a notice in the queue goes
//   to stderr only when the output before it has been written, so it appears in order.
// - Terminal queries never reach the real terminal (core::QueryFilter): the daemon's
//   screen model answers them, and the real terminal must not answer a second time.
#pragma once

#include <termios.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "core/query_filter.hpp"
#include "core/result.hpp"
#include "core/terminal_size.hpp"

namespace wharf::cli {

// Bytes for the terminal: session output, or a notice for stderr. `raw` (the bytes of
// the binary frame it came from) and `epoch` (the attachment it belongs to) are the
// client's flow control; the terminal only hands them back once the bytes are written.
struct TerminalOutput {
  std::string data;
  std::uint64_t raw = 0;
  std::uint64_t epoch = 0;
  bool notice = false;
};

// What the terminal tells the client. Every call comes from the io_context's thread,
// and the client may call back into the terminal from any of them.
class TerminalListener {
 public:
  virtual ~TerminalListener() = default;
  virtual void on_keys(std::string_view keys) = 0;
  // SIGWINCH: size() has been read again.
  virtual void on_resized() = 0;
  // `item` has been written; `queue_empty` when nothing else waits behind it.
  virtual void on_written(const TerminalOutput& item, bool queue_empty) = 0;
  // The write queue ran dry (only when writes are asynchronous).
  virtual void on_drained() = 0;
  // stdin ended or failed: what was received can still be written and sent.
  virtual void on_read_failed(std::string why) = 0;
  // stdout failed: nothing more can be shown, so the client stops at once.
  virtual void on_write_failed(std::string why) = 0;
};

class AttachTerminal {
 public:
  AttachTerminal(boost::asio::io_context& io, TerminalListener& listener);
  AttachTerminal(const AttachTerminal&) = delete;
  AttachTerminal& operator=(const AttachTerminal&) = delete;
  ~AttachTerminal() { restore(); }

  // This terminal's size as last read (80x24 when it will not say).
  core::TerminalSize size() const { return size_; }
  void refresh_size();

  // Raw mode (no echo, no signals from keys, no output processing) and descriptors of
  // our own for stdin and, when it is a terminal, stdout.
  core::Status enter_raw_mode();
  // Starts reading keys and following SIGWINCH; enter_raw_mode() first.
  void start();
  // No more keys or resizes are reported; output already queued is still written.
  void stop();

  // Session output. With `snapshot`, the bytes recreate the screen, so the terminal is
  // made fresh first.
  void show(std::string_view bytes, bool snapshot, std::uint64_t epoch);
  // One line on stderr. While the terminal is raw it starts on a line of its own.
  void notice(const std::string& text);
  // A notice at most every few seconds, for refusals that come with every key typed.
  void occasional_notice(const std::string& text);
  // Nothing is being written or waits to be.
  bool idle() const { return !out_writing_ && out_queue_.empty(); }

  void restore();

 private:
  boost::asio::awaitable<void> keys_loop();
  void watch_size();
  void write(TerminalOutput item);
  void write_more();

  boost::asio::io_context& io_;
  TerminalListener& listener_;
  boost::asio::posix::stream_descriptor in_;
  boost::asio::posix::stream_descriptor out_;
  // Installed from the start, so a resize while connecting is reported once we attach.
  boost::asio::signal_set winch_;
  core::TerminalSize size_;
  bool stopped_ = false;

  std::optional<std::chrono::steady_clock::time_point> last_occasional_;

  core::QueryFilter filter_;
  bool first_snapshot_ = true;
  std::deque<TerminalOutput> out_queue_;
  bool out_writing_ = false;
  bool out_async_ = false;  // stdout is a terminal of our own; otherwise blocking writes

  termios saved_termios_{};
  int saved_in_flags_ = -1;
  int saved_out_flags_ = -1;
  bool raw_ = false;
  bool stdout_is_tty_ = false;
  bool output_started_ = false;
  bool restored_ = false;
};

}  // namespace wharf::cli
