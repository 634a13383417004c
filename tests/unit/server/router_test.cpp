// Every routing decision, from requests built in memory: the Host rule before
// anything, the key where it is needed and nowhere else, the Origin rule on upgrades.
#include "server/router.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

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
  // A name that could be rebound, or no Host: forbidden. Our own kind of address with
  // another port, or an address we do not listen on: misdirected.
  for (auto [host, status] : {std::pair{"evil.example:7373", http::status::forbidden},
                              std::pair{"", http::status::forbidden},
                              std::pair{"127.0.0.1:1", http::status::misdirected_request},
                              std::pair{"127.0.0.2:7373", http::status::misdirected_request}}) {
    auto res = respond(get("/static/main.js", host));
    EXPECT_EQ(res.result(), status) << host;
    res = respond(get("/?k=" + std::string(kKey), host));
    EXPECT_EQ(res.result(), status) << host;
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
  EXPECT_EQ(respond(two_keys).result(), http::status::unauthorized);
  // Two keys in the query: which one counts would be ambiguous, so neither does.
  EXPECT_EQ(respond(get("/api/status?k=wrong&k=" + std::string(kKey))).result(),
            http::status::unauthorized);
  EXPECT_EQ(respond(get("/?k=" + std::string(kKey) + "&k=" + std::string(kKey))).result(),
            http::status::forbidden);

  Request two_origins = upgrade("/ws?k=" + std::string(kKey), "http://127.0.0.1:7373");
  two_origins.insert(http::field::origin, "http://evil.example");
  EXPECT_EQ(respond(two_origins).result(), http::status::forbidden);
}

