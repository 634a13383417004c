// revoke_device: unpairs one device. Its cookie stops working at once, for the page, the
// API and new WebSockets, and the windows it has open close now (WindowListener::
// on_device_revoked). The key and the other devices are untouched.
#include <boost/json.hpp>

#include "ops/arguments.hpp"
#include "ops/device_access.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "revoke_device");
  if (!a) co_return a.error();
  auto devices = devices_for(context);
  if (!devices) co_return devices.error();
  std::int64_t id = *a.integer("device");
  if (auto revoked = devices.value()->revoke(id); !revoked) co_return revoked.error();
  co_return json::object{{"device", id}, {"revoked", true}};
}

std::string render(const json::object& answer) {
  return "device " + std::to_string(answer.at("device").to_number<std::int64_t>()) + " revoked\n";
}

}  // namespace

const Operation kRevokeDevice{
    .name = "revoke_device",
    .title = "Revoke a paired device",
    .description =
        "Unpairs a device (by its id from list_devices): its cookie stops working "
        "and its open windows close at once.",
    .input_schema = R"({"type":"object","properties":{
      "device":{"type":"integer","minimum":1}},
      "required":["device"],"additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "device":{"type":"integer"},"revoked":{"type":"boolean"}},
      "required":["device","revoked"]})",
    .destructive = true,
    .idempotent = false,
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
