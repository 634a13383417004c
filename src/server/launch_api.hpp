// The HTTP API's view of launching (docs/config.md, "The catalog"): what the router asks the
// running daemon for. An interface so that the router stays a pure function of the request, and its
// unit tests and fuzzer can answer with a fake.
#pragma once

#include <boost/json/object.hpp>
#include <string_view>

#include "core/result.hpp"

namespace wharf::server {

class LaunchApi {
 public:
  virtual ~LaunchApi() = default;
  // GET /api/status: the default entry and directory, sessions running per entry, counts.
  virtual boost::json::object status() const = 0;
  // GET /api/dirs: the default directory and suggestions inside the workspace.
  virtual boost::json::object directories() const = 0;
  // POST /api/agent, POST /api/cwd: move what new sessions start with.
  virtual core::Result<boost::json::object> set_default_entry(std::string_view name) = 0;
  virtual core::Result<boost::json::object> set_default_directory(std::string_view cwd) = 0;
};

}  // namespace wharf::server
