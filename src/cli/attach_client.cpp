// The window behind `wharf attach ID` (commands/attach.cpp): this terminal becomes a
// window on one session, as a browser tab is one. It speaks the page's WebSocket protocol
// (docs/protocol.md, version 2) over TCP to the address in the daemon's URL file: stdin,
// in raw mode, is the session's input; the snapshot and then live output go to stdout,
// each binary frame acknowledged once it is written, so the daemon's flow control sees a
// terminal that cannot keep up and skips it ahead with a snapshot. A prefix key (Ctrl-],
// as tmux has Ctrl-b) reaches the client instead of the program: d detaches, t takes over
// driving, r redraws, Ctrl-] sends itself.
//
// Invariants:
// - Attaching never starts a session: the id must be in the daemon's list, and the
//   `attached` answer must name it, or the client leaves at once (closing only detaches).
// - The user's terminal gets back what it had on every way out (detach, exit, errors,
//   exceptions, SIGINT/SIGTERM/SIGHUP): the modes a program may have set (alternate
//   screen, cursor, mouse, paste, focus, keys) are reset, then termios and the descriptor
//   flags are restored, then one line says why the client left.
// - One io_context on one thread. Beast allows one read and one write in flight on the
//   socket, so every frame to the daemon goes through one queue; stdout has its own.
//   Notices share stdout's queue, so they appear in order with the output around them.
// - Terminal queries are removed from the output (core::QueryFilter): the daemon's
//   screen model answers them, and the real terminal must not answer a second time.
#include "cli/attach_client.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <boost/url/parse.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "app/state_paths.hpp"
#include "core/query_filter.hpp"
#include "core/result.hpp"
#include "core/terminal_size.hpp"

namespace wharf::cli {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
namespace json = boost::json;
using asio::ip::tcp;
using core::TerminalSize;

constexpr char kPrefixKey = '\x1d';  // Ctrl-]
constexpr std::int64_t kProtocol = 2;
constexpr std::uint64_t kAckEvery = 64 * 1024;  // as the page: at least this often
constexpr std::size_t kKeysBuffer = 4096;       // well under the 64 KiB message limit
constexpr auto kSetupTimeout = std::chrono::seconds(10);
constexpr auto kDrainTimeout = std::chrono::seconds(2);
constexpr auto kNoticeInterval = std::chrono::seconds(5);
constexpr std::string_view kKeysHelp = "Ctrl-] d detaches, Ctrl-] t takes over";

// Modes a program may have turned on, back to a terminal's defaults: cursor keys and
// keypad, mouse tracking and encodings, focus reporting, bracketed paste, modifyOtherKeys
// and the kitty keyboard flags, insert, autowrap, reverse video, cursor shape and
// visibility. None of them moves the cursor.
constexpr std::string_view kResetModes =
    "\x1b[?1l\x1b>"
    "\x1b[?9l\x1b[?1000l\x1b[?1001l\x1b[?1002l\x1b[?1003l"
    "\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l"
    "\x1b[?1004l\x1b[?2004l"
    "\x1b[>4m\x1b[<u"
    "\x1b[4l\x1b[?7h\x1b[?5l"
    "\x1b[0 q\x1b[?25h";
// The scroll region back to the whole screen (DECSTBM homes the cursor, so the cursor is
// saved and restored around it), then the pen and the character set.
constexpr std::string_view kResetRegionAndPen =
    "\x1b"
    "7\x1b[r\x1b"
    "8\x1b[0m\x1b(B\x0f";

TerminalSize terminal_size() {
  winsize ws{};
  if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return {};
  return core::clamp_size(ws.ws_col, ws.ws_row);
}

// Blocking write of everything (stderr, or a stdout that is not a terminal).
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// A descriptor of its own for the terminal behind `fd`: Asio makes descriptors
// non-blocking, and on the shared one the shell would inherit that flag after we leave.
int reopen_terminal(int fd, int flags) {
  int own = ::open(fmt::format("/proc/self/fd/{}", fd).c_str(), flags | O_NOCTTY | O_CLOEXEC);
  return own >= 0 ? own : ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

std::optional<std::int64_t> int_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  if (v == nullptr) return std::nullopt;
  boost::system::error_code ec;
  auto n = v->to_number<std::int64_t>(ec);
  if (ec) return std::nullopt;
  return n;
}

std::string string_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool bool_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  return v != nullptr && v->is_bool() && v->get_bool();
}

