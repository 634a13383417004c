// `wharf ls [--json]`: the live sessions, in tab order.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

std::string field(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return "-";
  if (v->is_string()) return std::string(v->get_string());
  return boost::json::serialize(*v);
}

std::function<int()> setup_ls(CLI::App& verb) {
  auto state_dir = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  add_state_dir_option(verb, *state_dir);
  verb.add_flag("--json", *as_json, "One JSON array, one object per session");
  return [state_dir, as_json] {
    auto answer = call_operation(*state_dir, "list_sessions", {});
    if (!answer) return report_failure(answer.error());
    const auto& sessions = answer.value().at("result").at("sessions").as_array();
    if (*as_json) {
      std::printf("%s\n", boost::json::serialize(sessions).c_str());
      return 0;
    }
    std::printf("%-4s %-20s %-8s %-8s %-7s %s\n", "ID", "NAME", "STATUS", "PID", "DRIVER", "CWD");
    for (const auto& row : sessions) {
      const auto& o = row.as_object();
      std::printf("%-4s %-20s %-8s %-8s %-7s %s\n", field(o, "id").c_str(),
                  field(o, "name").c_str(), field(o, "status").c_str(), field(o, "pid").c_str(),
                  field(o, "driver").c_str(), field(o, "cwd").c_str());
    }
    return 0;
  };
}

}  // namespace

const Command kLsCommand{
    .name = "ls",
    .summary = "List the live sessions",
    .setup = setup_ls,
};

}  // namespace wharf::cli
