// `wharf pair [--name NAME]`: a one-time link for pairing a phone (or any browser), printed
// with its QR code drawn in the terminal and, when wharf serves https with its own
// certificate, the certificate's fingerprint to compare. The link works once, for ten
// minutes; opening it gives that browser a device cookie of its own (`wharf devices`).
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <memory>

#include "app/qr_code.hpp"
#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct PairOptions {
  std::string state_dir;
  std::string name;
  bool no_qr = false;
};

std::function<int()> setup_pair(CLI::App& verb) {
  auto o = std::make_shared<PairOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("-n,--name", o->name,
                  "What to call the device (default: from its browser, e.g. 'Safari on iPhone')");
  verb.add_flag("--no-qr", o->no_qr, "Print the link only, without the QR code");
  verb.footer(R"(Scan the QR code with the phone's camera, or open the link on the device.
The link works once, for ten minutes. `wharf devices` lists paired devices.)");
  return [o] {
    boost::json::object args;
    if (!o->name.empty()) args["name"] = o->name;
    auto answer = call_operation(o->state_dir, "pair_device", std::move(args));
    if (!answer) return report_failure(answer.error());
    const auto& result = answer.value().at("result").as_object();
    std::string url(result.at("url").as_string());
    // A QR code is for a person at a terminal; a script reading stdout wants the link.
    if (!o->no_qr && isatty(STDOUT_FILENO) != 0) {
      if (auto qr = app::qr_terminal(url)) std::printf("%s\n", qr.value().c_str());
    }
    std::printf("%s\n", url.c_str());
    if (const auto* fingerprint = result.if_contains("fingerprint"))
      std::printf("certificate SHA-256 fingerprint: %s\n",
                  std::string(fingerprint->as_string()).c_str());
    std::time_t expires = static_cast<std::time_t>(result.at("expires").to_number<std::int64_t>());
    std::tm tm{};
    localtime_r(&expires, &tm);
    char when[16];
    std::strftime(when, sizeof when, "%H:%M", &tm);
    std::fprintf(stderr, "works once, until %s\n", when);
    return 0;
  };
}

}  // namespace

const Command kPairCommand{
    .name = "pair",
    .summary = "Pair a phone or another browser: a one-time link and its QR code",
    .setup = setup_pair,
};

}  // namespace wharf::cli