class AttachClient {
 public:
  AttachClient(DaemonAddress target, std::int64_t id)
      : target_(std::move(target)),
        id_(id),
        ws_(io_),
        in_(io_),
        out_(io_),
        stop_signals_(io_, SIGINT, SIGTERM, SIGHUP),
        winch_(io_, SIGWINCH),
        setup_timer_(io_),
        leave_timer_(io_) {}

  AttachClient(const AttachClient&) = delete;
  AttachClient& operator=(const AttachClient&) = delete;

  // Also on an exception out of run(): the terminal is never left raw.
  ~AttachClient() { restore_terminal(); }

  int run() {
    term_size_ = terminal_size();
    stop_signals_.async_wait([this](boost::system::error_code ec, int signo) {
      if (ec) return;
      const char* name = signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "SIGHUP";
      leave(1,
            phase_ == Phase::kAttached ? fmt::format("stopped by {}; session {} goes on", name, id_)
                                       : fmt::format("stopped by {}", name),
            false);
    });
    setup_timer_.expires_after(kSetupTimeout);
    setup_timer_.async_wait([this](boost::system::error_code ec) {
      if (ec || phase_ >= Phase::kAttached) return;
      timed_out_ = true;
      beast::get_lowest_layer(ws_).cancel();
    });
    asio::co_spawn(io_, run_connection(), [](std::exception_ptr error) {
      if (error) std::rethrow_exception(error);
    });
    io_.run();
    restore_terminal();
    if (!farewell_.empty()) std::fprintf(stderr, "wharf: %s\n", farewell_.c_str());
    return exit_code_;
  }

 private:
  enum class Phase { kConnecting, kListing, kAttaching, kAttached, kLeaving };

  // Frames to the daemon; `close` is the closing handshake after everything before it.
  struct Frame {
    std::string data;
    bool text = true;
    bool close = false;
  };
  // Bytes for the terminal: output (counted as `raw` bytes of binary frames for `ack`,
  // in attachment `epoch`) or a notice for stderr.
  struct Output {
    std::string data;
    std::uint64_t raw = 0;
    std::uint64_t epoch = 0;
    bool notice = false;
  };

