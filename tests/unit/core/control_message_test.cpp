#include "core/control_message.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <csignal>

#include "core/version.hpp"

namespace wharf::core {
namespace {

ProtocolError expect_error(std::string_view text) {
  auto parsed = parse_client_message(text);
  auto* error = std::get_if<ProtocolError>(&parsed);
  EXPECT_NE(error, nullptr) << text;
  return error ? *error : ProtocolError{};
}

TEST(ControlMessage, ParsesResizeAndClampsIt) {
  auto parsed = parse_client_message(R"({"type":"resize","cols":120,"rows":40})");
  ASSERT_TRUE(std::holds_alternative<ResizeRequest>(parsed));
  EXPECT_EQ(std::get<ResizeRequest>(parsed).size, (TerminalSize{120, 40}));

  parsed = parse_client_message(R"({"type":"resize","cols":100000,"rows":0})");
  ASSERT_TRUE(std::holds_alternative<ResizeRequest>(parsed));
  EXPECT_EQ(std::get<ResizeRequest>(parsed).size, (TerminalSize{500, 1}));

  parsed = parse_client_message(R"({"type":"resize","cols":18446744073709551615,"rows":-9})");
  ASSERT_TRUE(std::holds_alternative<ResizeRequest>(parsed));
  EXPECT_EQ(std::get<ResizeRequest>(parsed).size, (TerminalSize{500, 1}));
}

TEST(ControlMessage, ParsesPingAndEnd) {
  EXPECT_TRUE(std::holds_alternative<PingRequest>(parse_client_message(R"({"type":"ping"})")));
  EXPECT_TRUE(std::holds_alternative<EndRequest>(parse_client_message(R"({"type":"end"})")));
}

TEST(ControlMessage, RefusesWhatIsNotAMessageWithStableCodes) {
  EXPECT_EQ(expect_error("{not json").code, "bad_json");
  EXPECT_EQ(expect_error("").code, "bad_json");
  EXPECT_EQ(expect_error("[1,2]").code, "bad_message");
  EXPECT_EQ(expect_error("42").code, "bad_message");
  EXPECT_EQ(expect_error(R"({"cols":1})").code, "bad_message");
  EXPECT_EQ(expect_error(R"({"type":7})").code, "bad_message");
  EXPECT_EQ(expect_error(R"({"type":"launch-missiles"})").code, "unknown_type");
  EXPECT_EQ(expect_error(R"({"type":"resize","cols":"80","rows":24})").code, "bad_field");
  EXPECT_EQ(expect_error(R"({"type":"resize","cols":80.5,"rows":24})").code, "bad_field");
  EXPECT_EQ(expect_error(R"({"type":"resize","cols":80})").code, "bad_field");
  EXPECT_EQ(expect_error(R"({"type":"resize","cols":null,"rows":24})").code, "bad_field");
}

TEST(ControlMessage, BoundsWhatItEchoesAndHowDeepItParses) {
  std::string long_type(10000, 'x');
  auto error = expect_error(R"({"type":")" + long_type + R"("})");
  EXPECT_EQ(error.code, "unknown_type");
  EXPECT_LT(error.message.size(), 200u);

  std::string deep =
      R"({"type":"ping","x":)" + std::string(1000, '[') + std::string(1000, ']') + "}";
  EXPECT_EQ(expect_error(deep).code, "bad_json");
}

TEST(ControlMessage, ServerMessagesAreWellFormedJson) {
  auto hello = boost::json::parse(hello_message()).as_object();
  EXPECT_EQ(hello.at("type").as_string(), "hello");
  EXPECT_EQ(hello.at("protocol").as_int64(), kProtocolVersion);

  auto ready = boost::json::parse(ready_message(3, 1234, {100, 30})).as_object();
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(ready.at("session")), 3u);
  EXPECT_EQ(ready.at("pid").as_int64(), 1234);
  EXPECT_EQ(ready.at("cols").as_int64(), 100);

  auto exited = boost::json::parse(exit_message(3, {.code = 2, .signal = {}})).as_object();
  EXPECT_EQ(exited.at("code").as_int64(), 2);
  EXPECT_TRUE(exited.at("signal").is_null());
  auto killed = boost::json::parse(exit_message(3, {.code = {}, .signal = SIGKILL})).as_object();
  EXPECT_TRUE(killed.at("code").is_null());
  EXPECT_EQ(killed.at("signal").as_string(), "SIGKILL");

  auto error = boost::json::parse(error_message("bad_json", "quote \" and \n newline")).as_object();
  EXPECT_EQ(error.at("message").as_string(), "quote \" and \n newline");
}

}  // namespace
}  // namespace wharf::core
