// Two ways out for notifications (app/notification.hpp): an ntfy topic, and a command of
// the operator's. Both run on the daemon's executor and never block it.
//
// ntfy: one POST to the topic's URL (app/outbound_post.hpp) with the message as the body
// and Title, Priority (waiting 4 "high", finished 3 "default"), Tags and Click (the deep
// link, only when public_url is set) as headers; a token goes as Authorization: Bearer.
// Header values are single-line; text beyond ASCII goes RFC 2047-encoded, which ntfy reads.
//
// command: the program (argv, no shell) gets the notification as one JSON object on its
// standard input and is killed with its whole process session after the timeout. At most
// kMaxRunningCommands run at once; more are dropped with a line in the log.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "app/notification.hpp"
#include "core/result.hpp"

namespace wharf::app {

// The headers an ntfy POST carries (exposed for tests).
std::vector<std::pair<std::string, std::string>> ntfy_headers(
    const Notification& notification, const std::optional<std::string>& token);
// The JSON the command hook reads on its standard input.
std::string notification_json(const Notification& notification);

class NtfyChannel : public NotificationChannel {
 public:
  NtfyChannel(boost::asio::any_io_executor executor, std::string url,
              std::optional<std::string> token);
  std::string_view name() const override { return "ntfy"; }
  void deliver(const Notification& notification) override;

 private:
  boost::asio::any_io_executor executor_;
  std::string url_;
  std::optional<std::string> token_;
};

inline constexpr std::size_t kMaxRunningCommands = 4;
inline constexpr std::chrono::seconds kDefaultCommandTimeout{10};

class CommandChannel : public NotificationChannel {
 public:
  // Looks the program up on PATH now, so a missing one is an error at start, not a
  // silent drop at the first notification.
  static core::Result<std::unique_ptr<CommandChannel>> create(boost::asio::any_io_executor executor,
                                                              std::vector<std::string> argv,
                                                              std::chrono::seconds timeout,
                                                              std::string_view path_value);
  std::string_view name() const override { return "command"; }
  void deliver(const Notification& notification) override;

 private:
  CommandChannel(boost::asio::any_io_executor executor, std::string program,
                 std::vector<std::string> argv, std::chrono::seconds timeout);
  boost::asio::any_io_executor executor_;
  std::string program_;
  std::vector<std::string> argv_;
  std::chrono::seconds timeout_;
  std::shared_ptr<std::size_t> running_ = std::make_shared<std::size_t>(0);
};

}  // namespace wharf::app
