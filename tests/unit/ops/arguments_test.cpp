// Arguments checked against an operation's one input schema (ops/arguments.hpp): names,
// required, types, bounds, enums and lengths all come from the schema; the unknown-name
// message lists only what the schema offers. And the schema is the same one that MCP's
// tools/list and the OpenAPI document show.
#include "ops/arguments.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "server/mcp_tools.hpp"

namespace wharf::ops {
namespace {

namespace json = boost::json;

json::object object(std::string_view text) {
  return json::parse(text).as_object();
}

const json::object& schema() {
  static const json::object kSchema = object(R"({"type":"object","properties":{
    "session":{"type":"integer","minimum":1},
    "count":{"type":"integer","minimum":0,"maximum":10},
    "name":{"type":"string","maxLength":4},
    "mode":{"type":"string","enum":["a","b"]},
    "on":{"type":"boolean"},
    "keys":{"type":"array","items":{"type":"string","maxLength":3},"minItems":1,"maxItems":2}},
    "required":["session"],"additionalProperties":false})");
  return kSchema;
}

std::string refusal(std::string_view args) {
  json::object parsed = object(args);
  Arguments a(parsed, schema());
  return a ? "" : a.error().message;
}

TEST(Arguments, AcceptsWhatTheSchemaAllowsAndReadsIt) {
  json::object args = object(R"({"session":"3","count":10,"name":"abcd","mode":"b","on":true,
                                  "keys":["C-c","x"]})");
  Arguments a(args, schema());
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a.integer("session"), 3);  // digits in a string are a number
  EXPECT_EQ(a.integer("count"), 10);
  EXPECT_EQ(a.text("name"), "abcd");
  EXPECT_EQ(a.flag("on"), true);
  EXPECT_EQ(a.texts("keys"), (std::vector<std::string>{"C-c", "x"}));
  EXPECT_FALSE(a.text("mode") == "a");
}

TEST(Arguments, EveryRuleComesFromTheSchema) {
  EXPECT_EQ(refusal(R"({})"), "'session' is required");
  EXPECT_EQ(refusal(R"({"session":0})"), "'session' must be an integer of at least 1");
  EXPECT_EQ(refusal(R"({"session":1,"count":11})"), "'count' must be an integer from 0 to 10");
  EXPECT_EQ(refusal(R"({"session":1,"count":1.5})"), "'count' must be an integer from 0 to 10");
  EXPECT_EQ(refusal(R"({"session":1,"name":"abcde"})"), "'name' is longer than 4 bytes");
  EXPECT_EQ(refusal(R"({"session":1,"name":7})"), "'name' must be a string");
  EXPECT_EQ(refusal(R"({"session":1,"mode":"c"})"), "'mode' must be one of \"a\", \"b\"");
  EXPECT_EQ(refusal(R"({"session":1,"on":"yes"})"), "'on' must be true or false");
  EXPECT_EQ(refusal(R"({"session":1,"keys":[]})"), "'keys' must be a list of 1 to 2 strings");
  EXPECT_EQ(refusal(R"({"session":1,"keys":["a","b","c"]})"),
            "'keys' must be a list of 1 to 2 strings");
  EXPECT_EQ(refusal(R"({"session":1,"keys":["long"]})"),
            "every item of 'keys' must be a string of at most 3 bytes");
  EXPECT_EQ(refusal(R"({"session":1,"other":1})"),
            "unknown argument 'other' (known: session, count, name, mode, on, keys)");
}

TEST(Arguments, ReadsNothingAfterAnError) {
  json::object args = object(R"({"session":1,"count":99,"name":"ok"})");
  Arguments a(args, schema());
  EXPECT_FALSE(a);
  EXPECT_EQ(a.text("name"), std::nullopt);
}

TEST(Arguments, AnOperationsLimitsAreItsSchemas) {
  json::object args = object(R"({"session":1,"scrollback":2001})");
  Arguments a(args, "read_screen");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "'scrollback' must be an integer from 0 to 2000");
  json::object keys = object(R"({"session":1,"keys":[]})");
  EXPECT_FALSE(Arguments(keys, "send_keys"));
}

TEST(Arguments, ForbiddenFieldsAreNeverListedAsKnown) {
  json::object args = object(R"({"shell":"bash","colour":"red"})");
  Arguments a(args, "new_session");
  ASSERT_FALSE(a);
  const std::string& message = a.error().message;
  EXPECT_NE(message.find("unknown argument 'colour'"), std::string::npos) << message;
  for (std::string_view forbidden : {"command", "cmd", "argv", "args", "exec", "program"})
    EXPECT_EQ(message.find(forbidden), std::string::npos) << forbidden << " in: " << message;
}

TEST(Operations, EveryOneDescribesItsArgumentsAndItsAnswer) {
  for (const Operation& op : all_operations()) {
    EXPECT_EQ(input_schema(op).at("type"), "object") << op.name;
    EXPECT_EQ(output_schema(op).at("type"), "object") << op.name;
    EXPECT_TRUE(output_schema(op).contains("properties")) << op.name;
    EXPECT_FALSE(op.description.empty()) << op.name;
  }
}

// tools/list shows the very schemas the arguments are checked against, an output schema
// for every tool, and the hints.
TEST(Operations, McpToolsShowTheOperationsOwnSchemas) {
  auto server = server::wharf_mcp_server();
  json::object listed = server->tools_list("2025-06-18");
  const json::array& tools = listed.at("tools").as_array();
  ASSERT_EQ(tools.size(), all_operations().size());
  for (const json::value& t : tools) {
    const json::object& tool = t.as_object();
    const Operation* op = find_operation(tool.at("name").as_string());
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(tool.at("inputSchema"), json::value(input_schema(*op))) << op->name;
    EXPECT_EQ(tool.at("outputSchema"), json::value(output_schema(*op))) << op->name;
    const json::object& hints = tool.at("annotations").as_object();
    EXPECT_EQ(hints.at("readOnlyHint").as_bool(), op->read_only) << op->name;
    EXPECT_EQ(hints.at("openWorldHint").as_bool(), op->name == "run_command") << op->name;
  }
  EXPECT_NE(find_operation("list_entries"), nullptr);
}

}  // namespace
}  // namespace wharf::ops
