// `wharf devices` lists the paired devices (browsers holding a device cookie);
// `wharf devices revoke ID` unpairs one: its cookie stops working and its open windows
// close at once. Rotating the key (`wharf key rotate`) leaves devices paired; this is
// how one goes.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct DevicesOptions {
  std::string state_dir;
  std::vector<std::string> words;
  bool json = false;
};

std::function<int()> setup_devices(CLI::App& verb) {
  auto o = std::make_shared<DevicesOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("action", o->words, "Nothing to list, or `revoke ID`")->expected(0, 2);
  verb.add_flag("--json", o->json, "Print the list as JSON");
  verb.footer(R"(Examples:
  wharf devices
  wharf devices revoke 3)");
  return [o] {
    if (o->words.empty()) {
      auto answer = call_operation(o->state_dir, "list_devices", {});
      if (!answer) return report_failure(answer.error());
      if (o->json) {
        std::printf("%s\n",
                    boost::json::serialize(answer.value().at("result").at("devices")).c_str());
      } else {
        std::printf("%s", std::string(answer.value().at("text").as_string()).c_str());
      }
      return 0;
    }
    if (o->words.front() != "revoke" || o->words.size() != 2)
      return usage_error("devices: say `wharf devices` or `wharf devices revoke ID`");
    std::int64_t id = 0;
    try {
      std::size_t used = 0;
      id = std::stoll(o->words[1], &used);
      if (used != o->words[1].size() || id <= 0) throw std::invalid_argument("id");
    } catch (const std::exception&) {
      return usage_error("devices revoke: '" + o->words[1] +
                         "' is not a device id (see `wharf devices`)");
    }
    auto answer = call_operation(o->state_dir, "revoke_device", {{"device", id}});
    if (!answer) return report_failure(answer.error());
    std::printf("%s", std::string(answer.value().at("text").as_string()).c_str());
    return 0;
  };
}

}  // namespace

const Command kDevicesCommand{
    .name = "devices",
    .summary = "List paired devices, or revoke one (`wharf devices revoke ID`)",
    .setup = setup_devices,
};

}  // namespace wharf::cli
