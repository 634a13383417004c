// Who may manage paired devices (pair_device, list_devices, revoke_device): the person,
// through the key, a paired device, or their own CLI. Never a program inside a session:
// an agent that could mint a pairing link could hand itself a way in from anywhere.
#pragma once

#include "app/device_service.hpp"
#include "ops/operation.hpp"

namespace wharf::ops {

// The daemon's devices, or an error saying why this caller may not reach them.
inline core::Result<app::DeviceService*> devices_for(Context& context) {
  if (context.caller.kind == core::Caller::Kind::kSession)
    return core::Error{"a program inside a session may not pair, list or revoke devices",
                       "not_permitted"};
  app::DeviceService* devices = context.sessions.devices();
  if (devices == nullptr) return core::Error{"this wharf keeps no paired devices", "unavailable"};
  return devices;
}

}  // namespace wharf::ops