TEST_F(RouterTest, StatusNeedsTheKeyInAHeaderOrQuery) {
  EXPECT_EQ(respond(get("/api/status")).result(), http::status::unauthorized);
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

// The code and message of a JSON refusal, or "not JSON" when it is anything else.
std::pair<std::string, std::string> json_refusal(const Response& res) {
  if (res[http::field::content_type] != "application/json") return {"not JSON", ""};
  boost::system::error_code ec;
  auto body = boost::json::parse(res.body(), ec);
  const auto* error = !ec && body.is_object() ? body.get_object().if_contains("error") : nullptr;
  if (error == nullptr || !error->is_object()) return {"not JSON", res.body()};
  const auto* code = error->get_object().if_contains("code");
  const auto* message = error->get_object().if_contains("message");
  if (code == nullptr || !code->is_string() || message == nullptr || !message->is_string())
    return {"not JSON", res.body()};
  EXPECT_EQ(body.get_object().at("ok"), false);
  return {std::string(code->get_string()), std::string(message->get_string())};
}

TEST_F(RouterTest, EveryRefusalOnTheProgramPathsIsJsonWithItsStatus) {
  struct Case {
    Request req;
    http::status status;
    std::string code;
  };
  auto with = [](Request req, std::string_view name, std::string_view value) {
    req.set(name, value);
    return req;
  };
  auto method = [](http::verb verb, Request req) {
    req.method(verb);
    return req;
  };
  const std::string key(kKey);
  std::vector<Case> cases;
  for (std::string path : {"/api/status", "/api/v1/sessions", "/mcp", "/api/upload"}) {
    cases.push_back({get(path), http::status::unauthorized, "no_key"});
    cases.push_back({with(get(path), kKeyHeader, "00017f80abcdefff1020304050607091"),
                     http::status::unauthorized, "wrong_key"});
    cases.push_back(
        {with(get(path), "Authorization", "Bearer nope"), http::status::unauthorized, "wrong_key"});
    cases.push_back({get(path + "?k=nope"), http::status::unauthorized, "wrong_key"});
    cases.push_back(
        {get(path + "?k=" + key, "evil.example:7373"), http::status::forbidden, "bad_host"});
    cases.push_back({get(path + "?k=" + key, ""), http::status::forbidden, "bad_host"});
    cases.push_back(
        {get(path + "?k=" + key, "127.0.0.1:1"), http::status::misdirected_request, "misdirected"});
    cases.push_back(
        {get(path + "?k=" + key, "localhost"), http::status::misdirected_request, "misdirected"});
  }
  cases.push_back({get("/api/nothing?k=" + key), http::status::not_found, "not_found"});
  cases.push_back({get("/api/v1/nothing?k=" + key), http::status::not_found, "not_found"});
  cases.push_back({get("/mcp/more?k=" + key), http::status::not_found, "not_found"});
  cases.push_back(
      {get("/api/v1/sessions/abc/screen?k=" + key), http::status::bad_request, "bad_argument"});
  cases.push_back({get("/api/v1/sessions/99999999999999999999?k=" + key), http::status::bad_request,
                   "bad_argument"});
  cases.push_back({method(http::verb::put, get("/api/v1/sessions?k=" + key)),
                   http::status::method_not_allowed, "bad_method"});
  cases.push_back({method(http::verb::post, get("/api/status?k=" + key)),
                   http::status::method_not_allowed, "bad_method"});
  cases.push_back({get("/mcp?k=" + key), http::status::method_not_allowed, "bad_method"});
  cases.push_back(
      {with(method(http::verb::post, get("/mcp?k=" + key)), "Origin", "http://evil.example"),
       http::status::forbidden, "bad_origin"});
  cases.push_back(
      {with(method(http::verb::post, get("/api/stop?k=" + key)), "Origin", "http://evil.example"),
       http::status::forbidden, "bad_origin"});
  cases.push_back({get("/api/status?k=%zz"), http::status::bad_request, "bad_request"});
  for (const Case& c : cases) {
    auto res = respond(c.req);
    std::string what =
        std::string(c.req.target()) + " Host " + std::string(c.req[http::field::host]);
    EXPECT_EQ(res.result(), c.status) << what;
    auto [code, message] = json_refusal(res);
    EXPECT_EQ(code, c.code) << what << ": " << res.body();
    EXPECT_FALSE(message.empty()) << what;
    EXPECT_EQ(res.body().find(kKey), std::string::npos) << what;
    if (c.status == http::status::unauthorized) {
      EXPECT_EQ(res[http::field::www_authenticate], R"(Bearer realm="wharf")") << what;
    }
    if (c.status == http::status::method_not_allowed) {
      EXPECT_FALSE(res[http::field::allow].empty()) << what;
    }
  }
  // The page and the static files keep their own answers.
  EXPECT_EQ(respond(get("/")).result(), http::status::forbidden);
  EXPECT_NE(respond(get("/"))[http::field::content_type].find("text/html"), std::string::npos);
  EXPECT_EQ(json_refusal(respond(get("/static/missing.js"))).first, "not JSON");
}

TEST_F(RouterTest, BearerIsAcceptedLikeTheKeyHeader) {
  const std::string key(kKey);
  for (std::string value : {"Bearer " + key, "bearer " + key, "BEARER  " + key + " "}) {
    Request req = get("/api/status");
    req.set(http::field::authorization, value);
    EXPECT_EQ(respond(req).result(), http::status::ok) << value;
  }
  // Another scheme is no wharf credential: the key header still decides.
  Request basic = get("/api/status");
  basic.set(http::field::authorization, "Basic dXNlcjpwYXNz");
  basic.set(kKeyHeader, kKey);
  EXPECT_EQ(respond(basic).result(), http::status::ok);
  // Every credential sent must hold the key; a wrong Bearer is not saved by a good header
  // or query.
  Request mixed = get("/api/status?k=" + key);
  mixed.set(http::field::authorization, "Bearer 00017f80abcdefff1020304050607091");
  mixed.set(kKeyHeader, kKey);
  EXPECT_EQ(respond(mixed).result(), http::status::unauthorized);
  Request two = get("/api/status");
  two.insert(http::field::authorization, "Bearer " + key);
  two.insert(http::field::authorization, "Bearer " + key);
  EXPECT_EQ(respond(two).result(), http::status::unauthorized);
  // holds_key, which sizes body limits, reads every form too.
  Request by_query = get("/api/upload?k=" + key);
  EXPECT_TRUE(holds_key(by_query, context_));
  Request by_bearer = get("/api/upload");
  by_bearer.set(http::field::authorization, "Bearer " + key);
  EXPECT_TRUE(holds_key(by_bearer, context_));
  EXPECT_FALSE(holds_key(get("/api/upload?k=nope"), context_));
}

TEST_F(RouterTest, HealthNeedsNoKeyAndTellsOnlyTheVersion) {
  auto res = respond(get("/api/v1/health"));
  EXPECT_EQ(res.result(), http::status::ok);
  boost::json::object body = boost::json::parse(res.body()).as_object();
  EXPECT_EQ(body.size(), 2u) << res.body();
  EXPECT_EQ(body.at("ok"), true);
  EXPECT_TRUE(body.at("version").is_string());
  // Still behind the Host rule.
  EXPECT_EQ(respond(get("/api/v1/health", "evil.example:7373")).result(), http::status::forbidden);
  Request post = get("/api/v1/health");
  post.method(http::verb::post);
  EXPECT_EQ(respond(post).result(), http::status::method_not_allowed);
}

}  // namespace
}  // namespace wharf::server
