#include "mcp/connection.hpp"

#include <gtest/gtest.h>

namespace wharf::mcp {
namespace {

namespace json = boost::json;

std::shared_ptr<const Server> test_server(std::string instructions = {}) {
  auto server = Server::create(
      {ToolSpec{.name = "read_screen",
                .title = "Read screen",
                .description = "The screen as text",
                .input_schema = {{"type", "object"},
                                 {"properties", {{"session", {{"type", "string"}}}}}},
                .read_only = true},
       ToolSpec{.name = "end_session", .destructive = true}},
      ServerInfo{.version = "0.2.0", .instructions = std::move(instructions)});
  if (!server) std::abort();
  return server.value();
}

std::string initialize_message(std::string_view version, int id = 1) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"initialize","params":{"protocolVersion":")" + std::string(version) +
         R"(","capabilities":{},"clientInfo":{"name":"ci","version":"0.1"}}})";
}

class McpConnection : public ::testing::Test {
 protected:
  // The reply to `message`, checked to be one line of JSON-RPC.
  json::object reply(std::string_view message) {
    Step step = connection_.handle(message);
    EXPECT_TRUE(step.reply) << message;
    EXPECT_FALSE(step.call) << message;
    return step.reply ? parse_line(*step.reply) : json::object{};
  }

  static json::object parse_line(const std::string& line) {
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    boost::system::error_code ec;
    json::value v = json::parse(line, ec);  // refuses invalid UTF-8 too
    EXPECT_FALSE(ec) << line;
    EXPECT_TRUE(v.is_object()) << line;
    if (ec || !v.is_object()) return {};
    EXPECT_EQ(v.at("jsonrpc"), "2.0") << line;
    return v.get_object();
  }

  void expect_error(std::string_view message, int code, const json::value& id) {
    json::object r = reply(message);
    ASSERT_TRUE(r.contains("error")) << message << " -> " << json::serialize(r);
    EXPECT_EQ(r.at("error").at("code"), code) << message;
    EXPECT_TRUE(r.at("error").at("message").is_string());
    EXPECT_EQ(r.at("id"), id) << message;
    EXPECT_FALSE(r.contains("result"));
  }

  void expect_silence(std::string_view message, MessageKind kind) {
    Step step = connection_.handle(message);
    EXPECT_FALSE(step.reply) << message << " -> " << step.reply.value_or("");
    EXPECT_FALSE(step.call) << message;
    EXPECT_EQ(step.kind, kind) << message;
  }

  void initialize(std::string_view version = "2025-11-25") {
    json::object r = reply(initialize_message(version));
    ASSERT_TRUE(r.contains("result")) << json::serialize(r);
    connection_.handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  }

  // Runs a tools/call through handle() and finish().
  json::object call(const ToolResult& result) {
    Step step = connection_.handle(
        R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read_screen"}})");
    EXPECT_TRUE(step.call);
    if (!step.call) return {};
    json::object r = parse_line(connection_.finish(*step.call, result));
    EXPECT_EQ(r.at("id"), 9);
    return r.contains("result") ? r.at("result").as_object() : json::object{};
  }

  Connection connection_{test_server()};
};

// --- JSON-RPC framing ---

TEST_F(McpConnection, AParseErrorHasANullId) {
  for (std::string_view bad : {"{", "not json", R"({"jsonrpc":"2.0",})", "\"\xFF\"",
                               R"({"jsonrpc":"2.0","id":1,"method":"ping"} x)"}) {
    expect_error(bad, kParseError, nullptr);
    EXPECT_EQ(connection_.handle(bad).kind, MessageKind::kInvalid);
  }
}

TEST_F(McpConnection, NestingPastTheDepthLimitIsAParseError) {
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":)" +
                     std::string(70, '[') + std::string(70, ']') + "}}";
  expect_error(deep, kParseError, nullptr);
}

