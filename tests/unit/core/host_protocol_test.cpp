// The daemon-host protocol's framing and messages (core/host_protocol.hpp): frames split
// anywhere arrive whole and in order, the reader refuses what it cannot frame for good,
// and every message survives its own encoding.
#include "core/host_protocol.hpp"

#include <gtest/gtest.h>

namespace wharf::core::host {
namespace {

SessionMeta sample_meta() {
  return SessionMeta{.id = 7,
                     .run_id = 3,
                     .program = "claude",
                     .kind = "agent",
                     .custom_name = "review ✓",
                     .cwd = "/work/a b",
                     .created_ms = 1764600000000,
                     .creator = "session:2",
                     .shared_shell = false,
                     .shell_integration = true,
                     .position = 4};
}

TEST(HostProtocol, FramesCutAtEveryByteArriveWholeAndInOrder) {
  std::string stream;
  append_frame(stream, FrameType::kOutput, "hello\x1b[31m");
  append_frame(stream, FrameType::kEnd, "");
  append_frame(stream, FrameType::kSnapshot, std::string(70000, 'x'));
  for (std::size_t piece : {1u, 2u, 3u, 5u, 4096u, 100000u}) {
    FrameReader reader;
    std::vector<Frame> got;
    for (std::size_t at = 0; at < stream.size(); at += piece) {
      reader.feed(std::string_view(stream).substr(at, piece));
      while (auto frame = reader.next()) got.push_back(std::move(*frame));
    }
    ASSERT_EQ(got.size(), 3u) << "pieces of " << piece;
    EXPECT_EQ(got[0].type, FrameType::kOutput);
    EXPECT_EQ(got[0].payload, "hello\x1b[31m");
    EXPECT_EQ(got[1].type, FrameType::kEnd);
    EXPECT_EQ(got[1].payload, "");
    EXPECT_EQ(got[2].payload.size(), 70000u);
    EXPECT_EQ(reader.buffered(), 0u);
    EXPECT_FALSE(reader.failed());
  }
}

TEST(HostProtocol, AnUnknownTypeFailsTheReaderForGood) {
  FrameReader reader;
  std::string good = encode_frame(FrameType::kOutput, "a");
  std::string bad = good;
  bad[0] = 99;
  reader.feed(bad + good);
  EXPECT_FALSE(reader.next());
  EXPECT_TRUE(reader.failed());
  EXPECT_NE(reader.error().find("unknown frame type 99"), std::string::npos);
  reader.feed(good);
  EXPECT_FALSE(reader.next()) << "a failed reader stays failed";
}

TEST(HostProtocol, ALengthPastTheLimitIsRefusedBeforeAnythingIsHeld) {
  FrameReader reader;
  std::string header{static_cast<char>(FrameType::kOutput), '\xff', '\xff', '\xff', '\x7f'};
  reader.feed(header);
  EXPECT_FALSE(reader.next());
  EXPECT_TRUE(reader.failed());
  EXPECT_NE(reader.error().find("past the limit"), std::string::npos);
}

TEST(HostProtocol, RestIsWhatFollowsTheFramesTaken) {
  FrameReader reader;
  std::string first = encode_frame(FrameType::kState, "{}");
  std::string second = encode_frame(FrameType::kOutput, "live");
  reader.feed(first + second.substr(0, 3));
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.rest(), second.substr(0, 3));
}

TEST(HostProtocol, SpawnRequestRoundTrips) {
  SpawnRequest request{.program = "/bin/bash",
                       .argv = {"-bash", "--init-file", "x y"},
                       .env = {"HOME=/root", "EMPTY="},
                       .cwd = "/work",
                       .size = {132, 43},
                       .ending = {.hangup_ms = 10, .terminate_ms = 20, .poll_ms = 5},
                       .meta = sample_meta()};
  auto parsed = parse_spawn(to_json(request));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value(), request);
}

