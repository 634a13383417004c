// The router's side of paired devices, with the device hooks played by the test: the
// cookie counts as the key only when no key is sent, the `?k=` trade's redirect and
// cookie, /pair/CODE's answers, and no devices at all when the hooks are unset.
#include "server/device_routes.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace wharf::server {
namespace {
namespace fs = std::filesystem;

constexpr std::string_view kKey = "00017f80abcdefff1020304050607090";
const std::string kToken(64, 'a');

class DeviceRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("wharf-device-routes-test-" + std::to_string(getpid()));
    fs::create_directories(root_);
    std::ofstream(root_ / "index.html") << "<!doctype html><title>wharf</title>";
    auto assets = StaticAssets::load(root_);
    ASSERT_TRUE(assets) << assets.error().message;
    context_.key = std::string(kKey);
    context_.listen = {.ip = "127.0.0.1", .port = 7373};
    context_.assets = std::move(assets.value());
    context_.devices.find = [](std::string_view token) -> std::optional<std::int64_t> {
      if (token == kToken) return 7;
      return std::nullopt;
    };
    context_.devices.pair = [this](std::string_view name) {
      paired_.emplace_back(name);
      return DeviceGrant{.kind = DeviceGrant::Kind::kPaired, .token = std::string(64, 'b')};
    };
    context_.devices.redeem = [](std::string_view code, std::string_view) {
      if (code == "GOODCODE22")
        return DeviceGrant{.kind = DeviceGrant::Kind::kPaired, .token = kToken};
      if (code == "SLOWDOWN22")
        return DeviceGrant{.kind = DeviceGrant::Kind::kThrottled, .retry_after = 42};
      return DeviceGrant{.kind = DeviceGrant::Kind::kBadCode};
    };
  }
  void TearDown() override { fs::remove_all(root_); }

  static Request get(std::string target, std::string cookie = {}) {
    Request req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1:7373");
    if (!cookie.empty()) req.set(http::field::cookie, cookie);
    return req;
  }
  Response respond(const Request& req) {
    auto decision = route_request(req, context_);
    EXPECT_TRUE(std::holds_alternative<Response>(decision)) << req.target();
    return std::holds_alternative<Response>(decision) ? std::get<Response>(decision) : Response{};
  }

  fs::path root_;
  ServerContext context_;
  std::vector<std::string> paired_;
};

TEST_F(DeviceRoutesTest, TheCookieIsNamedByThePort) {
  EXPECT_EQ(device_cookie_name(context_), "wharf_7373");
}

TEST_F(DeviceRoutesTest, AKeyVisitIsTradedForACookieAndACleanAddress) {
  Request req = get("/?toolbar=1&k=" + std::string(kKey) + "&focus=0");
  req.set(http::field::user_agent,
          "Mozilla/5.0 (Linux; Android 14) Chrome/120.0 Mobile Safari/537.36");
  req.set("Sec-Fetch-Mode", "navigate");
  Response res = respond(req);
  EXPECT_EQ(res.result(), http::status::see_other);
  EXPECT_EQ(res[http::field::location], "/?toolbar=1&focus=0");
  EXPECT_EQ(res[http::field::set_cookie],
            "wharf_7373=" + std::string(64, 'b') +
                "; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict");
  EXPECT_EQ(res["Referrer-Policy"], "no-referrer");
  ASSERT_EQ(paired_.size(), 1u);
  EXPECT_EQ(paired_[0], "Chrome on Android");
  context_.secure_cookies = true;
  EXPECT_TRUE(respond(req)[http::field::set_cookie].ends_with("; Secure"));
}

TEST_F(DeviceRoutesTest, AScriptFetchingTheKeyedAddressMakesNoDevice) {
  // curl and health checks send no Sec-Fetch-Mode: the page as before, no device.
  Response res = respond(get("/?k=" + std::string(kKey)));
  EXPECT_NE(res.result(), http::status::see_other);
  EXPECT_NE(res.result(), http::status::forbidden);
  EXPECT_EQ(res.count(http::field::set_cookie), 0u);
  EXPECT_TRUE(paired_.empty());
}

TEST_F(DeviceRoutesTest, AWrongKeyTradesNothing) {
  Response res = respond(get("/?k=" + std::string(32, '0')));
  EXPECT_EQ(res.result(), http::status::forbidden);
  EXPECT_EQ(res.count(http::field::set_cookie), 0u);
  EXPECT_TRUE(paired_.empty());
}

