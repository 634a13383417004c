#include "app/notification_channels.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/detail/base64.hpp>
#include <boost/json.hpp>
#include <memory>

#include "app/launch.hpp"
#include "app/outbound_post.hpp"
#include "pty/command_process.hpp"

namespace wharf::app {
namespace {

namespace asio = boost::asio;

// One line, no control characters (a header value can never start another header), at
// most 250 bytes; beyond ASCII, an RFC 2047 encoded word.
std::string header_value(std::string_view text) {
  std::string line;
  bool ascii = true;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      line += ' ';
      continue;
    }
    if (byte >= 0x80) ascii = false;
    line += c;
  }
  if (line.size() > 250) {
    std::size_t cut = 250;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line.resize(cut);
  }
  if (ascii) return line;
  namespace b64 = boost::beast::detail::base64;
  std::string encoded(b64::encoded_size(line.size()), '\0');
  encoded.resize(b64::encode(encoded.data(), line.data(), line.size()));
  return "=?UTF-8?B?" + encoded + "?=";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ntfy_headers(
    const Notification& notification, const std::optional<std::string>& token) {
  bool waiting = notification.kind == "waiting";
  std::vector<std::pair<std::string, std::string>> headers{
      {"Title", header_value(notification.title)},
      {"Priority", waiting ? "4" : "3"},
      {"Tags", waiting ? "bell,wharf" : "white_check_mark,wharf"},
      {"Content-Type", "text/plain; charset=utf-8"},
  };
  if (notification.click_url) headers.emplace_back("Click", header_value(*notification.click_url));
  if (token) headers.emplace_back("Authorization", "Bearer " + *token);
  return headers;
}

std::string notification_json(const Notification& notification) {
  boost::json::object out{
      {"session", notification.session},
      {"name", notification.session_name},
      {"program", notification.program},
      {"kind", notification.kind},
      {"title", notification.title},
      {"message", notification.message},
      {"click_url", notification.click_url ? boost::json::value(*notification.click_url)
                                           : boost::json::value(nullptr)},
  };
  return boost::json::serialize(out) + "\n";
}

NtfyChannel::NtfyChannel(asio::any_io_executor executor, std::string url,
                         std::optional<std::string> token)
    : executor_(std::move(executor)), url_(std::move(url)), token_(std::move(token)) {}

void NtfyChannel::deliver(const Notification& notification) {
  OutboundRequest request{
      .url = url_,
      .headers = ntfy_headers(notification, token_),
      .body = notification.message,
  };
  core::SessionId session = notification.session;
  post_outbound(executor_, std::move(request), [session](core::Result<OutboundResponse> result) {
    if (!result) {
      spdlog::warn("ntfy: the notification for session {} did not go out: {}", session,
                   result.error().message);
    } else if (result.value().status >= 300) {
      spdlog::warn(
          "ntfy: the server refused the notification for session {} "
          "(HTTP {})",
          session, result.value().status);
    }
  });
}

core::Result<std::unique_ptr<CommandChannel>> CommandChannel::create(asio::any_io_executor executor,
                                                                     std::vector<std::string> argv,
                                                                     std::chrono::seconds timeout,
                                                                     std::string_view path_value) {
  if (argv.empty()) return core::Error("[notifications] command names no program");
  auto program = find_program(argv.front(), path_value);
  if (!program) {
    return core::Error("[notifications] command: cannot find the program '" + argv.front() +
                       "' (give an absolute path, or a name on PATH)");
  }
  return std::unique_ptr<CommandChannel>(
      new CommandChannel(std::move(executor), *program, std::move(argv), timeout));
}

CommandChannel::CommandChannel(asio::any_io_executor executor, std::string program,
                               std::vector<std::string> argv, std::chrono::seconds timeout)
    : executor_(std::move(executor)),
      program_(std::move(program)),
      argv_(std::move(argv)),
      timeout_(timeout) {}

void CommandChannel::deliver(const Notification& notification) {
  if (*running_ >= kMaxRunningCommands) {
    spdlog::warn("notification command: {} still running; the one for session {} is dropped",
                 *running_, notification.session);
    return;
  }
  auto spawned = pty::spawn_command(program_, argv_);
  if (!spawned) {
    spdlog::warn("notification command: {}", spawned.error().message);
    return;
  }
  // One run: its stdin, its pidfd and its deadline, kept alive by the handlers below.
  struct Run {
    Run(asio::any_io_executor executor, pty::CommandProcess p)
        : process(p), input(executor, p.stdin_fd), exited(executor, p.pidfd), deadline(executor) {}
    pty::CommandProcess process;
    asio::posix::stream_descriptor input;
    asio::posix::stream_descriptor exited;
    asio::steady_timer deadline;
    std::string json;
    std::shared_ptr<std::size_t> running;
  };
  auto run = std::make_shared<Run>(executor_, spawned.value());
  run->json = notification_json(notification);
  run->running = running_;
  ++*running_;
  asio::async_write(run->input, asio::buffer(run->json),
                    [run](boost::system::error_code, std::size_t) {
                      boost::system::error_code ignored;
                      run->input.close(ignored);  // EOF: the JSON is whole
                    });
  run->deadline.expires_after(timeout_);
  run->deadline.async_wait([run, seconds = timeout_.count()](boost::system::error_code ec) {
    if (ec) return;
    if (pty::kill_command(run->process))
      spdlog::warn("notification command: still running after {} s; killed", seconds);
  });
  run->exited.async_wait(asio::posix::stream_descriptor::wait_read,
                         [run](boost::system::error_code) {
                           run->deadline.cancel();
                           boost::system::error_code ignored;
                           run->input.close(ignored);
                           run->exited.close(ignored);
                           --*run->running;
                         });
}

}  // namespace wharf::app
