// The Web Push routes through the router (server/push_routes.hpp), from requests built in
// memory: the key and the Origin rule come first; without hooks push is "off" (GET says
// so, a change is 503); with hooks, a subscription reaches subscribe() as the parsed JSON
// body, a withdrawal names its endpoint in the body; wrong methods, non-JSON bodies and a
// DELETE without an endpoint are refused before any hook runs.
#include "server/push_routes.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>

#include "server/router.hpp"

namespace wharf::server {
namespace {
namespace fs = std::filesystem;
namespace json = boost::json;

constexpr std::string_view kKey = "00017f80abcdefff1020304050607090";

class PushRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("wharf-push-routes-test-" + std::to_string(getpid()));
    fs::create_directories(root_);
    std::ofstream(root_ / "index.html") << "<!doctype html><title>wharf</title>";
    auto assets = StaticAssets::load(root_);
    ASSERT_TRUE(assets) << assets.error().message;
    context_.key = std::string(kKey);
    context_.listen = {.ip = "127.0.0.1", .port = 7373};
    context_.assets = std::move(assets.value());
  }
  void TearDown() override { fs::remove_all(root_); }

  void hook_up() {
    context_.push.status = [this] {
      return json::object{
          {"enabled", true}, {"public_key", "BKEY"}, {"subscriptions", kept_.size()}};
    };
    context_.push.subscribe = [this](const json::value& sub) -> core::Status {
      if (!sub.as_object().contains("endpoint")) return core::Error{"no endpoint", "bad_argument"};
      kept_.push_back(json::serialize(sub));
      return core::ok_status();
    };
    context_.push.unsubscribe = [this](std::string_view endpoint) {
      removed_.emplace_back(endpoint);
      return true;
    };
  }

  static Request request(http::verb method, std::string target, std::string body = "",
                         bool with_key = true, std::string content_type = "application/json") {
    Request req{method, target, 11};
    req.set(http::field::host, "127.0.0.1:7373");
    if (with_key) req.set("X-Wharf-Key", kKey);
    if (!body.empty()) {
      req.set(http::field::content_type, content_type);
      req.body() = std::move(body);
      req.prepare_payload();
    }
    return req;
  }
  Response respond(const Request& req) {
    auto decision = route_request(req, context_);
    EXPECT_TRUE(std::holds_alternative<Response>(decision)) << req.target();
    return std::holds_alternative<Response>(decision) ? std::get<Response>(decision) : Response{};
  }
  static json::object body_of(const Response& res) { return json::parse(res.body()).as_object(); }

  fs::path root_;
  ServerContext context_;
  std::vector<std::string> kept_;
  std::vector<std::string> removed_;
};

TEST_F(PushRoutesTest, WithoutHooksPushIsOff) {
  auto res = respond(request(http::verb::get, "/api/push"));
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(body_of(res).at("enabled"), false);
  res = respond(request(http::verb::post, "/api/push/subscriptions", R"({"endpoint":"x"})"));
  EXPECT_EQ(res.result(), http::status::service_unavailable);
  EXPECT_EQ(body_of(res).at("error").at("code"), "unavailable");
}

TEST_F(PushRoutesTest, KeyAndOriginComeFirst) {
  hook_up();
  EXPECT_EQ(respond(request(http::verb::get, "/api/push", "", false)).result(),
            http::status::unauthorized);
  auto foreign = request(http::verb::post, "/api/push/subscriptions", R"({"endpoint":"x"})");
  foreign.set(http::field::origin, "https://evil.example");
  EXPECT_EQ(respond(foreign).result(), http::status::forbidden);
  auto own = request(http::verb::post, "/api/push/subscriptions", R"({"endpoint":"x"})");
  own.set(http::field::origin, "http://127.0.0.1:7373");
  EXPECT_EQ(respond(own).result(), http::status::ok);
  EXPECT_EQ(kept_.size(), 1u);
}

TEST_F(PushRoutesTest, SubscribeAndWithdrawReachTheHooks) {
  hook_up();
  auto res = respond(request(http::verb::post, "/api/push/subscriptions",
                             R"({"endpoint":"https://p.example/1","keys":{}})"));
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(body_of(res).at("subscriptions"), 1);
  EXPECT_EQ(body_of(res).at("public_key"), "BKEY");
  ASSERT_EQ(kept_.size(), 1u);
  EXPECT_EQ(kept_[0], R"({"endpoint":"https://p.example/1","keys":{}})");
  res = respond(request(http::verb::post, "/api/push/subscriptions", R"({"keys":{}})"));
  EXPECT_EQ(res.result(), http::status::bad_request);
  EXPECT_EQ(body_of(res).at("error").at("code"), "bad_argument");

  res = respond(request(http::verb::delete_, "/api/push/subscriptions",
                        R"({"endpoint":"https://p.example/1"})"));
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(body_of(res).at("removed"), true);
  EXPECT_EQ(removed_, std::vector<std::string>{"https://p.example/1"});
}

TEST_F(PushRoutesTest, MalformedRequestsAreRefusedBeforeTheHooks) {
  hook_up();
  auto res = respond(request(http::verb::put, "/api/push/subscriptions", R"({"endpoint":"x"})"));
  EXPECT_EQ(res.result(), http::status::method_not_allowed);
  EXPECT_EQ(res[http::field::allow], "POST, DELETE");
  res = respond(request(http::verb::post, "/api/push", R"({"endpoint":"x"})"));
  EXPECT_EQ(res.result(), http::status::method_not_allowed);
  EXPECT_EQ(respond(request(http::verb::post, "/api/push/subscriptions", "not json")).result(),
            http::status::bad_request);
  EXPECT_EQ(respond(request(http::verb::post, "/api/push/subscriptions", R"({"endpoint":"x"})",
                            true, "text/plain"))
                .result(),
            http::status::bad_request);
  EXPECT_EQ(respond(request(http::verb::post, "/api/push/subscriptions", "[1]")).result(),
            http::status::bad_request);
  EXPECT_EQ(
      respond(request(http::verb::delete_, "/api/push/subscriptions", R"({"url":"x"})")).result(),
      http::status::bad_request);
  EXPECT_EQ(respond(request(http::verb::get, "/api/push/other")).result(), http::status::not_found);
  EXPECT_TRUE(kept_.empty());
  EXPECT_TRUE(removed_.empty());
}

}  // namespace
}  // namespace wharf::server
