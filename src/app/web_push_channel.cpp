#include "app/web_push_channel.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <array>
#include <boost/json.hpp>
#include <chrono>

#include "core/web_push.hpp"

namespace wharf::app {

std::string default_vapid_subject(const std::optional<std::string>& public_url) {
  if (public_url && public_url->starts_with("https://")) return *public_url;
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) != 0 || host[0] == '\0')
    return "mailto:wharf@localhost";
  return "mailto:wharf@" + std::string(host.data());
}

WebPushChannel::WebPushChannel(const std::filesystem::path& state_dir, std::string subject,
                               boost::asio::any_io_executor executor)
    : subject_(std::move(subject)),
      executor_(std::move(executor)),
      subscriptions_(state_dir / "push-subscriptions.json"),
      sender_(post_outbound) {
  auto keys = load_or_create_vapid_keys(state_dir / "vapid.json");
  if (!keys) {
    spdlog::warn("web push is off: {}", keys.error().message);
    return;
  }
  keys_ = keys.value();
  if (auto loaded = subscriptions_.load(); !loaded)
    spdlog::warn("push subscriptions not read: {}", loaded.error().message);
}

WebPushChannel::~WebPushChannel() {
  *self_ = nullptr;
}

std::string WebPushChannel::public_key() const {
  return keys_ ? core::base64url_encode(keys_->public_key) : std::string();
}

core::Status WebPushChannel::subscribe(const boost::json::value& subscription) {
  if (!keys_) return core::Error{"web push is off (no VAPID key; see the log)", "unavailable"};
  auto parsed = core::parse_push_subscription(subscription);
  if (!parsed) return parsed.error();
  return subscriptions_.add(std::move(parsed.value()));
}

bool WebPushChannel::unsubscribe(std::string_view endpoint) {
  return subscriptions_.remove(endpoint);
}

void WebPushChannel::deliver(const Notification& notification) {
  if (!keys_ || subscriptions_.all().empty()) return;
  boost::json::object payload{{"title", notification.title},
                              {"body", notification.message},
                              {"session", notification.session},
                              {"kind", notification.kind},
                              {"url", "/#session=" + std::to_string(notification.session)}};
  std::string text = boost::json::serialize(payload);
  if (text.size() > kMaxPushPlaintext) {
    // Only the body can be long: cut it (on a UTF-8 boundary) to fit one record.
    std::string body = notification.message;
    std::size_t over = text.size() - kMaxPushPlaintext + 3;
    body.resize(body.size() > over ? body.size() - over : 0);
    while (!body.empty() && (static_cast<unsigned char>(body.back()) & 0xC0) == 0x80)
      body.pop_back();
    if (!body.empty() && static_cast<unsigned char>(body.back()) >= 0xC0) body.pop_back();
    payload["body"] = body + "…";
    text = boost::json::serialize(payload);
  }
  std::string_view urgency = notification.kind == "waiting" ? "high" : "normal";
  // A copy: a subscription removed by a reply must not disturb this loop.
  auto targets = subscriptions_.all();
  for (const core::PushSubscription& subscription : targets) send_one(subscription, text, urgency);
}

void WebPushChannel::send_one(const core::PushSubscription& subscription,
                              const std::string& payload, std::string_view urgency) {
  std::string audience = core::push_audience(subscription.endpoint);
  auto body = encrypt_push_message(payload, subscription.p256dh, subscription.auth);
  if (!body) {
    spdlog::warn("web push to {} not sent: {}", audience, body.error().message);
    return;
  }
  auto now = std::chrono::system_clock::now();
  auto expires = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count() +
                 kVapidTokenSeconds;
  auto token = vapid_token(*keys_, audience, subject_, expires);
  if (!token) {
    spdlog::warn("web push to {} not sent: {}", audience, token.error().message);
    return;
  }
  OutboundRequest request;
  request.url = subscription.endpoint;
  request.headers = {{"Authorization", vapid_authorization(*keys_, token.value())},
                     {"Content-Encoding", "aes128gcm"},
                     {"Content-Type", "application/octet-stream"},
                     {"TTL", std::to_string(kPushTimeToLiveSeconds)},
                     {"Urgency", std::string(urgency)}};
  request.body = std::move(body.value());
  std::weak_ptr<WebPushChannel*> weak = self_;
  std::string endpoint = subscription.endpoint;
  sender_(executor_, std::move(request),
          [weak, endpoint, audience](core::Result<OutboundResponse> response) {
            auto self = weak.lock();
            if (!self || *self == nullptr) return;
            if (!response) {
              spdlog::warn("web push to {} failed: {}", audience, response.error().message);
              return;
            }
            unsigned status = response.value().status;
            if (status == 404 || status == 410) {
              // RFC 8030 7.3: the subscription has expired or was withdrawn.
              (*self)->subscriptions_.remove(endpoint);
              spdlog::info("web push subscription at {} is gone ({}): removed", audience, status);
            } else if (status < 200 || status >= 300) {
              spdlog::warn("web push to {} refused: HTTP {}", audience, status);
            } else {
              spdlog::debug("web push to {} accepted ({})", audience, status);
            }
          });
}

}  // namespace wharf::app
