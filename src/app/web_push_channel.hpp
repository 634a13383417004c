// Web Push as a notification channel: the browsers that subscribed (app/push_subscriptions)
// each get the notification, encrypted for them alone (RFC 8291) and signed as wharf
// (VAPID, RFC 8292), through their push service; the page's service worker (web/sw.js)
// shows it, and a tap opens that session.
//
// What a push carries: {"title", "body", "session", "kind", "url"}, where url is
// "/#session=ID", resolved by the service worker against the page's own origin (so it
// holds no key and needs no public_url). The title and body are what the notifier
// handed over: never the screen unless the operator allowed it.
//
// Invariants: the VAPID keys are loaded or made once, at construction; without them the
// channel is off (enabled() false, nothing sent, subscribing refused with "unavailable").
// A push service answering 404 or 410 says the subscription is gone: it is removed. The
// log names the push service's host, never an endpoint (a capability) nor the text.
// Replies that arrive after the channel is destroyed are dropped.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/value.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/notification.hpp"
#include "app/outbound_post.hpp"
#include "app/push_subscriptions.hpp"
#include "app/web_push_crypto.hpp"

namespace wharf::app {

// How long a push service keeps a notification for a browser that is offline: after
// half a day "waiting" or "finished" is old news.
inline constexpr int kPushTimeToLiveSeconds = 12 * 60 * 60;
// A VAPID token's lifetime (RFC 8292 allows at most 24 hours).
inline constexpr int kVapidTokenSeconds = 12 * 60 * 60;

// The VAPID `sub` claim when the config sets none: the public URL when there is an https
// one (a push service may reach the operator there), else a mailto: address on this host.
std::string default_vapid_subject(const std::optional<std::string>& public_url);

class WebPushChannel : public NotificationChannel {
 public:
  // state_dir holds vapid.json and push-subscriptions.json; subject is the VAPID `sub`
  // (mailto: or https:); deliveries run on executor.
  WebPushChannel(const std::filesystem::path& state_dir, std::string subject,
                 boost::asio::any_io_executor executor);
  ~WebPushChannel() override;

  std::string_view name() const override { return "webpush"; }
  void deliver(const Notification& notification) override;

  bool enabled() const { return keys_.has_value(); }
  // applicationServerKey: the VAPID public key, base64url; "" when off.
  std::string public_key() const;

  // The browser's PushSubscription JSON. Errors: "bad_argument", "limit_reached",
  // "unavailable" (push is off).
  core::Status subscribe(const boost::json::value& subscription);
  bool unsubscribe(std::string_view endpoint);
  std::size_t subscription_count() const { return subscriptions_.all().size(); }

  // Tests send through a stand-in instead of the network.
  using Sender = std::function<void(boost::asio::any_io_executor, OutboundRequest, OutboundDone)>;
  void set_sender_for_test(Sender sender) { sender_ = std::move(sender); }

 private:
  void send_one(const core::PushSubscription& subscription, const std::string& payload,
                std::string_view urgency);

  std::string subject_;
  boost::asio::any_io_executor executor_;
  std::optional<P256KeyPair> keys_;
  PushSubscriptions subscriptions_;
  Sender sender_;
  // Replies hold a weak reference: a reply after the channel is gone does nothing.
  std::shared_ptr<WebPushChannel*> self_ = std::make_shared<WebPushChannel*>(this);
};

}  // namespace wharf::app