TEST_F(DeviceRoutesTest, APairedBrowserIsOnlySentToTheCleanAddress) {
  Response res = respond(get("/index.html?k=" + std::string(32, '0'), "wharf_7373=" + kToken));
  EXPECT_EQ(res.result(), http::status::see_other);
  EXPECT_EQ(res[http::field::location], "/index.html");
  EXPECT_EQ(res.count(http::field::set_cookie), 0u);
  EXPECT_TRUE(paired_.empty());
}

TEST_F(DeviceRoutesTest, TheCookieOpensThePageApiAndWebSocketOnlyWithoutAKey) {
  EXPECT_EQ(respond(get("/", "wharf_7373=" + kToken)).result(), http::status::ok);
  EXPECT_EQ(respond(get("/api/status", "x=1; wharf_7373=" + kToken)).result(), http::status::ok);
  EXPECT_EQ(respond(get("/", "wharf_7373=" + std::string(64, 'c'))).result(),
            http::status::forbidden);
  EXPECT_EQ(respond(get("/", "wharf_7374=" + kToken)).result(), http::status::forbidden);
  EXPECT_EQ(respond(get("/", "wharf_7373=" + kToken + "; wharf_7373=" + kToken)).result(),
            http::status::forbidden);
  // A key sent alongside decides: a wrong one is refused whatever the cookie.
  Request wrong = get("/api/status", "wharf_7373=" + kToken);
  wrong.set(kKeyHeader, std::string(32, '0'));
  EXPECT_EQ(respond(wrong).result(), http::status::unauthorized);
  Request ws = get("/ws", "wharf_7373=" + kToken);
  ws.set(http::field::connection, "Upgrade");
  ws.set(http::field::upgrade, "websocket");
  ws.set(http::field::sec_websocket_version, "13");
  ws.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  ws.set(http::field::origin, "http://127.0.0.1:7373");
  auto decision = route_request(ws, context_);
  ASSERT_TRUE(std::holds_alternative<UpgradeToWebSocket>(decision));
  EXPECT_EQ(std::get<UpgradeToWebSocket>(decision).device, 7);
  ws.set(http::field::origin, "http://evil.example");
  EXPECT_EQ(respond(ws).result(), http::status::forbidden);
}

TEST_F(DeviceRoutesTest, PairingLinksAnswerByWhatTheCodeWas) {
  Response good = respond(get("/pair/GOODCODE22"));
  EXPECT_EQ(good.result(), http::status::see_other);
  EXPECT_EQ(good[http::field::location], "/");
  EXPECT_TRUE(good[http::field::set_cookie].starts_with("wharf_7373=" + kToken + ";"));
  Response bad = respond(get("/pair/WRONGCODE2"));
  EXPECT_EQ(bad.result(), http::status::not_found);
  EXPECT_NE(bad.body().find("This pairing link does not work"), std::string::npos);
  Response slow = respond(get("/pair/SLOWDOWN22"));
  EXPECT_EQ(slow.result(), http::status::too_many_requests);
  EXPECT_EQ(slow[http::field::retry_after], "42");
  Request head = get("/pair/GOODCODE22");
  head.method(http::verb::head);
  EXPECT_EQ(respond(head).result(), http::status::method_not_allowed);
}

TEST_F(DeviceRoutesTest, WithoutHooksThereAreNoDevices) {
  context_.devices = {};
  EXPECT_EQ(respond(get("/pair/GOODCODE22")).result(), http::status::not_found);
  EXPECT_EQ(respond(get("/", "wharf_7373=" + kToken)).result(), http::status::forbidden);
  Response page = respond(get("/?k=" + std::string(kKey)));
  EXPECT_EQ(page.result(), http::status::ok);  // the key opens the page as before
}

TEST_F(DeviceRoutesTest, ANavigationFromElsewhereMovesOnFromOurOrigin) {
  Request req = get("/?k=" + std::string(kKey));
  req.set("Sec-Fetch-Site", "cross-site");
  req.set("Sec-Fetch-Mode", "navigate");
  Response res = respond(req);
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.count(http::field::location), 0u);
  EXPECT_NE(res.body().find(R"(<meta http-equiv="refresh" content="0;url=/">)"), std::string::npos);
  EXPECT_EQ(res.body().find(std::string(kKey)), std::string::npos);
  EXPECT_EQ(res.count(http::field::set_cookie), 1u);
}

}  // namespace
}  // namespace wharf::server