TEST_F(McpConnection, BatchesAreRefusedAsOneError) {
  for (std::string_view batch : {"[]", R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"}) {
    expect_error(batch, kInvalidRequest, nullptr);
    EXPECT_NE(reply(batch).at("error").at("message").as_string().find("batch"), json::string::npos);
  }
}

TEST_F(McpConnection, AMessageMustBeAnObject) {
  for (std::string_view bad : {"1", "\"ping\"", "null", "true"})
    expect_error(bad, kInvalidRequest, nullptr);
}

TEST_F(McpConnection, JsonrpcMustBeTwoPointZero) {
  expect_error(R"({"id":1,"method":"ping"})", kInvalidRequest, 1);
  expect_error(R"({"jsonrpc":"1.0","id":"a","method":"ping"})", kInvalidRequest, "a");
  expect_error(R"({"jsonrpc":2.0,"id":1,"method":"ping"})", kInvalidRequest, 1);
  expect_error(R"({"jsonrpc":"2.0 ","method":"ping"})", kInvalidRequest, nullptr);
}

TEST_F(McpConnection, AnIdIsAStringOrAnInteger) {
  for (std::string_view id : {"null", "1.5", "1e3", "true", "{}", "[1]"}) {
    expect_error(R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"ping"})",
                 kInvalidRequest, nullptr);
  }
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":"x-1","method":"ping"})").at("id"), "x-1");
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":-4,"method":"ping"})").at("id"), -4);
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})").at("id"),
            18446744073709551615ull);
}

TEST_F(McpConnection, AMethodIsAString) {
  expect_error(R"({"jsonrpc":"2.0","id":1})", kInvalidRequest, 1);
  expect_error(R"({"jsonrpc":"2.0","id":1,"method":5})", kInvalidRequest, 1);
  expect_error(R"({"jsonrpc":"2.0","method":null})", kInvalidRequest, nullptr);
}

TEST_F(McpConnection, AnUnknownMethodIsNotFound) {
  json::object r = reply(R"({"jsonrpc":"2.0","id":3,"method":"resources/list"})");
  EXPECT_EQ(r.at("error").at("code"), kMethodNotFound);
  EXPECT_EQ(r.at("error").at("message"), "Method not found: resources/list");
  EXPECT_EQ(r.at("id"), 3);
  initialize();
  expect_error(R"({"jsonrpc":"2.0","id":4,"method":"prompts/list"})", kMethodNotFound, 4);
  // A long name is cut in the reply.
  r = reply(R"({"jsonrpc":"2.0","id":5,"method":")" + std::string(10000, 'm') + "\"}");
  EXPECT_LT(r.at("error").at("message").as_string().size(), 200u);
}

TEST_F(McpConnection, NotificationsAreNeverAnswered) {
  for (std::string_view n :
       {R"({"jsonrpc":"2.0","method":"notifications/whatever","params":{"x":1}})",
        R"({"jsonrpc":"2.0","method":"nonsense"})", R"({"jsonrpc":"2.0","method":"ping"})",
        R"({"jsonrpc":"2.0","method":"notifications/initialized","params":7})",
        R"({"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25"}})",
        R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"read_screen"}})"})
    expect_silence(n, MessageKind::kNotification);
  EXPECT_FALSE(connection_.initialized());
}

TEST_F(McpConnection, AClientsResponsesAreDropped) {
  for (std::string_view r : {R"({"jsonrpc":"2.0","id":1,"result":{}})",
                             R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})",
                             R"({"id":null,"error":"anything"})", R"({"result":1})"})
    expect_silence(r, MessageKind::kResponse);
}

TEST_F(McpConnection, ALargeMessageIsRefusedWithoutBeingParsed) {
  // Past the limit, even nonsense gets "invalid request", not a parse error.
  expect_error(std::string(kMaxMessageBytes + 1, '['), kInvalidRequest, nullptr);
  std::string ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  std::string padded = ping + std::string(kMaxMessageBytes - ping.size(), ' ');
  EXPECT_EQ(reply(padded).at("result"), json::object{});
}

TEST_F(McpConnection, BlankMessagesAreNothing) {
  expect_silence("", MessageKind::kInvalid);
  expect_silence(" \r\n\t", MessageKind::kInvalid);
  // A CRLF line's '\r' is whitespace after the JSON.
  EXPECT_EQ(reply("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r").at("id"), 1);
}

