// The CLI's side of the control socket: one JSON request, one JSON answer, over the
// daemon's Unix socket found from --state-dir / WHARF_STATE_DIR.
#pragma once

#include <boost/json.hpp>
#include <string>

#include "core/result.hpp"

namespace wharf::cli {

// The answer when the daemon said ok; otherwise its error (or why it was unreachable).
core::Result<boost::json::object> call_daemon(const std::string& state_dir,
                                              boost::json::object request);

// Runs one of the daemon's operations (src/ops): the answer's {"result", "text"}.
core::Result<boost::json::object> call_operation(const std::string& state_dir,
                                                 std::string_view name, boost::json::object args);

// Prints "wharf: <message>" to stderr and returns the exit code: 2 when the error's code
// is "usage" (the command line was wrong), else 1.
int report_failure(const core::Error& error);

}  // namespace wharf::cli
