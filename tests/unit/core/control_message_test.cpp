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

template <class T>
T expect(std::string_view text) {
  auto parsed = parse_client_message(text);
  EXPECT_TRUE(std::holds_alternative<T>(parsed)) << text;
  return std::holds_alternative<T>(parsed) ? std::get<T>(parsed) : T{};
}

TEST(ControlMessage, ParsesEveryRequestType) {
  expect<PingRequest>(R"({"type":"ping"})");
  expect<TakeRequest>(R"({"type":"take"})");
  expect<DetachRequest>(R"({"type":"detach"})");
  EXPECT_FALSE(expect<EndRequest>(R"({"type":"end"})").session);
  EXPECT_EQ(expect<EndRequest>(R"({"type":"end","session":4})").session, 4u);
  auto attach = expect<AttachRequest>(R"({"type":"attach","session":7,"start":true})");
  EXPECT_EQ(attach.session, 7u);
  EXPECT_TRUE(attach.start);
  auto bare = expect<AttachRequest>(R"({"type":"attach","session":null})");
  EXPECT_FALSE(bare.session);
  EXPECT_FALSE(bare.start);
  EXPECT_EQ(bare.window_token, "");
  auto tokened = expect<AttachRequest>(
      R"({"type":"attach","window_token":"0123456789abcdef0123456789abcdef"})");
  EXPECT_EQ(tokened.window_token, "0123456789abcdef0123456789abcdef");
  auto made = expect<NewRequest>(R"({"type":"new","shell":"zsh","cwd":"apps","name":"api"})");
  EXPECT_EQ(made.launch.kind, "shell");
  EXPECT_EQ(made.launch.entry, "zsh");
  EXPECT_EQ(made.launch.cwd, "apps");
  EXPECT_EQ(made.launch.name, "api");
  auto renamed = expect<RenameRequest>(R"({"type":"rename","session":2,"name":""})");
  EXPECT_EQ(renamed.session, 2u);
  EXPECT_EQ(renamed.name, "");
  EXPECT_EQ(expect<ReorderRequest>(R"({"type":"reorder","order":[3,1,2]})").order,
            (std::vector<SessionId>{3, 1, 2}));
  EXPECT_EQ(expect<AckRequest>(R"({"type":"ack","bytes":123456})").bytes, 123456u);
}

