// list_devices: the paired devices (browsers holding a device cookie), with when each was
// paired and last used. `current` marks the device the caller's own cookie names.
#include <boost/json.hpp>
#include <ctime>

#include "ops/arguments.hpp"
#include "ops/device_access.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "list_devices");
  if (!a) co_return a.error();
  auto devices = devices_for(context);
  if (!devices) co_return devices.error();
  json::array rows;
  for (const core::DeviceRecord& d : devices.value()->list())
    rows.push_back(json::object{{"id", d.id},
                                {"name", d.name},
                                {"created", d.created},
                                {"last_used", d.last_used},
                                {"current", d.id == context.caller.device}});
  co_return json::object{{"devices", std::move(rows)}};
}

std::string local_time(std::int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm);
  return text;
}

std::string render(const json::object& answer) {
  const json::array& rows = answer.at("devices").get_array();
  if (rows.empty()) return "no paired devices (`wharf pair` pairs one)\n";
  std::string text = "ID\tPAIRED\t\t\tLAST USED\t\tNAME\n";
  for (const json::value& row : rows) {
    const json::object& d = row.get_object();
    text += std::to_string(d.at("id").to_number<std::int64_t>()) + "\t" +
            local_time(d.at("created").to_number<std::int64_t>()) + "\t" +
            local_time(d.at("last_used").to_number<std::int64_t>()) + "\t" +
            std::string(d.at("name").get_string()) + "\n";
  }
  return text;
}

}  // namespace

const Operation kListDevices{
    .name = "list_devices",
    .title = "List paired devices",
    .description =
        "Lists the devices paired with this wharf (browsers signed in with a device "
        "cookie): id, name, when paired and when last used (seconds since the epoch).",
    .input_schema = R"({"type":"object","properties":{},"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "devices":{"type":"array","items":{"type":"object","properties":{
        "id":{"type":"integer"},"name":{"type":"string"},
        "created":{"type":"integer"},"last_used":{"type":"integer"},
        "current":{"type":"boolean","description":"The device the caller's own cookie names."}},
        "required":["id","name","created","last_used","current"]}}},
      "required":["devices"]})",
    .read_only = true,
    .idempotent = true,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