TEST_F(McpConnection, RepliesAreOneLineOfValidJsonForOddInput) {
  initialize();
  for (std::string_view odd :
       {"\n{\"jsonrpc\":\"2.0\",\"id\":\"a\\nb\",\"method\":\"x\\ny\"}\n",
        R"({"jsonrpc":"2.0","id":"\u0000","method":"tools/call","params":{"name":"a\u2028"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\ud83d\ude00"}})",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]})",
        R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"})"}) {
    Step step = connection_.handle(odd);
    ASSERT_TRUE(step.reply) << odd;
    parse_line(*step.reply);
  }
}

// --- Lifecycle ---

TEST_F(McpConnection, EchoesEverySupportedVersion) {
  for (std::string_view version : kSupportedVersions) {
    Connection connection(test_server());
    Step step = connection.handle(initialize_message(version));
    ASSERT_TRUE(step.reply);
    EXPECT_EQ(step.kind, MessageKind::kRequest);
    EXPECT_EQ(
        json::value_to<std::string>(parse_line(*step.reply).at("result").at("protocolVersion")),
        version);
    EXPECT_EQ(connection.protocol_version(), version);
    EXPECT_TRUE(connection.initialized());
  }
}

TEST_F(McpConnection, OffersTheNewestVersionForAnUnknownOne) {
  for (std::string_view version : {"2024-10-07", "2026-07-28", "", "latest"}) {
    Connection connection(test_server());
    Step step = connection.handle(initialize_message(version));
    ASSERT_TRUE(step.reply);
    EXPECT_EQ(parse_line(*step.reply).at("result").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(connection.protocol_version(), "2025-11-25");
  }
}

TEST_F(McpConnection, TheInitializeResultNamesWharfAndItsToolsCapability) {
  EXPECT_EQ(reply(initialize_message("2025-06-18")),
            json::parse(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18",
                "capabilities":{"tools":{"listChanged":false}},
                "serverInfo":{"name":"wharf","version":"0.2.0"}}})"));
  EXPECT_EQ(connection_.client(), "ci 0.1");

  Connection with_instructions(test_server("Use run_command."));
  Step step = with_instructions.handle(initialize_message("2025-11-25", 2));
  ASSERT_TRUE(step.reply);
  EXPECT_EQ(parse_line(*step.reply).at("result").at("instructions"), "Use run_command.");
}

TEST_F(McpConnection, InitializeNeedsAStringProtocolVersion) {
  for (std::string_view bad :
       {R"({"jsonrpc":"2.0","id":1,"method":"initialize"})",
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":null})",
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":["2025-11-25"]})",
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})",
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":20251125}})"})
    expect_error(bad, kInvalidParams, 1);
  EXPECT_FALSE(connection_.initialized());
  // capabilities and clientInfo are not needed to get going.
  json::object r = reply(
      R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-03-26"}})");
  EXPECT_EQ(r.at("result").at("protocolVersion"), "2025-03-26");
  EXPECT_EQ(connection_.client(), "");
}

TEST_F(McpConnection, InitializeIsAnsweredOnce) {
  initialize("2025-06-18");
  json::object r = reply(initialize_message("2025-11-25", 2));
  EXPECT_EQ(r.at("error").at("code"), kInvalidRequest);
  EXPECT_EQ(r.at("id"), 2);
  EXPECT_EQ(connection_.protocol_version(), "2025-06-18");
}

TEST_F(McpConnection, OnlyPingIsAnsweredBeforeInitialize) {
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":1,"method":"ping"})").at("result"), json::object{});
  for (std::string_view early :
       {R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})",
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_screen"}})"}) {
    json::object r = reply(early);
    EXPECT_EQ(r.at("error").at("code"), kInvalidRequest);
    EXPECT_NE(r.at("error").at("message").as_string().find("send initialize first"),
              json::string::npos);
  }
  initialize();
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{}}})").at("result"),
            json::object{});
}