TEST(HostProtocol, SpawnRequestsMissingWhatAHostNeedsAreRefused) {
  EXPECT_FALSE(parse_spawn("not json"));
  EXPECT_FALSE(parse_spawn("[]"));
  auto no_program = parse_spawn(R"({"argv":["a"],"size":{"cols":80,"rows":24},
      "ending":{"hangup_ms":1,"terminate_ms":1,"poll_ms":1},"meta":{"id":1}})");
  ASSERT_FALSE(no_program);
  EXPECT_NE(no_program.error().message.find("program"), std::string::npos);
  auto bad_argv = parse_spawn(R"({"program":"/bin/sh","argv":[1],"size":{"cols":80,"rows":24},
      "ending":{"hangup_ms":1,"terminate_ms":1,"poll_ms":1},"meta":{"id":1}})");
  ASSERT_FALSE(bad_argv);
  EXPECT_NE(bad_argv.error().message.find("argv"), std::string::npos);
  auto no_id = parse_spawn(R"({"program":"/bin/sh","argv":["sh"],"size":{"cols":80,"rows":24},
      "ending":{"hangup_ms":1,"terminate_ms":1,"poll_ms":1},"meta":{}})");
  ASSERT_FALSE(no_id);
  EXPECT_NE(no_id.error().message.find("id"), std::string::npos);
}

TEST(HostProtocol, StateRoundTripsWithAndWithoutAnExit) {
  HostState state{.version = "0.2.0",
                  .pid = 41,
                  .host_pid = 40,
                  .size = {80, 24},
                  .bytes_out = 1ull << 40,
                  .bytes_in = 12,
                  .ending = true,
                  .output_age_ms = 5,
                  .input_age_ms = 6,
                  .finished = std::nullopt,
                  .meta = sample_meta()};
  auto parsed = parse_state(to_json(state));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().pid, 41);
  EXPECT_EQ(parsed.value().bytes_out, 1ull << 40);
  EXPECT_TRUE(parsed.value().ending);
  EXPECT_FALSE(parsed.value().finished);
  EXPECT_EQ(parsed.value().meta, sample_meta());

  state.finished = ExitStatus{.code = std::nullopt, .signal = 9};
  parsed = parse_state(to_json(state));
  ASSERT_TRUE(parsed);
  ASSERT_TRUE(parsed.value().finished);
  EXPECT_EQ(parsed.value().finished->signal, 9);
  EXPECT_FALSE(parsed.value().finished->code);
}

TEST(HostProtocol, AStateOfAnotherVersionSaysItsVersionAndNothingElseIsRead) {
  auto parsed = parse_state(R"({"protocol":2,"version":"9.0.0","pid":"not read"})");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed.value().protocol, 2);
  EXPECT_EQ(parsed.value().version, "9.0.0");
}

TEST(HostProtocol, SmallMessagesRoundTrip) {
  auto size = parse_size(to_json(TerminalSize{200, 50}));
  ASSERT_TRUE(size);
  EXPECT_EQ(size.value(), (TerminalSize{200, 50}));
  EXPECT_FALSE(parse_size(R"({"cols":0,"rows":24})"));
  auto status = parse_exit(to_json(ExitStatus{.code = 7, .signal = std::nullopt}));
  ASSERT_TRUE(status);
  EXPECT_EQ(status.value().code, 7);
  EXPECT_FALSE(parse_exit(R"({"code":"7"})"));
  auto refusal = parse_refusal(to_json(Refusal{"cannot run x: No such file", "spawn_failed"}));
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal.value().code, "spawn_failed");
  auto meta = parse_meta(to_json(sample_meta()));
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta.value(), sample_meta());
}

TEST(HostProtocol, WrittenCountsAreDecimalAndNothingElse) {
  EXPECT_EQ(parse_written(written_payload(65536)), 65536u);
  EXPECT_EQ(parse_written("0"), 0u);
  EXPECT_FALSE(parse_written(""));
  EXPECT_FALSE(parse_written("-1"));
  EXPECT_FALSE(parse_written("12a"));
  EXPECT_FALSE(parse_written("99999999999999999999")) << "past 19 digits";
}

}  // namespace
}  // namespace wharf::core::host
