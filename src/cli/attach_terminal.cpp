// The local side of `wharf attach` (see attach_terminal.hpp for its invariants): termios,
// the descriptors, SIGWINCH, stdin and stdout. Nothing here knows the protocol; what it
// reads and what happens to it are the client's (TerminalListener).
#include "cli/attach_terminal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace wharf::cli {
namespace {

namespace asio = boost::asio;

constexpr std::size_t kKeysBuffer = 4096;  // well under the 64 KiB message limit
constexpr auto kNoticeInterval = std::chrono::seconds(5);

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

core::TerminalSize read_size() {
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

}  // namespace

AttachTerminal::AttachTerminal(asio::io_context& io, TerminalListener& listener)
    : io_(io), listener_(listener), in_(io), out_(io), winch_(io, SIGWINCH) {}

void AttachTerminal::refresh_size() {
  size_ = read_size();
}

// ---- entering and leaving ----

core::Status AttachTerminal::enter_raw_mode() {
  if (tcgetattr(STDIN_FILENO, &saved_termios_) != 0)
    return core::Error{
        fmt::format("cannot read the terminal's settings: {}", std::strerror(errno))};
  saved_in_flags_ = ::fcntl(STDIN_FILENO, F_GETFL);
  saved_out_flags_ = ::fcntl(STDOUT_FILENO, F_GETFL);
  int in = reopen_terminal(STDIN_FILENO, O_RDONLY);
  if (in < 0) return core::Error{fmt::format("cannot open the terminal: {}", std::strerror(errno))};
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

void AttachTerminal::stop() {
  stopped_ = true;
  winch_.cancel();
  boost::system::error_code ignored;
  if (in_.is_open()) in_.cancel(ignored);
}

void AttachTerminal::restore() {
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

// ---- the keyboard and the window's size ----

void AttachTerminal::start() {
  asio::co_spawn(io_, keys_loop(), [](std::exception_ptr error) {
    if (error) std::rethrow_exception(error);
  });
  watch_size();
}

asio::awaitable<void> AttachTerminal::keys_loop() {
  std::array<char, kKeysBuffer> buffer{};
  for (;;) {
    auto [ec, n] =
        co_await in_.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
    if (stopped_) co_return;
    if (ec) {
      listener_.on_read_failed(ec == asio::error::eof
                                   ? "the terminal closed"
                                   : fmt::format("cannot read the terminal: {}", ec.message()));
      co_return;
    }
    listener_.on_keys(std::string_view(buffer.data(), n));
    if (stopped_) co_return;
  }
}

void AttachTerminal::watch_size() {
  winch_.async_wait([this](boost::system::error_code ec, int) {
    if (ec || stopped_) return;
    refresh_size();
    listener_.on_resized();
    watch_size();
  });
}

// ---- output and notices ----

void AttachTerminal::show(std::string_view bytes, bool snapshot, std::uint64_t epoch) {
  std::string shown;
  if (snapshot) {
    // The snapshot recreates the screen on a fresh terminal: reset what the program
    // may have left set, and clear the screen. The first time, the screen is scrolled
    // into the terminal's history instead, so what the user had (and the line saying
    // where this is attached) stays there.
    shown = filter_.alternate_screen() ? "\x1b[?1049l" : "";
    shown += kResetModes;
    shown += "\x1b[?6l\x1b[r\x1b[0m\x1b(B\x0f";
    if (first_snapshot_) {
      shown += "\x1b[999;1H";
      shown.append(size_.rows, '\n');
      shown += "\x1b[H";
    } else {
      shown += "\x1b[H\x1b[2J";
    }
    first_snapshot_ = false;
    filter_.reset();
  }
  filter_.filter(bytes, shown);
  write(TerminalOutput{std::move(shown), bytes.size(), epoch, false});
}

void AttachTerminal::notice(const std::string& text) {
  if (!raw_) {
    std::fprintf(stderr, "wharf: %s\n", text.c_str());
    return;
  }
  // A notice counts for no output bytes, so its epoch does not matter.
  write(TerminalOutput{fmt::format("\r\nwharf: {}\r\n", text), 0, 0, true});
}

void AttachTerminal::occasional_notice(const std::string& text) {
  auto now = std::chrono::steady_clock::now();
  if (last_occasional_ && now - *last_occasional_ < kNoticeInterval) return;
  last_occasional_ = now;
  notice(text);
}

void AttachTerminal::write(TerminalOutput item) {
  output_started_ = true;
  if (!out_async_) {
    // Not a terminal (a file, a pipe): plain blocking writes, then the count.
    bool ok =
        item.notice ? write_all(STDERR_FILENO, item.data) : write_all(STDOUT_FILENO, item.data);
    if (!ok && !item.notice) {
      listener_.on_write_failed(fmt::format("cannot write to stdout: {}", std::strerror(errno)));
      return;
    }
    listener_.on_written(item, true);
    return;
  }
  out_queue_.push_back(std::move(item));
  write_more();
}

void AttachTerminal::write_more() {
  // Notices go straight to stderr, in their place between output.
  while (!out_writing_ && !out_queue_.empty() && out_queue_.front().notice) {
    write_all(STDERR_FILENO, out_queue_.front().data);
    out_queue_.pop_front();
  }
  if (out_writing_) return;
  if (out_queue_.empty()) {
    listener_.on_drained();
    return;
  }
  out_writing_ = true;
  asio::async_write(
      out_, asio::buffer(out_queue_.front().data),
      [this](boost::system::error_code ec, std::size_t) {
        out_writing_ = false;
        if (ec) {
          out_queue_.clear();
          listener_.on_write_failed(fmt::format("cannot write to stdout: {}", ec.message()));
          return;
        }
        TerminalOutput done = std::move(out_queue_.front());
        out_queue_.pop_front();
        listener_.on_written(done, out_queue_.empty());
        write_more();
      });
}

}  // namespace wharf::cli