TEST_F(McpConnection, InitializedNotificationMarksTheConnectionReady) {
  expect_silence(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                 MessageKind::kNotification);
  EXPECT_FALSE(connection_.ready());  // before initialize it means nothing
  reply(initialize_message("2025-11-25"));
  EXPECT_TRUE(connection_.initialized());
  EXPECT_FALSE(connection_.ready());
  // Tools are served already: clients may not wait for their own notification to land.
  EXPECT_TRUE(reply(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})").contains("result"));
  expect_silence(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                 MessageKind::kNotification);
  EXPECT_TRUE(connection_.ready());
}

TEST_F(McpConnection, AdoptsAVersionWithoutAHandshake) {
  EXPECT_FALSE(connection_.adopt_version("2024-10-07"));
  EXPECT_FALSE(connection_.initialized());
  EXPECT_TRUE(connection_.adopt_version("2025-03-26"));
  EXPECT_TRUE(connection_.initialized());
  EXPECT_TRUE(connection_.ready());
  EXPECT_TRUE(connection_.adopt_version("2025-03-26"));
  EXPECT_FALSE(connection_.adopt_version("2025-11-25"));
  EXPECT_EQ(connection_.protocol_version(), "2025-03-26");
  EXPECT_TRUE(reply(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})").contains("result"));
  expect_error(initialize_message("2025-11-25"), kInvalidRequest, 1);
}

// --- Tools ---

TEST_F(McpConnection, ListsEveryTool) {
  initialize();
  json::object r = reply(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  const json::array& tools = r.at("result").at("tools").as_array();
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0].at("name"), "read_screen");
  EXPECT_EQ(tools[0].at("inputSchema").at("type"), "object");
  EXPECT_EQ(tools[0].at("annotations").at("readOnlyHint"), true);
  EXPECT_EQ(tools[1].at("name"), "end_session");
  EXPECT_EQ(tools[1].at("annotations").at("destructiveHint"), true);
  EXPECT_EQ(tools[1].at("annotations").at("openWorldHint"), false);
  EXPECT_FALSE(r.at("result").as_object().contains("nextCursor"));

  // A cursor changes nothing: there is one page.
  EXPECT_EQ(reply(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}})"), r);
  expect_error(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]})", kInvalidParams, 3);
}

TEST_F(McpConnection, ACallIsHandedToTheTransport) {
  initialize();
  Step step = connection_.handle(
      R"({"jsonrpc":"2.0","id":"c1","method":"tools/call",)"
      R"("params":{"name":"read_screen","arguments":{"session":"3"},"_meta":{"progressToken":1}}})");
  EXPECT_EQ(step.kind, MessageKind::kRequest);
  EXPECT_FALSE(step.reply);
  ASSERT_TRUE(step.call);
  EXPECT_EQ(step.call->id, "c1");
  EXPECT_EQ(step.call->name, "read_screen");
  EXPECT_EQ(step.call->arguments, (json::object{{"session", "3"}}));

  for (std::string_view no_arguments :
       {R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"end_session"}})",
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call",)"
        R"("params":{"name":"end_session","arguments":null}})"}) {
    step = connection_.handle(no_arguments);
    ASSERT_TRUE(step.call) << no_arguments;
    EXPECT_EQ(step.call->id, 2);
    EXPECT_TRUE(step.call->arguments.empty());
  }
}

TEST_F(McpConnection, AnUnknownToolIsInvalidParams) {
  initialize();
  json::object r = reply(
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}})");
  EXPECT_EQ(r, json::parse(R"({"jsonrpc":"2.0","id":4,
      "error":{"code":-32602,"message":"Unknown tool: nope"}})"));
}

TEST_F(McpConnection, ACallNeedsANameAndObjectArguments) {
  initialize();
  for (std::string_view bad :
       {R"({"jsonrpc":"2.0","id":5,"method":"tools/call"})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":7}})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":"read_screen"})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call",)"
        R"("params":{"name":"read_screen","arguments":[]}})",
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call",)"
        R"("params":{"name":"read_screen","arguments":"{}"}})"})
    expect_error(bad, kInvalidParams, 5);
}

