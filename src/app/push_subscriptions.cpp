#include "app/push_subscriptions.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/json.hpp>
#include <fstream>
#include <sstream>
#include <system_error>

#include "app/key_file.hpp"

namespace wharf::app {
namespace json = boost::json;

namespace {
// Fifty subscriptions of at most 2 KiB of endpoint each, with room to spare.
constexpr std::size_t kMaxFileBytes = 1024 * 1024;
}  // namespace

core::Status PushSubscriptions::load() {
  list_.clear();
  std::error_code ec;
  if (!std::filesystem::exists(file_, ec)) return core::ok_status();
  if (std::filesystem::file_size(file_, ec) > kMaxFileBytes)
    return core::Error{file_.string() + " is too large"};
  std::ifstream in(file_, std::ios::binary);
  if (!in) return core::Error{"cannot read " + file_.string()};
  std::ostringstream text;
  text << in.rdbuf();
  boost::system::error_code parse_error;
  json::value value = json::parse(text.str(), parse_error);
  const json::object* obj = parse_error ? nullptr : value.if_object();
  const json::value* subs = obj != nullptr ? obj->if_contains("subscriptions") : nullptr;
  if (subs == nullptr || !subs->is_array())
    return core::Error{file_.string() + " is not a list of push subscriptions"};
  for (const json::value& entry : subs->get_array()) {
    auto parsed = core::parse_push_subscription(entry);
    if (!parsed) {
      spdlog::warn("push subscription dropped from {}: {}", file_.string(), parsed.error().message);
      continue;
    }
    if (list_.size() >= kMaxPushSubscriptions) break;
    auto same = [&](const core::PushSubscription& s) {
      return s.endpoint == parsed.value().endpoint;
    };
    if (std::none_of(list_.begin(), list_.end(), same)) list_.push_back(std::move(parsed.value()));
  }
  return core::ok_status();
}

core::Status PushSubscriptions::add(core::PushSubscription subscription) {
  auto same = std::find_if(list_.begin(), list_.end(), [&](const core::PushSubscription& s) {
    return s.endpoint == subscription.endpoint;
  });
  if (same != list_.end()) {
    *same = std::move(subscription);
  } else {
    if (list_.size() >= kMaxPushSubscriptions)
      return core::Error{"wharf keeps at most " + std::to_string(kMaxPushSubscriptions) +
                             " push subscriptions; remove one first",
                         "limit_reached"};
    list_.push_back(std::move(subscription));
  }
  return save();
}

bool PushSubscriptions::remove(std::string_view endpoint) {
  auto it = std::find_if(list_.begin(), list_.end(),
                         [&](const core::PushSubscription& s) { return s.endpoint == endpoint; });
  if (it == list_.end()) return false;
  list_.erase(it);
  if (auto saved = save(); !saved)
    spdlog::warn("push subscriptions not saved: {}", saved.error().message);
  return true;
}

core::Status PushSubscriptions::save() const {
  json::array subs;
  for (const core::PushSubscription& s : list_) {
    subs.push_back(json::object{{"endpoint", s.endpoint},
                                {"keys", json::object{{"p256dh", core::base64url_encode(s.p256dh)},
                                                      {"auth", core::base64url_encode(s.auth)}}}});
  }
  return write_private_file(file_, json::serialize(json::object{{"subscriptions", subs}}) + "\n");
}

}  // namespace wharf::app
