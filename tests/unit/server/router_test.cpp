// Every routing decision, from requests built in memory: the Host rule before
// anything, the key where it is needed and nowhere else, the Origin rule on upgrades.
#include "server/router.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace wharf::server {
namespace {
namespace fs = std::filesystem;

constexpr std::string_view kKey = "00017f80abcdefff1020304050607090";

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("wharf-router-test-" + std::to_string(getpid()));
    fs::create_directories(root_ / "vendor" / "xterm");
    std::ofstream(root_ / "index.html") << "<!doctype html><title>wharf</title>";
    std::ofstream(root_ / "main.js") << "export {};";
    std::ofstream(root_ / "vendor" / "xterm" / "xterm.mjs") << "export class Terminal {}";
    auto assets = StaticAssets::load(root_);
    ASSERT_TRUE(assets) << assets.error().message;
    context_.key = std::string(kKey);
    context_.listen = {.ip = "127.0.0.1", .port = 7373};
    context_.assets = std::move(assets.value());
    context_.status = [] { return StatusCounts{2, 1}; };
  }
  void TearDown() override { fs::remove_all(root_); }

  static Request get(std::string target, std::string host = "127.0.0.1:7373") {
    Request req{http::verb::get, target, 11};
    if (!host.empty()) req.set(http::field::host, host);
    return req;
  }
  static Request upgrade(std::string target, std::string origin) {
    Request req = get(std::move(target));
    req.set(http::field::connection, "Upgrade");
    req.set(http::field::upgrade, "websocket");
    req.set(http::field::sec_websocket_version, "13");
    req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    if (!origin.empty()) req.set(http::field::origin, origin);
    return req;
  }
  Response respond(const Request& req) {
    auto decision = route_request(req, context_);
    EXPECT_TRUE(std::holds_alternative<Response>(decision)) << req.target();
    return std::holds_alternative<Response>(decision) ? std::get<Response>(decision) : Response{};
  }

  fs::path root_;
  ServerContext context_;
};

TEST_F(RouterTest, PageNeedsTheKey) {
  auto refused = respond(get("/"));
  EXPECT_EQ(refused.result(), http::status::forbidden);
  EXPECT_NE(refused.body().find("wharf open"), std::string::npos);
  EXPECT_EQ(refused.body().find(kKey), std::string::npos);
  EXPECT_EQ(respond(get("/?k=00017f80abcdefff1020304050607091")).result(), http::status::forbidden);

  auto page = respond(get("/?k=" + std::string(kKey)));
  EXPECT_EQ(page.result(), http::status::ok);
  EXPECT_EQ(page.body(), "<!doctype html><title>wharf</title>");
  EXPECT_EQ(page["Referrer-Policy"], "no-referrer");
  EXPECT_NE(page["Content-Security-Policy"].find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(page.find(http::field::access_control_allow_origin), page.end());
}

TEST_F(RouterTest, StaticFilesNeedNoKeyAndCannotEscapeTheirFolder) {
  auto module = respond(get("/static/main.js"));
  EXPECT_EQ(module.result(), http::status::ok);
  EXPECT_EQ(module[http::field::content_type], "text/javascript; charset=utf-8");
  EXPECT_EQ(respond(get("/static/vendor/xterm/xterm.mjs")).result(), http::status::ok);
  EXPECT_EQ(respond(get("/static/index.html")).result(), http::status::not_found);
  for (const char* sneaky :
       {"/static/../index.html", "/static/%2e%2e/key", "/static/vendor/../main.js",
        "/static//etc/passwd", "/static/", "/static/missing.js"}) {
    EXPECT_EQ(respond(get(sneaky)).result(), http::status::not_found) << sneaky;
  }
}

TEST_F(RouterTest, HostRuleComesBeforeEverything) {
  for (const char* host : {"evil.example:7373", "127.0.0.1:1", ""}) {
    auto res = respond(get("/static/main.js", host));
    EXPECT_EQ(res.result(), http::status::forbidden) << host;
    res = respond(get("/?k=" + std::string(kKey), host));
    EXPECT_EQ(res.result(), http::status::forbidden) << host;
  }
  EXPECT_EQ(respond(get("/static/main.js", "localhost:7373")).result(), http::status::ok);
}

TEST_F(RouterTest, DuplicatedSecurityHeadersAreRefused) {
  Request two_hosts = get("/?k=" + std::string(kKey));
  two_hosts.insert(http::field::host, "evil.example:7373");
  EXPECT_EQ(respond(two_hosts).result(), http::status::forbidden);

  Request two_keys = get("/api/status");
  two_keys.insert(kKeyHeader, kKey);
  two_keys.insert(kKeyHeader, "wrong");
  EXPECT_EQ(respond(two_keys).result(), http::status::forbidden);

  Request two_origins = upgrade("/ws?k=" + std::string(kKey), "http://127.0.0.1:7373");
  two_origins.insert(http::field::origin, "http://evil.example");
  EXPECT_EQ(respond(two_origins).result(), http::status::forbidden);
}

TEST_F(RouterTest, StatusNeedsTheKeyInAHeaderOrQuery) {
  EXPECT_EQ(respond(get("/api/status")).result(), http::status::forbidden);
  Request req = get("/api/status");
  req.set(kKeyHeader, kKey);
  auto res = respond(req);
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_NE(res.body().find("\"sessions\":2"), std::string::npos) << res.body();
  EXPECT_EQ(respond(get("/api/nothing-here?k=" + std::string(kKey))).result(),
            http::status::not_found);
}

TEST_F(RouterTest, WebSocketNeedsKeyAndOwnOrigin) {
  const std::string target = "/ws?k=" + std::string(kKey) + "&cols=120&rows=40";
  auto decision = route_request(upgrade(target, "http://127.0.0.1:7373"), context_);
  ASSERT_TRUE(std::holds_alternative<UpgradeToWebSocket>(decision));
  EXPECT_EQ(std::get<UpgradeToWebSocket>(decision).size, (core::TerminalSize{120, 40}));

  for (const char* origin : {"http://127.0.0.1:7374", "http://evil.example", "null", ""}) {
    EXPECT_EQ(respond(upgrade(target, origin)).result(), http::status::forbidden) << origin;
  }
  EXPECT_EQ(respond(upgrade("/ws", "http://127.0.0.1:7373")).result(), http::status::forbidden);
}

TEST_F(RouterTest, WebSocketSizeIsClamped) {
  auto decision = route_request(
      upgrade("/ws?k=" + std::string(kKey) + "&cols=99999&rows=-3", "http://127.0.0.1:7373"),
      context_);
  ASSERT_TRUE(std::holds_alternative<UpgradeToWebSocket>(decision));
  EXPECT_EQ(std::get<UpgradeToWebSocket>(decision).size, (core::TerminalSize{500, 1}));
}

TEST_F(RouterTest, UnknownRoutesAndMethods) {
  EXPECT_EQ(respond(get("/nothing")).result(), http::status::not_found);
  Request post{http::verb::post, "/static/main.js", 11};
  post.set(http::field::host, "127.0.0.1:7373");
  EXPECT_EQ(respond(post).result(), http::status::method_not_allowed);
}

}  // namespace
}  // namespace wharf::server
