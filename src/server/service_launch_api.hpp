// The LaunchApi of the running daemon: answers from the session service and the
// workspace on disk.
#pragma once

#include "server/launch_api.hpp"

namespace wharf::app {
class SessionService;
}

namespace wharf::server {

class ServiceLaunchApi final : public LaunchApi {
 public:
  explicit ServiceLaunchApi(app::SessionService& sessions) : sessions_(sessions) {}

  boost::json::object status() const override;
  boost::json::object directories() const override;
  core::Result<boost::json::object> set_default_entry(std::string_view name) override;
  core::Result<boost::json::object> set_default_directory(std::string_view cwd) override;

 private:
  app::SessionService& sessions_;
};

// The catalog as clients see it: what can be started, and the known agents that are not
// installed here (so a page can say why they are missing).
boost::json::array catalog_json(const app::SessionService& sessions);

}  // namespace wharf::server
