// The LaunchApi of the running daemon: answers from the session service and the
// workspace on disk.
#pragma once

#include <boost/json/object.hpp>
#include <utility>

#include "core/config.hpp"
#include "server/launch_api.hpp"

namespace wharf::app {
class SessionService;
}

namespace wharf::server {

class ServiceLaunchApi final : public LaunchApi {
 public:
  // `page`: the operator's defaults for the page's settings (config.toml [page]), served
  // as `page` in /api/status; keys left unset are absent.
  // `notifications`: what leaves the page (cli/daemon_notifications.hpp), served as
  // `notifications` in /api/status for the page's settings.
  explicit ServiceLaunchApi(app::SessionService& sessions, boost::json::object page = {},
                            boost::json::object notifications = {})
      : sessions_(sessions), page_(std::move(page)), notifications_(std::move(notifications)) {}

  boost::json::object status() const override;
  boost::json::object directories() const override;
  core::Result<boost::json::object> set_default_entry(std::string_view name) override;
  core::Result<boost::json::object> set_default_directory(std::string_view cwd) override;

 private:
  app::SessionService& sessions_;
  boost::json::object page_;
  boost::json::object notifications_;
};

// config.toml's [page] as /api/status serves it: only the keys the operator set.
boost::json::object page_defaults_json(const core::PageDefaults& page);

// The catalog as clients see it: what can be started, and the known agents that are not
// installed here (so a page can say why they are missing).
boost::json::array catalog_json(const app::SessionService& sessions);

}  // namespace wharf::server
