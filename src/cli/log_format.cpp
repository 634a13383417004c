#include "cli/log_format.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>

namespace wharf::cli {
namespace {

class JsonLogFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    auto since_epoch = msg.time.time_since_epoch();
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count();
    std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    auto level = spdlog::level::to_string_view(msg.level);
    std::string line = fmt::format(
        R"({{"time":"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z","level":{},"msg":{}}})",
        tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms % 1000,
        boost::json::serialize(boost::json::string(std::string_view(level.data(), level.size()))),
        boost::json::serialize(
            boost::json::string(std::string_view(msg.payload.data(), msg.payload.size()))));
    line += '\n';
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonLogFormatter>();
  }
};

}  // namespace

std::unique_ptr<spdlog::formatter> json_log_formatter() {
  return std::make_unique<JsonLogFormatter>();
}

void install_json_logger() {
  auto logger = spdlog::stderr_logger_mt("wharf");
  logger->set_formatter(json_log_formatter());
  spdlog::set_default_logger(logger);
}

bool log_colour_wanted() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return isatty(STDERR_FILENO) == 1;
}

}  // namespace wharf::cli
