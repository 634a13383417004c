// pair_device: a one-time pairing link for a new device (a phone), with its QR code. The
// link is BASE/pair/CODE, BASE being public_url when configured, else the address wharf
// listens on; it works once, for ten minutes (core/pairing_codes.hpp). `wharf pair` draws
// the QR code in the terminal; the page shows `qr_svg`.
#include <boost/json.hpp>

#include "app/qr_code.hpp"
#include "ops/arguments.hpp"
#include "ops/device_access.hpp"

namespace wharf::ops {
namespace json = boost::json;
namespace {

asio::awaitable<Answer> run(Context& context, const json::object& args) {
  Arguments a(args, "pair_device");
  if (!a) co_return a.error();
  auto devices = devices_for(context);
  if (!devices) co_return devices.error();
  auto issued = devices.value()->create_code(a.text("name").value_or(""));
  if (!issued) co_return issued.error();
  std::string url = devices.value()->base_url() + "/pair/" + issued.value().code;
  auto svg = app::qr_svg(url);
  if (!svg) co_return svg.error();
  json::object answer{{"code", issued.value().code},
                      {"url", url},
                      {"expires", issued.value().expires},
                      {"qr_svg", std::move(svg.value())}};
  if (!issued.value().name.empty()) answer["name"] = issued.value().name;
  if (std::string fingerprint = devices.value()->fingerprint(); !fingerprint.empty())
    answer["fingerprint"] = fingerprint;
  co_return answer;
}

std::string render(const json::object& answer) {
  std::string text = std::string(answer.at("url").get_string()) + "\n";
  if (const auto* fingerprint = answer.if_contains("fingerprint"))
    text += "certificate SHA-256 " + std::string(fingerprint->get_string()) + "\n";
  return text;
}

}  // namespace

const Operation kPairDevice{
    .name = "pair_device",
    .title = "Pair a device",
    .description =
        "Makes a one-time pairing link (and its QR code as SVG) for a new device such as a "
        "phone: opening it there signs that browser in with a device cookie of its own. "
        "Works once, for ten minutes.",
    .input_schema = R"({"type":"object","properties":{
      "name":{"type":"string","maxLength":64,"description":"What to call the device (default: from its browser, e.g. 'Safari on iPhone')."}},
      "additionalProperties":false})",
    .output_schema = R"({"type":"object","properties":{
      "code":{"type":"string"},
      "url":{"type":"string"},
      "expires":{"type":"integer","description":"Seconds since the epoch."},
      "name":{"type":"string"},
      "qr_svg":{"type":"string"},
      "fingerprint":{"type":"string","description":"The TLS certificate's SHA-256, when wharf serves https."}},
      "required":["code","url","expires","qr_svg"]})",
    .run = run,
    .render_text = render,
};

}  // namespace wharf::ops