TEST_F(McpConnection, CancellationIsSilentAndNamesTheRequest) {
  initialize();
  Step step = connection_.handle(
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"x"}})");
  EXPECT_EQ(step.kind, MessageKind::kNotification);
  EXPECT_FALSE(step.reply);
  ASSERT_TRUE(step.cancelled);
  EXPECT_EQ(*step.cancelled, 9);
  for (std::string_view odd :
       {R"({"jsonrpc":"2.0","method":"notifications/cancelled"})",
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}})"}) {
    step = connection_.handle(odd);
    EXPECT_FALSE(step.reply);
    EXPECT_FALSE(step.cancelled);
  }
}

// --- Tool results ---

TEST_F(McpConnection, AResultCarriesTextAndStructuredContent) {
  initialize("2025-06-18");
  json::object result = call(ToolResult{.structured = {{"rows", 24}}, .text = "hi\n"});
  EXPECT_EQ(result, json::parse(R"({"content":[{"type":"text","text":"hi\n"}],
      "structuredContent":{"rows":24},"isError":false})"));
}

TEST_F(McpConnection, StructuredContentIsForVersionsThatKnowIt) {
  for (std::string_view version : {"2025-03-26", "2024-11-05"}) {
    connection_ = Connection(test_server());
    initialize(version);
    json::object result = call(ToolResult{.structured = {{"rows", 24}}});
    EXPECT_FALSE(result.contains("structuredContent")) << version;
    // ...so the text block carries it.
    EXPECT_EQ(result.at("content").at(0).at("text"), R"({"rows":24})");
  }
  connection_ = Connection(test_server());
  initialize("2025-11-25");
  EXPECT_EQ(call(ToolResult{.structured = {{"rows", 24}}}).at("structuredContent"),
            (json::object{{"rows", 24}}));
}

// A failure's fields are not the tool's answer: sent as structuredContent they would break
// the outputSchema that clients check every structuredContent against.
TEST_F(McpConnection, AFailedCallCarriesNoStructuredContent) {
  initialize("2025-11-25");
  json::object result = call(ToolResult{
      .structured = {{"code", "no_session"}}, .text = "[no_session] gone", .is_error = true});
  EXPECT_FALSE(result.contains("structuredContent"));
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("content").at(0).at("text"), "[no_session] gone");
}

TEST_F(McpConnection, AFailedCallIsAResultWithIsError) {
  initialize();
  json::object result = call(ToolResult{.text = "no such session: zz", .is_error = true});
  EXPECT_EQ(result, json::parse(R"({"content":[{"type":"text","text":"no such session: zz"}],
      "isError":true})"));
}

TEST_F(McpConnection, LongTextIsCutAtACodePointWithANote) {
  initialize();
  std::string euros;
  for (int i = 0; i < 100000; ++i) euros += "\xE2\x82\xAC";  // 300,000 bytes
  json::object result = call(ToolResult{.text = euros});
  std::string text(result.at("content").at(0).at("text").as_string());
  EXPECT_LT(text.size(), kMaxToolTextBytes + 100);
  std::size_t note = text.find("\n[wharf: output cut here; ");
  ASSERT_NE(note, std::string::npos);
  EXPECT_EQ(note % 3, 0u);  // whole euros only
  EXPECT_EQ(text.substr(0, note), euros.substr(0, note));
  EXPECT_NE(text.find("of 300000 bytes shown]"), std::string::npos);
}

TEST_F(McpConnection, ResultLinesStayOneLineOfValidUtf8) {
  initialize();
  json::object result =
      call(ToolResult{.structured = {{"raw", "a\xFF"}}, .text = "line 1\nline 2\r\n\x1B[0m\xC3"});
  EXPECT_EQ(result.at("content").at(0).at("text"), "line 1\nline 2\r\n\x1B[0m\xEF\xBF\xBD");
  EXPECT_EQ(result.at("structuredContent").at("raw"), "a\xEF\xBF\xBD");
}

TEST_F(McpConnection, AResultTooLargeToSendBecomesAnError) {
  initialize();
  json::object result =
      call(ToolResult{.structured = {{"blob", std::string(kMaxReplyBytes, 'x')}}, .text = "ok"});
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_FALSE(result.contains("structuredContent"));
  EXPECT_NE(result.at("content").at(0).at("text").as_string().find("too large"),
            json::string::npos);
}

}  // namespace
}  // namespace wharf::mcp
