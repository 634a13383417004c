// /api/v1 routing, from values: every route to its operation and arguments, the session
// taken from the path and never the body, and every refusal with its status.
#include "server/api_routes.hpp"

#include <gtest/gtest.h>

#include <set>

#include "ops/operation.hpp"
#include "server/openapi.hpp"

namespace wharf::server {
namespace {

using Query = std::vector<std::pair<std::string, std::string>>;

OperationCall call(http::verb method, std::string_view path, std::string_view body = "",
                   Query query = {}) {
  ApiRoute route = route_api_v1(method, path, query, body, true);
  if (auto* refused = std::get_if<ApiRefusal>(&route)) {
    ADD_FAILURE() << path << " refused: " << refused->message;
    return {};
  }
  return std::get<OperationCall>(route);
}

ApiRefusal refused(http::verb method, std::string_view path, std::string_view body = "",
                   bool json = true, Query query = {}) {
  ApiRoute route = route_api_v1(method, path, query, body, json);
  if (auto* r = std::get_if<ApiRefusal>(&route)) return *r;
  ADD_FAILURE() << path << " was routed to " << std::get<OperationCall>(route).name;
  return {};
}

TEST(ApiRoutes, EveryRouteNamesItsOperation) {
  EXPECT_EQ(call(http::verb::get, "sessions").name, "list_sessions");
  auto started = call(http::verb::post, "sessions", R"({"shell":"bash","cwd":"src"})");
  EXPECT_EQ(started.name, "new_session");
  EXPECT_EQ(started.args.at("shell").as_string(), "bash");
  EXPECT_EQ(call(http::verb::post, "sessions").args.size(), 0u) << "no body: no arguments";
  auto ended = call(http::verb::delete_, "sessions/12");
  EXPECT_EQ(ended.name, "end_session");
  EXPECT_EQ(ended.args.at("session").as_int64(), 12);
  auto screen =
      call(http::verb::get, "sessions/3/screen", "", {{"scrollback", "40"}, {"since", "7"}});
  EXPECT_EQ(screen.name, "read_screen");
  EXPECT_EQ(screen.args.at("scrollback").as_string(), "40");
  EXPECT_EQ(screen.args.at("since").as_string(), "7");
  EXPECT_EQ(call(http::verb::post, "sessions/3/keys", R"({"keys":["C-c"]})").name, "send_keys");
  EXPECT_EQ(call(http::verb::post, "sessions/3/text", R"({"text":"hi"})").name, "send_text");
  EXPECT_EQ(call(http::verb::post, "sessions/3/wait", R"({"idle_ms":100})").name, "wait_for");
  auto run_in = call(http::verb::post, "sessions/3/run", R"({"command":"ls"})");
  EXPECT_EQ(run_in.name, "run_command");
  EXPECT_EQ(run_in.args.at("session").as_int64(), 3);
  auto run = call(http::verb::post, "run", R"({"command":"ls"})");
  EXPECT_EQ(run.name, "run_command");
  EXPECT_FALSE(run.args.contains("session")) << "the shared shell";
}

TEST(ApiRoutes, TheSessionComesFromThePathOnly) {
  auto r = refused(http::verb::post, "sessions/3/keys", R"({"session":4,"keys":["a"]})");
  EXPECT_EQ(r.status, http::status::bad_request);
  EXPECT_NE(r.message.find("path"), std::string::npos);
  // An id that is no number, or none a session could have, is a bad request (400); a
  // well-formed id of no session is the operation's no_session (404).
  for (std::string_view path :
       {"sessions/0/screen", "sessions/-1", "sessions/abc/keys", "sessions/3x/screen",
        "sessions//screen", "sessions/99999999999999999999/screen", "sessions/%31/screen"}) {
    auto bad_id = refused(http::verb::get, path);
    EXPECT_EQ(bad_id.status, http::status::bad_request) << path;
    EXPECT_EQ(bad_id.code, "bad_argument") << path;
  }
}

TEST(ApiRoutes, RefusalsSayWhy) {
  EXPECT_EQ(refused(http::verb::get, "nothing").status, http::status::not_found);
  EXPECT_EQ(refused(http::verb::get, "sessions/3/unknown").status, http::status::not_found);
  auto wrong = refused(http::verb::put, "sessions");
  EXPECT_EQ(wrong.status, http::status::method_not_allowed);
  EXPECT_EQ(wrong.allow, "GET, POST");
  EXPECT_EQ(refused(http::verb::get, "sessions/3/keys").allow, "POST");
  EXPECT_EQ(refused(http::verb::post, "sessions/3").allow, "DELETE");
  EXPECT_EQ(refused(http::verb::get, "run").status, http::status::method_not_allowed);
  EXPECT_EQ(refused(http::verb::post, "run", R"({"command":"ls"})", false).status,
            http::status::unsupported_media_type);
  EXPECT_EQ(refused(http::verb::post, "run", "[1,2]").status, http::status::bad_request);
  EXPECT_EQ(refused(http::verb::post, "run", "{broken").status, http::status::bad_request);
  EXPECT_EQ(refused(http::verb::get, "sessions/3/screen", "", true, {{"session", "4"}}).status,
            http::status::bad_request);
  // Any other parameter goes to the operation, whose schema refuses what it does not know.
  EXPECT_EQ(call(http::verb::get, "sessions/3/screen", "", {{"rm", "-rf"}}).args.at("rm"), "-rf");
}

TEST(ApiRoutes, ErrorCodesMapToStatuses) {
  EXPECT_EQ(status_for_operation_error("bad_argument"), http::status::bad_request);
  EXPECT_EQ(status_for_operation_error("bad_key"), http::status::bad_request);
  EXPECT_EQ(status_for_operation_error("no_session"), http::status::not_found);
  EXPECT_EQ(status_for_operation_error("not_permitted"), http::status::forbidden);
  EXPECT_EQ(status_for_operation_error("busy"), http::status::conflict);
  EXPECT_EQ(status_for_operation_error("no_shell_integration"), http::status::conflict);
  EXPECT_EQ(status_for_operation_error("limit_reached"), http::status::too_many_requests);
  EXPECT_EQ(status_for_operation_error("not_installed"), http::status::unprocessable_entity);
  EXPECT_EQ(status_for_operation_error("internal"), http::status::internal_server_error);
}

// The OpenAPI document and the routes come from one table: every route is documented
// with its method, every documented path and method is a route, and each documented
// operation is the one the route runs.
TEST(ApiRoutes, TheOpenApiDocumentIsTheRouteTable) {
  const boost::json::object& doc = openapi_document();
  EXPECT_EQ(doc.at("openapi"), "3.1.0");
  const boost::json::object& paths = doc.at("paths").as_object();
  std::set<std::string> routes;
  for (const ApiRouteSpec& route : api_v1_routes()) {
    std::string method(http::to_string(route.method));
    for (char& c : method) c = static_cast<char>(c - 'A' + 'a');
    routes.insert(method + " /" + std::string(route.path));
    const boost::json::value* item = paths.if_contains("/" + std::string(route.path));
    ASSERT_NE(item, nullptr) << route.path;
    ASSERT_TRUE(item->as_object().contains(method)) << method << " " << route.path;
    if (route.operation.empty()) continue;
    ASSERT_NE(ops::find_operation(route.operation), nullptr) << route.operation;
    // The route really runs that operation.
    std::string concrete(route.path);
    if (auto at = concrete.find("{session}"); at != std::string::npos) concrete.replace(at, 9, "5");
    std::string_view body = route.arguments == ApiRouteSpec::Arguments::kBody ? "{}" : "";
    EXPECT_EQ(call(route.method, concrete, body).name, route.operation) << concrete;
  }
  std::size_t documented = 0;
  for (const auto& [path, item] : paths)
    for (const auto& [method, unused] : item.as_object())
      if (method != "parameters") {
        ++documented;
        EXPECT_TRUE(routes.contains(std::string(method) + " " + std::string(path)))
            << method << " " << path;
      }
  EXPECT_EQ(documented, routes.size());
  // Each operation's answer is its output schema; the session is the path's, not the body's.
  const auto& text = paths.at("/sessions/{session}/text").at("post").as_object();
  const auto& body = text.at("requestBody").at("content").at("application/json").at("schema");
  EXPECT_FALSE(body.at("properties").as_object().contains("session"));
  EXPECT_TRUE(body.at("properties").as_object().contains("submit"));
  EXPECT_TRUE(paths.at("/sessions").at("post").at("responses").as_object().contains("201"));
  const auto& screen = paths.at("/sessions/{session}/screen").at("get").as_object();
  EXPECT_EQ(screen.at("parameters").as_array().size(), 2u);  // scrollback, since
  EXPECT_TRUE(screen.at("responses")
                  .at("200")
                  .at("content")
                  .at("application/json")
                  .at("schema")
                  .at("properties")
                  .as_object()
                  .contains("shown_rows"));
}

}  // namespace
}  // namespace wharf::server