  asio::awaitable<void> run_connection() {
    using asio::as_tuple;
    using asio::use_awaitable;
    tcp::resolver resolver(io_);
    auto [resolve_ec, endpoints] =
        co_await resolver.async_resolve(target_.host, target_.port, as_tuple(use_awaitable));
    if (resolve_ec) {
      leave(1, fmt::format("cannot find {}: {}", target_.host, resolve_ec.message()));
      co_return;
    }
    auto [connect_ec, endpoint] =
        co_await beast::get_lowest_layer(ws_).async_connect(endpoints, as_tuple(use_awaitable));
    if (connect_ec) {
      leave(1, timed_out_ ? fmt::format("the daemon at {} did not answer", target_.url)
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
        fmt::format("/ws?k={}&cols={}&rows={}", target_.key, term_size_.cols, term_size_.rows);
    auto [handshake_ec] =
        co_await ws_.async_handshake(response, target_.host_header, path, as_tuple(use_awaitable));
    if (handshake_ec) {
      if (response.result_int() != 0 && response.result() != http::status::switching_protocols)
        leave(1, fmt::format("the daemon refused the connection (HTTP {}); its address changed? "
                             "`wharf open` prints the current one",
                             response.result_int()));
      else
        leave(1, fmt::format("cannot open a WebSocket to {}: {}", target_.url,
                             timed_out_ ? "no answer" : handshake_ec.message()));
      co_return;
    }
    ws_open_ = true;

    beast::flat_buffer buffer;
    for (;;) {
      auto [read_ec, n] = co_await ws_.async_read(buffer, as_tuple(use_awaitable));
      if (read_ec) {
        connection_lost(read_ec);
        co_return;
      }
      const auto data = buffer.cdata();
      std::string_view bytes(static_cast<const char*>(data.data()), data.size());
      if (ws_.got_text()) {
        on_text(bytes);
      } else {
        on_binary(bytes);
      }
      buffer.consume(buffer.size());
    }
  }

  void connection_lost(boost::system::error_code ec) {
    ws_open_ = false;
    drop_pending_frames();
    if (phase_ == Phase::kLeaving) {
      maybe_done();
      return;
    }
    if (timed_out_) {
      leave(1, fmt::format("the daemon at {} did not answer within {} s", target_.url,
                           kSetupTimeout.count()));
      return;
    }
    std::string why = "the daemon closed the connection";
    const auto& reason = ws_.reason().reason;
    if (ec == websocket::error::closed && !reason.empty())
      why += fmt::format(" ({})", std::string(reason.data(), reason.size()));
    else if (ec != websocket::error::closed && ec != asio::error::eof)
      why += fmt::format(" ({})", ec.message());
    if (phase_ == Phase::kAttached) why += fmt::format("; session {} may still run", id_);
    leave(1, why);
  }

  void on_text(std::string_view text) {
    if (phase_ == Phase::kLeaving) return;
    boost::system::error_code ec;
    json::value value = json::parse(text, ec);
    const json::object* obj = ec ? nullptr : value.if_object();
    if (obj == nullptr) return;  // the daemon sends none; ignored, as the page does
    const std::string type = string_field(*obj, "type");

    if (phase_ == Phase::kConnecting) {
      auto protocol = int_field(*obj, "protocol");
      if (type != "hello" || protocol != kProtocol) {
        // Guessing at another protocol could type garbage into a session.
        leave(1, fmt::format("the daemon speaks protocol {}; this wharf knows {}; use the wharf "
                             "binary that runs the daemon",
                             protocol ? std::to_string(*protocol) : "?", kProtocol));
        return;
      }
      phase_ = Phase::kListing;
      return;
    }
    if (type == "sessions") {
      if (const json::value* list = obj->if_contains("sessions"); list && list->is_array())
        sessions_ = list->get_array();
      if (phase_ == Phase::kListing) {
        // Only an id in the list is attached to: for a missing one the daemon would pick
        // another session.
        if (find_session() == nullptr) {
          leave(1, gone_message());
          return;
        }
        send_json({{"type", "attach"}, {"session", id_}});
        phase_ = Phase::kAttaching;
      }
    } else if (type == "attached") {
      on_attached(*obj);
    } else if (type == "snapshot") {
      if (phase_ == Phase::kAttached) snapshot_next_ = true;
    } else if (type == "detached") {
      if (phase_ == Phase::kAttaching) {
        leave(1, gone_message());
      } else if (string_field(*obj, "reason") == "ended") {
        leave(0, fmt::format("session {} ended", id_));
      } else {
        leave(0, fmt::format("detached; session {} goes on", id_));
      }
    } else if (type == "exit") {
      on_exit(*obj);
    } else if (type == "driver") {
      on_driver(*obj);
    } else if (type == "size") {
      auto cols = int_field(*obj, "cols");
      auto rows = int_field(*obj, "rows");
      if (cols && rows) session_size_ = core::clamp_size(*cols, *rows);
    } else if (type == "error") {
      on_error(string_field(*obj, "code"), string_field(*obj, "message"));
    }
    // hello (only ever first), pong, and types this version does not know: nothing to do.
  }

  void on_attached(const json::object& obj) {
    auto session = int_field(obj, "session");
    if (session != id_) {
      // The daemon fell back to another session: never stay on one we were not asked for.
      leave(1, phase_ == Phase::kAttaching
                   ? gone_message()
                   : fmt::format("the daemon moved this window to session {}",
                                 session ? std::to_string(*session) : "?"));
      return;
    }
    driver_ = bool_field(obj, "driver");
    session_size_ =
        core::clamp_size(int_field(obj, "cols").value_or(80), int_field(obj, "rows").value_or(24));
    ++epoch_;  // writes still queued for the previous attachment no longer count
    processed_ = 0;
    acked_ = 0;
    switching_ = false;
    snapshot_next_ = false;
    if (phase_ != Phase::kAttaching) {
      holding_ = false;  // the answer to a redraw or to the first resize: draw this one
      return;
    }
    phase_ = Phase::kAttached;
    setup_timer_.cancel();
    term_size_ = terminal_size();  // it may have changed while connecting
    std::fprintf(stderr, "wharf: attached to session %lld (%s) as %s; %s\n",
                 static_cast<long long>(id_), session_name().c_str(), role_text().c_str(),
                 std::string(kKeysHelp).c_str());
    std::fflush(stderr);
    if (auto raw = enter_raw_mode(); !raw) {
      leave(1, raw.error().message);
      return;
    }
    read_keys();
    watch_size();
    if (driver_ && session_size_ != term_size_) {
      // The snapshot on its way is drawn at the session's old size. Resize first and ask
      // for a fresh one (the daemon handles messages in order), so the screen is drawn
      // once, at this terminal's size, and its scrollback lands here only once.
      send_resize();
      send_json({{"type", "attach"}, {"session", id_}});
      holding_ = true;
    }
    if (!driver_) watching_notice_due_ = true;
  }

  void on_exit(const json::object& obj) {
    if (int_field(obj, "session") != id_) return;
    const json::value* signal = obj.if_contains("signal");
    auto code = int_field(obj, "code");
    std::string how = signal != nullptr && signal->is_string()
                          ? fmt::format("was killed by {}", std::string(signal->get_string()))
                      : code ? fmt::format("ended with exit code {}", *code)
                             : std::string("ended");
    leave(0, fmt::format("session {} {}", id_, how));
  }

  void on_driver(const json::object& obj) {
    if (phase_ != Phase::kAttached || int_field(obj, "session") != id_) return;
    const bool driving = bool_field(obj, "driver");
    if (driving == driver_) return;
    driver_ = driving;
    if (driving) {
      // Driving: the session follows this terminal's size from now on.
      notice(fmt::format("you drive session {} now", id_));
      send_resize();
    } else {
      auto by = int_field(obj, "by");
      notice(fmt::format("{} took over session {}; watching now, Ctrl-] t takes it back",
                         by ? fmt::format("window {}", *by) : std::string("another window"), id_));
    }
  }

  void on_error(const std::string& code, const std::string& message) {
    if (phase_ < Phase::kAttached) {
      leave(1, code == "no_session" ? gone_message()
                                    : fmt::format("the daemon refused to attach: {}", message));
      return;
    }
    if (code == "not_driver") {
      rate_limited_notice(
          fmt::format("watching session {}: your typing is ignored, Ctrl-] t takes over", id_));
    } else if (code == "input_refused") {
      rate_limited_notice(fmt::format("input dropped: {}", message));
    } else if (code == "bad_field" && message.starts_with("ack")) {
      // An ack that crossed a re-attach on the wire: nothing for a person to do.
    } else {
      notice(fmt::format("the daemon refused a request: {}", message.empty() ? code : message));
    }
  }

  void on_binary(std::string_view bytes) {
    if (phase_ != Phase::kAttached || holding_) return;
    std::string shown;
    if (snapshot_next_) {
      snapshot_next_ = false;
      // The snapshot recreates the screen on a fresh terminal: reset what the program
      // may have left set, and clear the screen. The first time, the screen is scrolled
      // into the terminal's history instead, so what the user had (and the line saying
      // where this is attached) stays there.
      shown = filter_.alternate_screen() ? "\x1b[?1049l" : "";
      shown += kResetModes;
      shown += "\x1b[?6l\x1b[r\x1b[0m\x1b(B\x0f";
      if (first_snapshot_) {
        shown += "\x1b[999;1H";
        shown.append(term_size_.rows, '\n');
        shown += "\x1b[H";
      } else {
        shown += "\x1b[H\x1b[2J";
      }
      first_snapshot_ = false;
      filter_.reset();
    }
    filter_.filter(bytes, shown);
    write_output(Output{std::move(shown), bytes.size(), epoch_, false});
    if (watching_notice_due_) {
      watching_notice_due_ = false;
      notice(fmt::format("watching session {}{}: your typing is ignored, Ctrl-] t takes over", id_,
                         driver_text()));
    }
  }

  // ---- the keyboard ----

  void read_keys() {
    asio::co_spawn(io_, keys_loop(), [](std::exception_ptr error) {
      if (error) std::rethrow_exception(error);
    });
  }

  asio::awaitable<void> keys_loop() {
    std::array<char, kKeysBuffer> buffer{};
    for (;;) {
      auto [ec, n] =
          co_await in_.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
      if (phase_ == Phase::kLeaving) co_return;
      if (ec) {
        leave(1, ec == asio::error::eof
                     ? "the terminal closed"
                     : fmt::format("cannot read the terminal: {}", ec.message()));
        co_return;
      }
      on_keys(std::string_view(buffer.data(), n));
      if (phase_ == Phase::kLeaving) co_return;
    }
  }

  void on_keys(std::string_view keys) {
    std::string input;
    for (char c : keys) {
      if (!prefix_) {
        if (c == kPrefixKey) {
          prefix_ = true;
        } else {
          input += c;
        }
        continue;
      }
      prefix_ = false;
      switch (c) {
        case kPrefixKey:
          input += c;
          break;
        case 'd':
          send_input(std::move(input));  // what was typed before still goes
          leave(0, fmt::format("detached; session {} goes on", id_));
          return;
        case 't':
          send_input(std::exchange(input, {}));
          if (driver_) {
            notice(fmt::format("you already drive session {}", id_));
          } else {
            send_json({{"type", "take"}});
          }
          break;
        case 'r':
          send_input(std::exchange(input, {}));
          switching_ = true;  // acks wait for the fresh `attached`: counting starts again
          send_json({{"type", "attach"}, {"session", id_}});
          break;
        default:  // not a command: swallowed, as tmux does
          break;
      }
    }
    send_input(std::move(input));
  }

  void send_input(std::string bytes) {
    if (bytes.empty() || phase_ != Phase::kAttached) return;
    // A watcher's input goes out too: the daemon refuses it with not_driver, and the
    // notice tells the person why nothing happens.
    send_frame(Frame{std::move(bytes), false, false});
  }

  // ---- the terminal's size ----

  void watch_size() {
    winch_.async_wait([this](boost::system::error_code ec, int) {
      if (ec || phase_ == Phase::kLeaving) return;
      term_size_ = terminal_size();
      if (driver_ && term_size_ != session_size_) send_resize();
      watch_size();
    });
  }

  // Only the driver's size counts; a watcher never sends one.
  void send_resize() {
    if (!driver_) return;
    session_size_ = term_size_;
    send_json({{"type", "resize"}, {"cols", term_size_.cols}, {"rows", term_size_.rows}});
  }

  // ---- output and notices ----

  void write_output(Output item) {
    output_started_ = true;
    if (!out_async_) {
      // Not a terminal (a file, a pipe): plain blocking writes, then the count.
      bool ok =
          item.notice ? write_all(STDERR_FILENO, item.data) : write_all(STDOUT_FILENO, item.data);
      if (!ok && !item.notice) {
        leave(1, fmt::format("cannot write to stdout: {}", std::strerror(errno)), false);
        return;
      }
      processed(item);
      return;
    }
    out_queue_.push_back(std::move(item));
    write_more_output();
  }

  void write_more_output() {
    // Notices go straight to stderr, in their place between output.
    while (!out_writing_ && !out_queue_.empty() && out_queue_.front().notice) {
      write_all(STDERR_FILENO, out_queue_.front().data);
      out_queue_.pop_front();
    }
    if (out_writing_) return;
    if (out_queue_.empty()) {
      flush_ack();
      maybe_done();
      return;
    }
    out_writing_ = true;
    asio::async_write(out_, asio::buffer(out_queue_.front().data),
                      [this](boost::system::error_code ec, std::size_t) {
                        out_writing_ = false;
                        if (ec) {
                          out_queue_.clear();
                          leave(1, fmt::format("cannot write to stdout: {}", ec.message()), false);
                          return;
                        }
                        Output done = std::move(out_queue_.front());
                        out_queue_.pop_front();
                        processed(done);
                        write_more_output();
                      });
  }

  // Counts what the terminal has taken; acknowledges every kAckEvery bytes and whenever
  // the queue drains (docs/protocol.md, "Flow control").
  void processed(const Output& item) {
    if (item.epoch == epoch_) processed_ += item.raw;
    if (processed_ - acked_ >= kAckEvery || out_queue_.empty()) flush_ack();
  }

  void flush_ack() {
    if (phase_ != Phase::kAttached || switching_ || holding_ || processed_ <= acked_) return;
    acked_ = processed_;
    send_json({{"type", "ack"}, {"bytes", processed_}});
  }

  // One line on stderr. While the terminal is raw it starts on a line of its own.
  void notice(const std::string& text) {
    if (!raw_) {
      std::fprintf(stderr, "wharf: %s\n", text.c_str());
      return;
    }
    write_output(Output{fmt::format("\r\nwharf: {}\r\n", text), 0, epoch_, true});
  }

  void rate_limited_notice(const std::string& text) {
    auto now = std::chrono::steady_clock::now();
    if (last_notice_ && now - *last_notice_ < kNoticeInterval) return;
    last_notice_ = now;
    notice(text);
  }

  // ---- frames to the daemon ----

  void send_json(const json::object& message) {
    send_frame(Frame{json::serialize(message), true, false});
  }

  void send_frame(Frame frame) {
    if (!ws_open_ || close_queued_) return;
    close_queued_ = frame.close;
    ws_queue_.push_back(std::move(frame));
    write_more_frames();
  }

  // The frame being written stays until its write completes: Beast still reads it.
  void drop_pending_frames() {
    while (ws_queue_.size() > (ws_writing_ ? 1u : 0u)) ws_queue_.pop_back();
  }

  void write_more_frames() {
    if (ws_writing_ || ws_queue_.empty() || !ws_open_) return;
    ws_writing_ = true;
    if (ws_queue_.front().close) {
      ws_.async_close(websocket::close_code::normal, [this](boost::system::error_code) {
        ws_writing_ = false;
        ws_open_ = false;
        ws_queue_.clear();
        maybe_done();
      });
      return;
    }
    ws_.text(ws_queue_.front().text);
    ws_.async_write(asio::buffer(ws_queue_.front().data),
                    [this](boost::system::error_code ec, std::size_t) {
                      ws_writing_ = false;
                      if (ec) {
                        ws_open_ = false;
                        ws_queue_.clear();
                        maybe_done();
                        return;
                      }
                      ws_queue_.pop_front();
                      write_more_frames();
                      maybe_done();
                    });
  }

  // ---- entering and leaving ----

  core::Status enter_raw_mode() {
    if (tcgetattr(STDIN_FILENO, &saved_termios_) != 0)
      return core::Error{
          fmt::format("cannot read the terminal's settings: {}", std::strerror(errno))};
    saved_in_flags_ = ::fcntl(STDIN_FILENO, F_GETFL);
    saved_out_flags_ = ::fcntl(STDOUT_FILENO, F_GETFL);
    int in = reopen_terminal(STDIN_FILENO, O_RDONLY);
    if (in < 0)
      return core::Error{fmt::format("cannot open the terminal: {}", std::strerror(errno))};
    in_.assign(in);
    stdout_is_tty_ = isatty(STDOUT_FILENO) == 1;
    if (stdout_is_tty_) {
      if (int out = reopen_terminal(STDOUT_FILENO, O_WRONLY); out >= 0) {
        out_.assign(out);
        out_async_ = true;
      }
    }
    termios raw = saved_termios_;
    cfmakeraw(&raw);  // no echo, no signals from keys, no output processing
    if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
      return core::Error{
          fmt::format("cannot put the terminal in raw mode: {}", std::strerror(errno))};
    raw_ = true;
    return core::ok_status();
  }

  // Leaves with `code` and the line to print. With `drain`, output already received is
  // written and typed input sent first (at most kDrainTimeout), then the WebSocket is
  // closed properly; without, the client stops at once.
  void leave(int code, std::string farewell, bool drain = true) {
    if (phase_ == Phase::kLeaving) return;
    phase_ = Phase::kLeaving;
    exit_code_ = code;
    farewell_ = std::move(farewell);
    setup_timer_.cancel();
    winch_.cancel();
    boost::system::error_code ignored;
    if (in_.is_open()) in_.cancel(ignored);
    if (!drain) {
      io_.stop();
      return;
    }
    leave_timer_.expires_after(kDrainTimeout);
    leave_timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) io_.stop();
    });
    if (ws_open_) send_frame(Frame{{}, true, true});
    maybe_done();
  }

  void maybe_done() {
    if (phase_ != Phase::kLeaving) return;
    if (out_writing_ || !out_queue_.empty()) return;
    if (ws_open_ && (ws_writing_ || !ws_queue_.empty())) return;
    io_.stop();
  }

  void restore_terminal() {
    if (restored_) return;
    restored_ = true;
    boost::system::error_code ignored;
    if (out_.is_open()) out_.close(ignored);
    if (in_.is_open()) in_.close(ignored);
    if (output_started_ && stdout_is_tty_) {
      std::string reset = filter_.alternate_screen() ? "\x1b[?1049l" : "";
      reset += kResetModes;
      reset += kResetRegionAndPen;
      write_all(STDOUT_FILENO, reset);
    }
    if (raw_) {
      tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_termios_);
      if (saved_in_flags_ >= 0) ::fcntl(STDIN_FILENO, F_SETFL, saved_in_flags_);
      if (saved_out_flags_ >= 0) ::fcntl(STDOUT_FILENO, F_SETFL, saved_out_flags_);
      raw_ = false;
      // The last screen of the session stays; the farewell goes on a line of its own.
      if (output_started_) std::fputs("\n", stderr);
    }
  }

  // ---- the session list ----

  const json::object* find_session() const {
    for (const json::value& entry : sessions_) {
      const json::object* s = entry.if_object();
      if (s != nullptr && int_field(*s, "id") == id_) return s;
    }
    return nullptr;
  }

  std::string session_name() const {
    const json::object* s = find_session();
    std::string name = s != nullptr ? string_field(*s, "name") : std::string();
    return name.empty() ? fmt::format("session {}", id_) : name;
  }

  std::string role_text() const {
    return driver_ ? std::string("driver") : "watcher" + driver_text();
  }

  // " (window N drives it)", from the session list, or nothing when it does not say.
  std::string driver_text() const {
    const json::object* s = find_session();
    auto driver = s != nullptr ? int_field(*s, "driver") : std::nullopt;
    return driver ? fmt::format(" (window {} drives it)", *driver) : std::string();
  }

  std::string gone_message() const {
    return fmt::format("session {} is gone (no such live session); `wharf ls` lists them", id_);
  }

  asio::io_context io_;  // first: destroyed last, after everything that uses it
  DaemonAddress target_;
  std::int64_t id_;
  websocket::stream<beast::tcp_stream> ws_;
  asio::posix::stream_descriptor in_;
  asio::posix::stream_descriptor out_;
  asio::signal_set stop_signals_;
  asio::signal_set winch_;
  asio::steady_timer setup_timer_;
  asio::steady_timer leave_timer_;

  Phase phase_ = Phase::kConnecting;
  json::array sessions_;
  bool driver_ = false;
  TerminalSize term_size_;     // this terminal's
  TerminalSize session_size_;  // the session's, as the daemon last said (or we asked)
  bool holding_ = false;       // waiting for the snapshot asked for after the first resize
  bool snapshot_next_ = false;
  bool first_snapshot_ = true;
  bool watching_notice_due_ = false;
  bool prefix_ = false;
  bool timed_out_ = false;
  std::optional<std::chrono::steady_clock::time_point> last_notice_;
  core::QueryFilter filter_;

  // Flow control: bytes of binary output written since the last `attached`.
  std::uint64_t epoch_ = 0;
  std::uint64_t processed_ = 0;
  std::uint64_t acked_ = 0;
  bool switching_ = false;

  std::deque<Frame> ws_queue_;
  bool ws_open_ = false;
  bool ws_writing_ = false;
  bool close_queued_ = false;
  std::deque<Output> out_queue_;
  bool out_writing_ = false;
  bool out_async_ = false;

  termios saved_termios_{};
  int saved_in_flags_ = -1;
  int saved_out_flags_ = -1;
  bool raw_ = false;
  bool stdout_is_tty_ = false;
  bool output_started_ = false;
  bool restored_ = false;

  int exit_code_ = 1;
  std::string farewell_;
};

}  // namespace

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

int run_attach_client(DaemonAddress address, std::int64_t session) {
  // A closed stdout or socket is an error to report, not a reason to die with the
  // terminal raw.
  std::signal(SIGPIPE, SIG_IGN);
  AttachClient client(std::move(address), session);
  return client.run();
}

}  // namespace wharf::cli
