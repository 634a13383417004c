// The daemon's notifier (app/notifier.hpp) built from `[notifications]` and
// `[server] public_url`: the rules, and the ntfy and command channels when configured.
// Web Push joins it in daemon.cpp, where its channel lives.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/object.hpp>
#include <memory>
#include <string_view>

#include "app/notifier.hpp"
#include "core/config.hpp"
#include "core/result.hpp"

namespace wharf::cli {

// `path_value`: the sessions' PATH, where the command's program is looked up.
core::Result<std::unique_ptr<app::Notifier>> make_notifier(const core::Config& file,
                                                           boost::asio::any_io_executor executor,
                                                           std::string_view path_value);

// What the page's settings show about it (/api/status `notifications`): the channels, the
// rules, and whether notifications carry a link. Never a URL, a token or a command.
boost::json::object notifications_summary(const app::Notifier& notifier);

}  // namespace wharf::cli
