#include "core/session_status.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>

namespace wharf::core {
namespace json = boost::json;

bool StatusTracker::on_mark(const ShellMark& mark, Clock::time_point now) {
  ProgramStatus before = status_;
  switch (mark.kind) {
    case MarkKind::kWorkingDirectory:
      status_.cwd = mark.directory;
      break;
    case MarkKind::kOutputStart: {
      command_started_ = now;
      CommandResult result = status_.command.value_or(CommandResult{});
      result.running = true;
      status_.command = result;
      break;
    }
    case MarkKind::kCommandEnd: {
      // A D with no C before it ends no command (an empty line, the first prompt).
      if (!command_started_) break;
      auto ran = std::chrono::duration_cast<std::chrono::milliseconds>(now - *command_started_);
      command_started_.reset();
      status_.command = CommandResult{.running = false,
                                      .exit_code = mark.exit_code,
                                      .duration_ms = std::max<std::int64_t>(0, ran.count())};
      break;
    }
    case MarkKind::kPromptStart:
    case MarkKind::kCommandStart:
      break;
  }
  return !(status_ == before);
}

bool StatusTracker::on_report(AgentReport report) {
  if (status_.agent == report) return false;
  status_.agent = std::move(report);
  return true;
}

std::string abbreviate_home(std::string_view path, std::string_view home) {
  while (home.size() > 1 && home.back() == '/') home.remove_suffix(1);
  if (home.size() <= 1 || !path.starts_with(home)) return std::string(path);
  std::string_view rest = path.substr(home.size());
  if (!rest.empty() && rest.front() != '/') return std::string(path);  // /home/me2
  return "~" + std::string(rest);
}

boost::json::object status_json(const ProgramStatus& status, std::string_view home) {
  json::object out;
  if (!status.cwd.empty()) {
    out["cwd"] = status.cwd;
    out["cwd_short"] = abbreviate_home(status.cwd, home);
  }
  if (status.command) {
    json::object command{{"running", status.command->running}};
    if (status.command->exit_code) command["exit_code"] = *status.command->exit_code;
    if (status.command->duration_ms) command["duration_ms"] = *status.command->duration_ms;
    out["command"] = std::move(command);
  }
  if (status.agent) {
    const AgentReport& r = *status.agent;
    json::object agent{{"agent", r.agent}};
    auto text = [&](std::string_view name, const std::string& value) {
      if (!value.empty()) agent[name] = value;
    };
    auto number = [&](std::string_view name, const auto& value) {
      if (value) agent[name] = *value;
    };
    text("model", r.model);
    text("effort", r.effort);
    text("version", r.version);
    number("context_percent", r.context_percent);
    number("context_tokens", r.context_tokens);
    number("context_window", r.context_window);
    number("cost_usd", r.cost_usd);
    number("five_hour_percent", r.five_hour_percent);
    number("five_hour_resets_at", r.five_hour_resets_at);
    number("seven_day_percent", r.seven_day_percent);
    number("seven_day_resets_at", r.seven_day_resets_at);
    out["agent"] = std::move(agent);
  }
  return out;
}

std::string status_message(std::uint64_t session, const ProgramStatus& status,
                           std::string_view home) {
  return json::serialize(json::object{
      {"type", "status"}, {"session", session}, {"status", status_json(status, home)}});
}

namespace {

const json::value* field(const json::value& value, std::string_view a, std::string_view b = {}) {
  const json::object* object = value.if_object();
  if (object == nullptr) return nullptr;
  const json::value* found = object->if_contains(a);
  if (found == nullptr || b.empty()) return found;
  return field(*found, b);
}

// Printable ASCII only, cut at kMaxReportText: the strip and the terminal show it as is.
std::string text_of(const json::value* value) {
  if (value == nullptr || !value->is_string()) return {};
  std::string out;
  for (char c : value->get_string()) {
    if (out.size() == kMaxReportText) break;
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) out.push_back(c);
  }
  return out;
}

std::optional<double> number_of(const json::value* value, double max) {
  if (value == nullptr || !value->is_number()) return std::nullopt;
  double n = value->to_number<double>();
  if (!std::isfinite(n) || n < 0) return std::nullopt;
  return std::min(n, max);
}

std::optional<std::int64_t> integer_of(const json::value* value) {
  constexpr double kMax = 1e15;  // far past any token count or date in seconds
  auto n = number_of(value, kMax);
  if (!n) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(*n));
}

}  // namespace

std::optional<AgentReport> parse_claude_status(const boost::json::value& payload) {
  if (!payload.is_object()) return std::nullopt;
  AgentReport r{.agent = "claude"};
  r.model = text_of(field(payload, "model", "display_name"));
  if (r.model.empty()) r.model = text_of(field(payload, "model", "id"));
  r.effort = text_of(field(payload, "effort", "level"));
  r.version = text_of(field(payload, "version"));
  constexpr double kMaxPercent = 1000;  // past 100 is possible (a window outgrown)
  r.context_percent = number_of(field(payload, "context_window", "used_percentage"), kMaxPercent);
  r.context_tokens = integer_of(field(payload, "context_window", "total_input_tokens"));
  r.context_window = integer_of(field(payload, "context_window", "context_window_size"));
  r.cost_usd = number_of(field(payload, "cost", "total_cost_usd"), 1e9);
  if (const json::value* limits = field(payload, "rate_limits")) {
    r.five_hour_percent = number_of(field(*limits, "five_hour", "used_percentage"), kMaxPercent);
    r.five_hour_resets_at = integer_of(field(*limits, "five_hour", "resets_at"));
    r.seven_day_percent = number_of(field(*limits, "seven_day", "used_percentage"), kMaxPercent);
    r.seven_day_resets_at = integer_of(field(*limits, "seven_day", "resets_at"));
  }
  return r;
}

std::string report_line(const AgentReport& report) {
  std::string line = report.model;
  auto add = [&](const std::string& part) {
    if (part.empty()) return;
    line += line.empty() ? "" : " \u00b7 ";
    line += part;
  };
  char buffer[64];
  if (report.context_percent) {
    std::snprintf(buffer, sizeof buffer, "context %.0f%%", *report.context_percent);
    add(buffer);
  }
  if (report.cost_usd) {
    std::snprintf(buffer, sizeof buffer, "$%.2f", *report.cost_usd);
    add(buffer);
  }
  if (report.five_hour_percent) {
    std::snprintf(buffer, sizeof buffer, "5h quota %.0f%%", *report.five_hour_percent);
    add(buffer);
  }
  return line;
}

}  // namespace wharf::core
