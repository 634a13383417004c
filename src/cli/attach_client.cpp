// The window behind `wharf attach ID` (commands/attach.cpp): this terminal becomes a
// window on one session, as a browser tab is one. It speaks the page's WebSocket protocol
// (docs/protocol.md, version 2) to the daemon (attach_connection.cpp): the keys read from
// the terminal (attach_terminal.cpp) are the session's input; the snapshot and then live
// output are shown on it, each binary frame acknowledged once it is written, so the
// daemon's flow control sees a terminal that cannot keep up and skips it ahead with a
// snapshot. A prefix key (core/prefix_keys.hpp: Ctrl-], as tmux has Ctrl-b) reaches the
// client instead of the program: d detaches, t takes over driving, r redraws, Ctrl-]
// sends itself.
//
// This file is the conversation and the client's life: hello, the session list, attach,
// snapshots, driver and size changes, errors, the end; and leaving, whichever way.
//
// Invariants:
// - Attaching never starts a session: the id must be in the daemon's list, and the
//   `attached` answer must name it, or the client leaves at once (closing only detaches).
// - The user's terminal gets back what it had on every way out (detach, exit, errors,
//   exceptions, SIGINT/SIGTERM/SIGHUP), then one line says why the client left.
// - One io_context on one thread: the connection, the terminal and the timers call back
//   into this class one at a time, and nothing takes a lock.
// - Only the driver sends its size; acks count the output of the current attachment only
//   (a redraw or re-attach starts the count again).
#include "cli/attach_client.hpp"

#include <fmt/format.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <utility>

#include "cli/attach_messages.hpp"
#include "cli/attach_terminal.hpp"
#include "core/output_acks.hpp"
#include "core/prefix_keys.hpp"
#include "core/terminal_size.hpp"

namespace wharf::cli {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using core::TerminalSize;

constexpr std::int64_t kProtocol = 2;
constexpr auto kSetupTimeout = std::chrono::seconds(10);
constexpr auto kDrainTimeout = std::chrono::seconds(2);
constexpr std::string_view kKeysHelp = "Ctrl-] d detaches, Ctrl-] t takes over";

class AttachClient final : public ConnectionListener, public TerminalListener {
 public:
  AttachClient(DaemonAddress target, std::int64_t id)
      : id_(id),
        connection_(io_, std::move(target), *this),
        terminal_(io_, *this),
        stop_signals_(io_, SIGINT, SIGTERM, SIGHUP),
        setup_timer_(io_),
        leave_timer_(io_) {}

  AttachClient(const AttachClient&) = delete;
  AttachClient& operator=(const AttachClient&) = delete;

  // Also on an exception out of run(): the terminal is never left raw.
  ~AttachClient() override { terminal_.restore(); }

