#include "cli/daemon_notifications.hpp"

#include <spdlog/spdlog.h>

#include <boost/json.hpp>

#include "app/notification_channels.hpp"

namespace wharf::cli {

core::Result<std::unique_ptr<app::Notifier>> make_notifier(const core::Config& file,
                                                           boost::asio::any_io_executor executor,
                                                           std::string_view path_value) {
  const core::NotificationsConfig& config = file.notifications;
  app::NotifierOptions options{
      .rules = {.debounce = std::chrono::seconds(
                    config.debounce_seconds.value_or(core::kDefaultNotifyDebounce.count())),
                .quiet_hours = config.quiet_hours},
      .include_screen = config.include_screen,
      .public_url = file.public_url,
  };
  auto notifier = std::make_unique<app::Notifier>(options);
  if (config.ntfy_url) {
    notifier->add_channel(
        std::make_unique<app::NtfyChannel>(executor, *config.ntfy_url, config.ntfy_token));
  }
  if (!config.command.empty()) {
    auto command = app::CommandChannel::create(
        executor, config.command,
        std::chrono::seconds(
            config.command_timeout_seconds.value_or(app::kDefaultCommandTimeout.count())),
        path_value);
    if (!command) return command.error();
    notifier->add_channel(std::move(command.value()));
  }
  if (notifier->channel_count() > 0 && !file.public_url) {
    spdlog::info(
        "notifications go out without a link to the session: set [server] public_url to the "
        "address your phone opens wharf at");
  }
  return notifier;
}

boost::json::object notifications_summary(const app::Notifier& notifier) {
  boost::json::array channels;
  for (const std::string& name : notifier.channel_names()) channels.emplace_back(name);
  const app::NotifierOptions& options = notifier.options();
  return boost::json::object{
      {"channels", std::move(channels)},
      {"debounce", options.rules.debounce.count()},
      {"quiet_hours", options.rules.quiet_hours
                          ? boost::json::value(core::format_quiet_hours(*options.rules.quiet_hours))
                          : boost::json::value(nullptr)},
      {"include_screen", options.include_screen},
      {"links", options.public_url.has_value()},
  };
}

}  // namespace wharf::cli