TEST(ControlMessage, RefusesBadFieldsOfEveryType) {
  for (const char* text :
       {R"({"type":"attach","session":0})", R"({"type":"attach","session":"1"})",
        R"({"type":"attach","start":"yes"})",
        R"({"type":"attach","window_token":"0123456789abcdef"})",
        R"({"type":"attach","window_token":"0123456789ABCDEF0123456789ABCDEF"})",
        R"({"type":"attach","window_token":7})", R"({"type":"end","session":-2})",
        R"({"type":"rename","name":"x"})", R"({"type":"rename","session":1,"name":5})",
        R"({"type":"reorder"})", R"({"type":"reorder","order":[1,"2"]})",
        R"({"type":"reorder","order":{"a":1}})", R"({"type":"ack"})",
        R"({"type":"ack","bytes":-1})", R"({"type":"ack","bytes":1.5})",
        R"({"type":"new","shell":["bash"]})"}) {
    auto parsed = parse_client_message(text);
    auto* error = std::get_if<ProtocolError>(&parsed);
    ASSERT_NE(error, nullptr) << text;
    EXPECT_EQ(error->code, "bad_field") << text;
  }
  std::string long_name = R"({"type":"new","name":")" + std::string(5000, 'x') + R"("})";
  EXPECT_EQ(expect_error(long_name).code, "bad_field");
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
  auto hello = boost::json::parse(hello_message(9)).as_object();
  EXPECT_EQ(hello.at("type").as_string(), "hello");
  EXPECT_EQ(hello.at("protocol").as_int64(), kProtocolVersion);
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(hello.at("window")), 9u);

  auto attached = boost::json::parse(attached_message(3, true, 1234, {100, 30})).as_object();
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(attached.at("session")), 3u);
  EXPECT_EQ(attached.at("pid").as_int64(), 1234);
  EXPECT_EQ(attached.at("cols").as_int64(), 100);
  EXPECT_TRUE(attached.at("driver").as_bool());

  auto exited = boost::json::parse(exit_message(3, {.code = 2, .signal = {}}, 4)).as_object();
  EXPECT_EQ(exited.at("code").as_int64(), 2);
  EXPECT_TRUE(exited.at("signal").is_null());
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(exited.at("next")), 4u);
  auto killed = boost::json::parse(exit_message(3, {.code = {}, .signal = SIGKILL}, std::nullopt))
                    .as_object();
  EXPECT_TRUE(killed.at("code").is_null());
  EXPECT_EQ(killed.at("signal").as_string(), "SIGKILL");
  EXPECT_TRUE(killed.at("next").is_null());

  auto list = boost::json::parse(sessions_message({SessionSummary{.id = 2,
                                                                  .name = "bash \"2\"",
                                                                  .program = "bash",
                                                                  .cwd = "/w",
                                                                  .created_ms = 5,
                                                                  .driver = 7,
                                                                  .windows = 2}}))
                  .as_object();
  const auto& row = list.at("sessions").as_array().at(0).as_object();
  EXPECT_EQ(row.at("name").as_string(), "bash \"2\"");
  EXPECT_EQ(row.at("status").as_string(), "running");
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(row.at("driver")), 7u);

  auto error = boost::json::parse(error_message("bad_json", "quote \" and \n newline")).as_object();
  EXPECT_EQ(error.at("message").as_string(), "quote \" and \n newline");
}

TEST(ControlMessage, EndedSessionsAreListedAskedForAndDismissed) {
  auto asked = parse_client_message(R"({"type":"ended_screen","session":7})");
  ASSERT_TRUE(std::holds_alternative<EndedScreenRequest>(asked));
  EXPECT_EQ(std::get<EndedScreenRequest>(asked).session, 7u);
  auto closed = parse_client_message(R"({"type":"dismiss","session":7})");
  ASSERT_TRUE(std::holds_alternative<DismissRequest>(closed));
  EXPECT_EQ(std::get<DismissRequest>(closed).session, 7u);
  // The session is required and must be an id.
  EXPECT_EQ(expect_error(R"({"type":"dismiss"})").code, "bad_field");
  EXPECT_EQ(expect_error(R"({"type":"ended_screen","session":"7"})").code, "bad_field");
  EXPECT_EQ(expect_error(R"({"type":"dismiss","session":0})").code, "bad_field");

  EndedSummary ended{.id = 7,
                     .name = "claude",
                     .program = "claude",
                     .kind = "agent",
                     .cwd = "/w",
                     .created_ms = 1000,
                     .ended_ms = 3000,
                     .status = {.code = 1, .signal = {}}};
  auto list = boost::json::parse(sessions_message({}, {ended})).as_object();
  const auto& row = list.at("ended").as_array().at(0).as_object();
  EXPECT_EQ(boost::json::value_to<std::uint64_t>(row.at("id")), 7u);
  EXPECT_EQ(row.at("code").as_int64(), 1);
  EXPECT_TRUE(row.at("signal").is_null());
  EXPECT_EQ(row.at("ended").as_int64(), 3000);
  EXPECT_FALSE(row.at("crashed").as_bool());
  // A list without ended sessions still says so (an empty array, never missing).
  EXPECT_TRUE(boost::json::parse(sessions_message({})).as_object().at("ended").as_array().empty());

  auto screen = boost::json::parse(ended_screen_message(ended, "not logged in\n")).as_object();
  EXPECT_EQ(screen.at("type").as_string(), "ended_screen");
  EXPECT_EQ(screen.at("screen").as_string(), "not logged in\n");
  EXPECT_EQ(screen.at("ended").as_object().at("program").as_string(), "claude");

  auto kept = boost::json::parse(exit_message(7, {.code = 1, .signal = {}}, 2, true)).as_object();
  EXPECT_TRUE(kept.at("kept").as_bool());
  auto moved = boost::json::parse(exit_message(7, {.code = 0, .signal = {}}, 2)).as_object();
  EXPECT_FALSE(moved.at("kept").as_bool());
}

