#include "cli/daemon_devices.hpp"

namespace wharf::cli {

core::Result<std::unique_ptr<app::DeviceService>> open_devices(
    const std::filesystem::path& state_dir, server::ServerContext& context,
    app::SessionService& sessions) {
  auto opened = app::DeviceService::open(state_dir / "devices.json");
  if (!opened) return opened.error();
  app::DeviceService* devices = opened.value().get();
  auto grant = [](core::Result<app::PairedDevice> paired) {
    if (!paired)
      return server::DeviceGrant{.kind = server::DeviceGrant::Kind::kFailed,
                                 .message = paired.error().message};
    return server::DeviceGrant{.kind = server::DeviceGrant::Kind::kPaired,
                               .token = std::move(paired.value().token)};
  };
  context.devices = server::DeviceHooks{
      .find = [devices](std::string_view token) { return devices->authenticate(token); },
      .pair = [devices, grant](std::string_view name) { return grant(devices->pair(name)); },
      .redeem =
          [devices](std::string_view code, std::string_view name) {
            app::PairingOutcome outcome = devices->redeem(code, name);
            using Kind = app::PairingOutcome::Kind;
            using Grant = server::DeviceGrant::Kind;
            server::DeviceGrant answer;
            answer.kind = outcome.kind == Kind::kPaired      ? Grant::kPaired
                          : outcome.kind == Kind::kThrottled ? Grant::kThrottled
                          : outcome.kind == Kind::kFailed    ? Grant::kFailed
                                                             : Grant::kBadCode;
            if (outcome.device) answer.token = std::move(outcome.device->token);
            answer.retry_after = outcome.retry_after;
            answer.message = std::move(outcome.message);
            return answer;
          },
  };
  sessions.set_devices(devices);
  devices->on_revoked([&sessions](std::int64_t id) { sessions.device_revoked(id); });
  return std::move(opened.value());
}

std::string pairing_base_url(const std::optional<std::string>& public_url,
                             const std::vector<std::string>& printed_urls) {
  if (public_url && !public_url->empty()) return *public_url;
  auto base = [](const std::string& url) {
    // "http://HOST:PORT/?k=KEY" -> "http://HOST:PORT"
    std::size_t path = url.find('/', url.find("://") + 3);
    return path == std::string::npos ? url : url.substr(0, path);
  };
  for (const std::string& url : printed_urls) {
    std::string b = base(url);
    bool loopback = b.find("://127.") != std::string::npos ||
                    b.find("://[::1]") != std::string::npos ||
                    b.find("://localhost") != std::string::npos;
    if (!loopback) return b;
  }
  return printed_urls.empty() ? std::string("http://localhost") : base(printed_urls.front());
}

}  // namespace wharf::cli
