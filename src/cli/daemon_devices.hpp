// The daemon's paired devices wired in (docs/remote.md, "Pairing a phone"): the
// DeviceService opened on STATE_DIR/devices.json, its hooks in the ServerContext (the
// cookie check, the `?k=` trade, /pair/CODE), the device operations reaching it through
// the SessionService, and a revocation closing that device's windows.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/device_service.hpp"
#include "app/session_service.hpp"
#include "core/result.hpp"
#include "server/server_context.hpp"

namespace wharf::cli {

core::Result<std::unique_ptr<app::DeviceService>> open_devices(
    const std::filesystem::path& state_dir, server::ServerContext& context,
    app::SessionService& sessions);

// Where pairing links point: public_url when configured, else the first printed address
// another machine can reach (loopback only when there is nothing else).
std::string pairing_base_url(const std::optional<std::string>& public_url,
                             const std::vector<std::string>& printed_urls);

}  // namespace wharf::cli