TEST(ControlMessage, LookingIsABoolean) {
  for (bool on : {true, false}) {
    auto parsed = parse_client_message(std::string(R"({"type":"looking","looking":)") +
                                       (on ? "true" : "false") + "}");
    ASSERT_TRUE(std::holds_alternative<LookingRequest>(parsed));
    EXPECT_EQ(std::get<LookingRequest>(parsed).looking, on);
  }
  for (const char* bad : {R"({"type":"looking"})", R"({"type":"looking","looking":1})",
                          R"({"type":"looking","looking":"true"})"}) {
    ProtocolError error = expect_error(bad);
    EXPECT_EQ(error.code, "bad_field") << bad;
    EXPECT_NE(error.message.find("looking"), std::string::npos) << bad;
  }
}

TEST(ControlMessage, DecideCarriesIdApprovalAndANote) {
  auto parsed =
      parse_client_message(R"({"type":"decide","id":7,"approve":false,"note":"not main"})");
  ASSERT_TRUE(std::holds_alternative<DecideRequest>(parsed));
  const auto& decide = std::get<DecideRequest>(parsed);
  EXPECT_EQ(decide.id, 7u);
  EXPECT_FALSE(decide.approve);
  EXPECT_EQ(decide.note, "not main");
  auto bare = parse_client_message(R"({"type":"decide","id":1,"approve":true})");
  ASSERT_TRUE(std::holds_alternative<DecideRequest>(bare));
  EXPECT_TRUE(std::get<DecideRequest>(bare).approve);
  EXPECT_EQ(std::get<DecideRequest>(bare).note, "");
  auto null_note = parse_client_message(R"({"type":"decide","id":1,"approve":true,"note":null})");
  EXPECT_TRUE(std::holds_alternative<DecideRequest>(null_note));
  std::string longest = R"({"type":"decide","id":1,"approve":true,"note":")" +
                        std::string(kMaxDecideNoteBytes, 'x') + R"("})";
  EXPECT_TRUE(std::holds_alternative<DecideRequest>(parse_client_message(longest)));
}

TEST(ControlMessage, DecideRefusesWhatIsNotAnAnswer) {
  struct Case {
    std::string text, field;
  };
  std::string too_long = R"({"type":"decide","id":1,"approve":true,"note":")" +
                         std::string(kMaxDecideNoteBytes + 1, 'x') + R"("})";
  for (const Case& c : std::vector<Case>{
           {R"({"type":"decide","approve":true})", "id"},
           {R"({"type":"decide","id":0,"approve":true})", "id"},
           {R"({"type":"decide","id":-3,"approve":true})", "id"},
           {R"({"type":"decide","id":"7","approve":true})", "id"},
           {R"({"type":"decide","id":1.5,"approve":true})", "id"},
           {R"({"type":"decide","id":7})", "approve"},
           {R"({"type":"decide","id":7,"approve":"yes"})", "approve"},
           {R"({"type":"decide","id":7,"approve":1})", "approve"},
           {R"({"type":"decide","id":7,"approve":true,"note":5})", "note"},
           {R"({"type":"decide","id":7,"approve":true,"note":["a"]})", "note"},
           {too_long, "note"},
       }) {
    ProtocolError error = expect_error(c.text);
    EXPECT_EQ(error.code, "bad_field") << c.text;
    EXPECT_NE(error.message.find("'" + c.field + "'"), std::string::npos)
        << c.text << " -> " << error.message;
  }
}

}  // namespace
}  // namespace wharf::core
