#include "mcp/server.hpp"

#include <gtest/gtest.h>

namespace wharf::mcp {
namespace {

namespace json = boost::json;

TEST(McpServer, ToolNamesFollowMcpsRule) {
  EXPECT_TRUE(is_tool_name("run_command"));
  EXPECT_TRUE(is_tool_name("a.b-c_D9"));
  EXPECT_TRUE(is_tool_name(std::string(128, 'x')));
  EXPECT_FALSE(is_tool_name(std::string(129, 'x')));
  EXPECT_FALSE(is_tool_name(""));
  EXPECT_FALSE(is_tool_name("run command"));
  EXPECT_FALSE(is_tool_name("run/command"));
  EXPECT_FALSE(is_tool_name("caf\xC3\xA9"));
}

TEST(McpServer, RefusesABadToolList) {
  auto bad_name = Server::create({ToolSpec{.name = "no spaces"}}, {});
  ASSERT_FALSE(bad_name);
  EXPECT_NE(bad_name.error().message.find("no spaces"), std::string::npos);

  auto twice = Server::create({ToolSpec{.name = "a"}, ToolSpec{.name = "a"}}, {});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("twice"), std::string::npos);

  auto array_schema =
      Server::create({ToolSpec{.name = "a", .input_schema = {{"type", "array"}}}}, {});
  ASSERT_FALSE(array_schema);
  EXPECT_NE(array_schema.error().message.find("input schema"), std::string::npos);

  auto output = Server::create(
      {ToolSpec{.name = "a", .output_schema = json::object{{"type", "string"}}}}, {});
  EXPECT_FALSE(output);
}

TEST(McpServer, AnEmptyInputSchemaMeansNoArguments) {
  auto server = Server::create({ToolSpec{.name = "list_sessions"}}, {});
  ASSERT_TRUE(server);
  EXPECT_EQ(server.value()->tools()[0].input_schema,
            (json::object{{"type", "object"}, {"additionalProperties", false}}));
  EXPECT_NE(server.value()->find("list_sessions"), nullptr);
  EXPECT_EQ(server.value()->find("nope"), nullptr);
}

TEST(McpServer, ListsEveryToolWithItsAnnotations) {
  auto server =
      Server::create({ToolSpec{.name = "read_screen",
                               .title = "Read screen",
                               .description = "The screen as text",
                               .input_schema = {{"type", "object"}, {"properties", json::object{}}},
                               .output_schema = json::object{{"type", "object"}},
                               .read_only = true,
                               .idempotent = true},
                      ToolSpec{.name = "end_session", .destructive = true}},
                     {});
  ASSERT_TRUE(server);
  json::object list = server.value()->tools_list("2025-11-25");
  EXPECT_FALSE(list.contains("nextCursor"));
  const json::array& tools = list.at("tools").as_array();
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0], json::parse(R"({"name":"read_screen","title":"Read screen",
      "description":"The screen as text",
      "inputSchema":{"type":"object","properties":{}},"outputSchema":{"type":"object"},
      "annotations":{"title":"Read screen","readOnlyHint":true,"destructiveHint":false,
                     "idempotentHint":true,"openWorldHint":false}})"));
  EXPECT_EQ(tools[1], json::parse(R"({"name":"end_session",
      "inputSchema":{"type":"object","additionalProperties":false},
      "annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,
                     "openWorldHint":false}})"));

  // Structured results, and with them output schemas, came in 2025-06-18.
  EXPECT_TRUE(server.value()
                  ->tools_list("2025-06-18")
                  .at("tools")
                  .at(0)
                  .as_object()
                  .contains("outputSchema"));
  EXPECT_FALSE(server.value()
                   ->tools_list("2025-03-26")
                   .at("tools")
                   .at(0)
                   .as_object()
                   .contains("outputSchema"));
}

}  // namespace
}  // namespace wharf::mcp
