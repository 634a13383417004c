// The daemon's log as JSON lines (`wharf serve --log-format json`), for log collectors:
// one object per line with "time" (UTC, ISO 8601 with milliseconds), "level" and "msg",
// each a JSON string, so a message holding quotes, newlines or control characters is
// still exactly one line that parses. The text format is system_service.hpp's.
#pragma once

#include <spdlog/formatter.h>

#include <memory>

namespace wharf::cli {

// A formatter writing the JSON lines described above.
std::unique_ptr<spdlog::formatter> json_log_formatter();

// Installs a stderr logger with the JSON formatter as the default logger.
void install_json_logger();

// Whether log lines may be coloured: stderr is a terminal and NO_COLOR is unset or empty
// (https://no-color.org).
bool log_colour_wanted();

}  // namespace wharf::cli
