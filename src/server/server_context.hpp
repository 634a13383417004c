// What every connection needs to know about the running server. Built once by the
// composition root and shared read-only (by reference) with every session.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/request_policy.hpp"
#include "server/device_hooks.hpp"
#include "server/launch_api.hpp"
#include "server/push_hooks.hpp"
#include "server/static_assets.hpp"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace wharf::app {
class SessionService;
class UploadStore;
}  // namespace wharf::app

namespace wharf::server {

struct StatusCounts {
  std::size_t sessions = 0;
  std::size_t attached = 0;
};

// Enough for 2,000 windows with room for HTTP requests beside them (the scale
// target in docs/performance.md); each one's memory is bounded by the per-window output budget.
inline constexpr std::size_t kMaxConnections = 4096;
// A window that answers no ping for this long is gone (a dead network). Generous on
// purpose: a window that is alive but not reading (a suspended `wharf attach`, a laptop
// asleep for a few minutes) costs at most its flow budget and a snapshot, and keeping it
// spares it a reconnect when it wakes.
inline constexpr std::chrono::seconds kDefaultWindowTimeout{300};

struct ServerContext {
  std::string key;
  core::ListenAddress listen;
  // TLS, the public URL and the names a proxy reaches wharf by (docs/remote.md).
  // reach.tls: wharf itself speaks HTTPS on its port (cookies get Secure).
  core::Reach reach;
  // Set exactly when reach.tls: every connection shakes hands with it (tls_handshake.hpp).
  boost::asio::ssl::context* tls_context = nullptr;
  // SHA-256 of the certificate served, "AB:CD:..." (what `wharf pair` shows); "" without TLS.
  std::string tls_fingerprint;
  StaticAssets assets;
  std::function<StatusCounts()> status;
  LaunchApi* launch = nullptr;              // null in router tests that need no API
  app::SessionService* sessions = nullptr;  // null in router unit tests
  std::function<void()> request_stop;       // POST /api/stop; empty: refused
  app::UploadStore* uploads = nullptr;      // POST /api/upload; null: refused
  // HTTP and WebSocket, for the connection cap (shared: see connection_slot.hpp).
  std::shared_ptr<std::size_t> open_connections = std::make_shared<std::size_t>(0);
  std::chrono::seconds window_timeout = kDefaultWindowTimeout;  // WebSocket idle timeout
  bool keep_sessions = false;  // a stop leaves the sessions running (told to every window)
  // GET /api/v1/openapi.json (server/openapi.hpp); null: 404. Handed in, so the router
  // itself needs no operations (its fuzzer builds without them).
  const boost::json::object* api_description = nullptr;
  // GET /pane/SESSION/TOKEN: the document of a session's web pane page (app::PaneStore),
  // or null when that token is not the session's page; empty: 404.
  std::function<std::shared_ptr<const std::string>(std::uint64_t, std::string_view)> pane_document;
  // Paired devices: the cookie check, the `?k=` trade and /pair/CODE (server/device_routes.hpp).
  DeviceHooks devices;
  // Web Push: the VAPID key and the browsers' subscriptions (server/push_routes.hpp).
  PushHooks push;
  // The device cookie gets Secure: set when the page is served over https (TLS here, or a
  // public_url with https behind a proxy).
  bool secure_cookies = false;
};

}  // namespace wharf::server