  int run() {
    terminal_.refresh_size();
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
      connection_.time_out();
    });
    asio::co_spawn(io_, connection_.run(terminal_.size()), [](std::exception_ptr error) {
      if (error) std::rethrow_exception(error);
    });
    io_.run();
    terminal_.restore();
    if (!farewell_.empty()) std::fprintf(stderr, "wharf: %s\n", farewell_.c_str());
    return exit_code_;
  }

 private:
  enum class Phase { kConnecting, kListing, kAttaching, kAttached, kLeaving };

  // ---- the connection ----

  void on_connect_failed(std::string why) override { leave(1, std::move(why)); }

  void on_closed(std::string why) override {
    if (phase_ == Phase::kLeaving) {
      maybe_done();
      return;
    }
    if (connection_.timed_out()) {
      leave(1, fmt::format("the daemon at {} did not answer within {} s", connection_.target().url,
                           kSetupTimeout.count()));
      return;
    }
    if (phase_ == Phase::kAttached) why += fmt::format("; session {} may still run", id_);
    leave(1, std::move(why));
  }

  void on_write_done() override { maybe_done(); }

  // ---- messages from the daemon ----

  void on_text(std::string_view text) override {
    if (phase_ == Phase::kLeaving) return;
    auto obj = read_message(text);
    if (!obj) return;  // the daemon sends none; ignored, as the page does
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
      sessions_.update(*obj);
      if (phase_ == Phase::kListing) {
        // Only an id in the list is attached to: for a missing one the daemon would pick
        // another session.
        if (!sessions_.listed()) {
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
    acks_.restart();  // writes still queued for the previous attachment no longer count
    snapshot_next_ = false;
    if (phase_ != Phase::kAttaching) {
      holding_ = false;  // the answer to a redraw or to the first resize: draw this one
      return;
    }
    phase_ = Phase::kAttached;
    setup_timer_.cancel();
    terminal_.refresh_size();  // it may have changed while connecting
    std::fprintf(stderr, "wharf: attached to session %lld (%s) as %s; %s\n",
                 static_cast<long long>(id_), sessions_.name().c_str(), role_text().c_str(),
                 std::string(kKeysHelp).c_str());
    std::fflush(stderr);
    if (auto raw = terminal_.enter_raw_mode(); !raw) {
      leave(1, raw.error().message);
      return;
    }
    terminal_.start();
    if (driver_ && session_size_ != terminal_.size()) {
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
    leave(0, fmt::format("session {} {}", id_, exit_text(obj)));
  }

  void on_driver(const json::object& obj) {
    if (phase_ != Phase::kAttached || int_field(obj, "session") != id_) return;
    const bool driving = bool_field(obj, "driver");
    if (driving == driver_) return;
    driver_ = driving;
    if (driving) {
      // Driving: the session follows this terminal's size from now on.
      terminal_.notice(fmt::format("you drive session {} now", id_));
      send_resize();
    } else {
      auto by = int_field(obj, "by");
      terminal_.notice(
          fmt::format("{} took over session {}; watching now, Ctrl-] t takes it back",
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
      terminal_.occasional_notice(
          fmt::format("watching session {}: your typing is ignored, Ctrl-] t takes over", id_));
    } else if (code == "input_refused") {
      terminal_.occasional_notice(fmt::format("input dropped: {}", message));
    } else if (code == "bad_field" && message.starts_with("ack")) {
      // An ack that crossed a re-attach on the wire: nothing for a person to do.
    } else {
      terminal_.notice(
          fmt::format("the daemon refused a request: {}", message.empty() ? code : message));
    }
  }

  void on_binary(std::string_view bytes) override {
    if (phase_ != Phase::kAttached || holding_) return;
    terminal_.show(bytes, std::exchange(snapshot_next_, false), acks_.epoch());
    if (watching_notice_due_) {
      watching_notice_due_ = false;
      terminal_.notice(
          fmt::format("watching session {}{}: your typing is ignored, Ctrl-] t takes over", id_,
                      sessions_.driver_text()));
    }
  }

  // ---- the terminal ----

  void on_keys(std::string_view keys) override {
    for (core::KeyAction& action : prefix_keys_.scan(keys)) {
      switch (action.kind) {
        case core::KeyAction::Kind::kInput:
          send_input(std::move(action.input));
          break;
        case core::KeyAction::Kind::kDetach:
          leave(0, fmt::format("detached; session {} goes on", id_));
          return;
        case core::KeyAction::Kind::kTake:
          if (driver_) {
            terminal_.notice(fmt::format("you already drive session {}", id_));
          } else {
            send_json({{"type", "take"}});
          }
          break;
        case core::KeyAction::Kind::kRedraw:
          acks_.pause();  // acks wait for the fresh `attached`: counting starts again
          send_json({{"type", "attach"}, {"session", id_}});
          break;
      }
    }
  }

  void send_input(std::string bytes) {
    if (bytes.empty() || phase_ != Phase::kAttached) return;
    // A watcher's input goes out too: the daemon refuses it with not_driver, and the
    // notice tells the person why nothing happens.
    connection_.send_binary(std::move(bytes));
  }

  void on_resized() override {
    if (driver_ && terminal_.size() != session_size_) send_resize();
  }

  // Only the driver's size counts; a watcher never sends one.
  void send_resize() {
    if (!driver_) return;
    session_size_ = terminal_.size();
    send_json({{"type", "resize"}, {"cols", session_size_.cols}, {"rows", session_size_.rows}});
  }

  // Counts what the terminal has taken; acknowledges every kAckEvery bytes and whenever
  // the queue drains (core/output_acks.hpp).
  void on_written(const TerminalOutput& item, bool queue_empty) override {
    if (acks_.written(item.raw, item.epoch, queue_empty)) flush_ack();
  }

  void on_drained() override {
    flush_ack();
    maybe_done();
  }

  // Only while attached and drawing: holding for the fresh snapshot means a re-attach is
  // on its way, which restarts the daemon's count as a redraw does.
  void flush_ack() {
    if (phase_ != Phase::kAttached || holding_) return;
    if (auto bytes = acks_.take()) send_json({{"type", "ack"}, {"bytes", *bytes}});
  }

  void on_read_failed(std::string why) override { leave(1, std::move(why)); }
  void on_write_failed(std::string why) override { leave(1, std::move(why), false); }

  void send_json(const json::object& message) { connection_.send_text(json::serialize(message)); }

  // ---- leaving ----

  // Leaves with `code` and the line to print. With `drain`, output already received is
  // written and typed input sent first (at most kDrainTimeout), then the WebSocket is
  // closed properly; without, the client stops at once.
  void leave(int code, std::string farewell, bool drain = true) {
    if (phase_ == Phase::kLeaving) return;
    phase_ = Phase::kLeaving;
    exit_code_ = code;
    farewell_ = std::move(farewell);
    setup_timer_.cancel();
    terminal_.stop();
    if (!drain) {
      io_.stop();
      return;
    }
    leave_timer_.expires_after(kDrainTimeout);
    leave_timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) io_.stop();
    });
    connection_.close();
    maybe_done();
  }

  void maybe_done() {
    if (phase_ != Phase::kLeaving) return;
    if (!terminal_.idle() || connection_.busy()) return;
    io_.stop();
  }

  // ---- what the person reads ----

  std::string role_text() const {
    return driver_ ? std::string("driver") : "watcher" + sessions_.driver_text();
  }

  std::string gone_message() const {
    return fmt::format("session {} is gone (no such live session); `wharf ls` lists them", id_);
  }

  asio::io_context io_;  // first: destroyed last, after everything that uses it
  std::int64_t id_;
  AttachConnection connection_;
  AttachTerminal terminal_;
  asio::signal_set stop_signals_;
  asio::steady_timer setup_timer_;
  asio::steady_timer leave_timer_;

  Phase phase_ = Phase::kConnecting;
  SessionList sessions_{id_};
  bool driver_ = false;
  TerminalSize session_size_;  // the session's, as the daemon last said (or we asked)
  bool holding_ = false;       // waiting for the snapshot asked for after the first resize
  bool snapshot_next_ = false;
  bool watching_notice_due_ = false;
  core::PrefixKeys prefix_keys_;

  core::OutputAcks acks_;

  int exit_code_ = 1;
  std::string farewell_;
};

}  // namespace

int run_attach_client(DaemonAddress address, std::int64_t session) {
  // A closed stdout or socket is an error to report, not a reason to die with the
  // terminal raw.
  std::signal(SIGPIPE, SIG_IGN);
  AttachClient client(std::move(address), session);
  return client.run();
}

}  // namespace wharf::cli
