// The status strip's data (core/session_status.hpp and OSC 7 in core/shell_marks.hpp):
// OSC 7 read from a stream cut anywhere, percent-decoding and what is refused; the
// tracker's last command (exit status, duration from C to D on a clock moved by hand);
// the throttle; Claude Code's statusLine JSON, recorded from 2.1.197's fields.
#include "core/session_status.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>
#include <vector>

namespace wharf::core {
namespace {

using namespace std::chrono_literals;
using Clock = StatusTracker::Clock;

std::vector<ShellMark> scan(std::string_view chunk) {
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  scanner.feed(chunk, marks);
  return marks;
}

std::vector<std::string> directories(std::string_view chunk) {
  std::vector<std::string> out;
  for (const ShellMark& mark : scan(chunk))
    if (mark.kind == MarkKind::kWorkingDirectory) out.push_back(mark.directory);
  return out;
}

TEST(WorkingDirectory, ReadsOsc7WithBelAndSt) {
  EXPECT_EQ(directories("\x1b]7;file://box/home/me\x07"), std::vector<std::string>{"/home/me"});
  EXPECT_EQ(directories("x\x1b]7;file:///tmp\x1b\\y"), std::vector<std::string>{"/tmp"});
  // The 8-bit OSC and ST, as UTF-8.
  EXPECT_EQ(directories("\xc2\x9d"
                        "7;file://h/srv\xc2\x9c"),
            std::vector<std::string>{"/srv"});
  auto marks = scan("ab\x1b]7;file://h/a\x07");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].begin, 2u);
  EXPECT_EQ(marks[0].end, 17u);
}

TEST(WorkingDirectory, PercentDecodes) {
  EXPECT_EQ(parse_working_directory("7;file://h/my%20app/%C3%A9t%c3%a9"),
            "/my app/\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(parse_working_directory("7;file://h/100%25"), "/100%");
  // Invalid UTF-8 is shown as U+FFFD, not passed on (a window's text frame must be UTF-8).
  EXPECT_EQ(parse_working_directory("7;file://h/%FFx"), "/\xef\xbf\xbdx");
}

TEST(WorkingDirectory, RefusesWhatIsNoPath) {
  EXPECT_FALSE(parse_working_directory("7;http://h/x"));
  EXPECT_FALSE(parse_working_directory("7;file://host-only"));
  EXPECT_FALSE(parse_working_directory("7;/tmp"));
  EXPECT_FALSE(parse_working_directory("7;file://h/bad%2"));
  EXPECT_FALSE(parse_working_directory("7;file://h/bad%zz"));
  EXPECT_FALSE(parse_working_directory("7;file://h/bad%"));
  EXPECT_FALSE(parse_working_directory("7;file://h/a%0Ab"));     // an encoded newline
  EXPECT_FALSE(parse_working_directory("7;file://h/a%1B[31m"));  // an encoded escape
  EXPECT_FALSE(parse_working_directory("7;file://h/a%C2%9Bb"));  // an encoded C1 (CSI)
  EXPECT_FALSE(parse_working_directory("7;file://h/a\x7f"));
  EXPECT_FALSE(parse_working_directory("70;file://h/x"));
  EXPECT_TRUE(directories("\x1b]7;file://h/a\x18"
                          "b\x07")
                  .empty());  // cancelled by CAN
}

TEST(WorkingDirectory, OverlongIsIgnoredAndTheScannerGoesOn) {
  std::string path(5000, 'a');
  std::string stream = "\x1b]7;file://h/" + path + "\x07" + "\x1b]7;file://h/next\x07";
  EXPECT_EQ(directories(stream), std::vector<std::string>{"/next"});
  // Just under the parser's bound is read whole.
  std::string longest(VtParser::kMaxOscBytes - std::string("7;file://h/").size(), 'b');
  auto found = directories("\x1b]7;file://h" + std::string("/") + longest.substr(1) + "\x07");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].size(), longest.size());
}

TEST(WorkingDirectory, FoundAtEverySplit) {
  std::string stream = "$ \x1b]7;file://box/home/me/my%20src\x1b\\ \x1b]133;D;0\x07";
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    ShellMarkScanner scanner;
    std::vector<ShellMark> marks;
    scanner.feed(std::string_view(stream).substr(0, cut), marks);
    scanner.feed(std::string_view(stream).substr(cut), marks);
    ASSERT_EQ(marks.size(), 2u) << "cut at " << cut;
    EXPECT_EQ(marks[0].kind, MarkKind::kWorkingDirectory);
    EXPECT_EQ(marks[0].directory, "/home/me/my src") << "cut at " << cut;
    EXPECT_EQ(marks[1].kind, MarkKind::kCommandEnd);
  }
  // Byte by byte.
  ShellMarkScanner scanner;
  std::vector<ShellMark> marks;
  for (char c : stream) scanner.feed(std::string_view(&c, 1), marks);
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].directory, "/home/me/my src");
}

ShellMark mark(MarkKind kind, std::optional<int> code = std::nullopt, std::string dir = {}) {
  return ShellMark{kind, code, 0, 0, std::move(dir)};
}

TEST(StatusTracker, LastCommandExitAndDurationOnAManualClock) {
  StatusTracker tracker;
  Clock::time_point t0{};
  EXPECT_TRUE(tracker.status().empty());
  EXPECT_TRUE(tracker.on_mark(mark(MarkKind::kWorkingDirectory, {}, "/tmp"), t0));
  EXPECT_EQ(tracker.status().cwd, "/tmp");
  EXPECT_FALSE(tracker.on_mark(mark(MarkKind::kWorkingDirectory, {}, "/tmp"), t0));  // same
  EXPECT_FALSE(tracker.on_mark(mark(MarkKind::kPromptStart), t0));
  EXPECT_TRUE(tracker.on_mark(mark(MarkKind::kOutputStart), t0 + 1s));
  ASSERT_TRUE(tracker.status().command);
  EXPECT_TRUE(tracker.status().command->running);
  EXPECT_FALSE(tracker.status().command->exit_code);
  EXPECT_TRUE(tracker.on_mark(mark(MarkKind::kCommandEnd, 1), t0 + 3300ms));
  CommandResult done = *tracker.status().command;
  EXPECT_FALSE(done.running);
  EXPECT_EQ(done.exit_code, 1);
  EXPECT_EQ(done.duration_ms, 2300);
}

TEST(StatusTracker, AnEndWithNoStartKeepsTheLastCommand) {
  StatusTracker tracker;
  Clock::time_point t0{};
  // The first prompt's D (bash and zsh print one before any command).
  EXPECT_FALSE(tracker.on_mark(mark(MarkKind::kCommandEnd, 0), t0));
  EXPECT_TRUE(tracker.status().empty());
  tracker.on_mark(mark(MarkKind::kOutputStart), t0);
  tracker.on_mark(mark(MarkKind::kCommandEnd, 2), t0 + 5ms);
  // An empty command line: D again, no C.
  EXPECT_FALSE(tracker.on_mark(mark(MarkKind::kCommandEnd, 0), t0 + 1s));
  EXPECT_EQ(tracker.status().command->exit_code, 2);
  EXPECT_EQ(tracker.status().command->duration_ms, 5);
  // A new command shows running but keeps the last result until it ends.
  tracker.on_mark(mark(MarkKind::kOutputStart), t0 + 2s);
  EXPECT_TRUE(tracker.status().command->running);
  EXPECT_EQ(tracker.status().command->exit_code, 2);
  tracker.on_mark(mark(MarkKind::kCommandEnd), t0 + 2s);  // D with no code
  EXPECT_FALSE(tracker.status().command->exit_code);
  EXPECT_EQ(tracker.status().command->duration_ms, 0);
}

TEST(StatusTracker, AgentReportsChangeOnlyWhenDifferent) {
  StatusTracker tracker;
  AgentReport report{.agent = "claude", .model = "Opus", .context_percent = 42};
  EXPECT_TRUE(tracker.on_report(report));
  EXPECT_FALSE(tracker.on_report(report));
  report.cost_usd = 0.31;
  EXPECT_TRUE(tracker.on_report(report));
  EXPECT_FALSE(tracker.status().empty());
}

TEST(StatusThrottle, AtMostOnePerInterval) {
  StatusThrottle throttle(250ms);
  Clock::time_point t0 = Clock::time_point{} + 10s;
  EXPECT_EQ(throttle.send_at(t0), t0);  // never sent: at once
  throttle.sent(t0);
  EXPECT_EQ(throttle.send_at(t0 + 10ms), t0 + 250ms);
  EXPECT_EQ(throttle.send_at(t0 + 249ms), t0 + 250ms);
  EXPECT_EQ(throttle.send_at(t0 + 400ms), t0 + 400ms);
}

TEST(StatusJson, EmptyIsEmptyAndHomeIsAbbreviated) {
  EXPECT_TRUE(status_json(ProgramStatus{}, "/home/me").empty());
  ProgramStatus status{
      .cwd = "/home/me/src", .command = CommandResult{false, 1, 2300}, .agent = std::nullopt};
  auto json = status_json(status, "/home/me");
  EXPECT_EQ(json.at("cwd"), "/home/me/src");
  EXPECT_EQ(json.at("cwd_short"), "~/src");
  EXPECT_EQ(json.at("command").at("exit_code"), 1);
  EXPECT_EQ(json.at("command").at("duration_ms"), 2300);
  EXPECT_EQ(json.at("command").at("running"), false);
  EXPECT_EQ(abbreviate_home("/home/me", "/home/me/"), "~");
  EXPECT_EQ(abbreviate_home("/home/me2/x", "/home/me"), "/home/me2/x");
  EXPECT_EQ(abbreviate_home("/x", ""), "/x");
  EXPECT_EQ(abbreviate_home("/x", "/"), "/x");
  auto message = boost::json::parse(status_message(3, status, "")).as_object();
  EXPECT_EQ(message.at("type"), "status");
  EXPECT_EQ(message.at("session"), 3);
  EXPECT_EQ(message.at("status").at("cwd_short"), "/home/me/src");
}

// What Claude Code 2.1.197 writes on its status line's stdin (fields from its source).
constexpr std::string_view kClaudePayload = R"({
  "hook_event_name":"Status","session_id":"abc","transcript_path":"/home/me/.claude/x.jsonl",
  "cwd":"/home/me/src","model":{"id":"claude-opus-4-5","display_name":"Opus 4.5"},
  "workspace":{"current_dir":"/home/me/src","project_dir":"/home/me/src","added_dirs":[]},
  "version":"2.1.197","output_style":{"name":"default"},
  "cost":{"total_cost_usd":0.3127,"total_duration_ms":1000,"total_api_duration_ms":800,
          "total_lines_added":3,"total_lines_removed":1},
  "context_window":{"total_input_tokens":84211,"total_output_tokens":1200,
                    "context_window_size":200000,"current_usage":null,
                    "used_percentage":42.1,"remaining_percentage":57.9},
  "exceeds_200k_tokens":false,"fast_mode":false,"effort":{"level":"high"},
  "thinking":{"enabled":true},
  "rate_limits":{"five_hour":{"used_percentage":12.5,"resets_at":1767312000},
                 "seven_day":{"used_percentage":3,"resets_at":1767744000}}})";

TEST(ClaudeStatus, ReadsTheRecordedPayload) {
  auto report = parse_claude_status(boost::json::parse(kClaudePayload));
  ASSERT_TRUE(report);
  EXPECT_EQ(report->agent, "claude");
  EXPECT_EQ(report->model, "Opus 4.5");
  EXPECT_EQ(report->effort, "high");
  EXPECT_EQ(report->version, "2.1.197");
  EXPECT_DOUBLE_EQ(*report->context_percent, 42.1);
  EXPECT_EQ(report->context_tokens, 84211);
  EXPECT_EQ(report->context_window, 200000);
  EXPECT_DOUBLE_EQ(*report->cost_usd, 0.3127);
  EXPECT_DOUBLE_EQ(*report->five_hour_percent, 12.5);
  EXPECT_EQ(report->five_hour_resets_at, 1767312000);
  EXPECT_DOUBLE_EQ(*report->seven_day_percent, 3);
  EXPECT_EQ(report_line(*report), "Opus 4.5 \u00b7 context 42% \u00b7 $0.31 \u00b7 5h quota 12%");
}

TEST(ClaudeStatus, MissingWrongAndHostileFieldsAreLeftOut) {
  EXPECT_FALSE(parse_claude_status(boost::json::parse("[1]")));
  auto bare = parse_claude_status(boost::json::parse("{}"));
  ASSERT_TRUE(bare);
  EXPECT_EQ(report_line(*bare), "");
  auto odd = parse_claude_status(boost::json::parse(R"({
    "model":{"id":"m\u001b[31mx","display_name":7},
    "cost":{"total_cost_usd":-1},
    "context_window":{"used_percentage":1e300,"total_input_tokens":"many"},
    "rate_limits":{"five_hour":null},
    "version":")" + std::string(500, 'v') + R"("})"));
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->model, "m[31mx");  // the escape is dropped, the rest is plain text
  EXPECT_FALSE(odd->cost_usd);
  EXPECT_EQ(odd->context_percent, 1000);  // clamped
  EXPECT_FALSE(odd->context_tokens);
  EXPECT_FALSE(odd->five_hour_percent);
  EXPECT_EQ(odd->version.size(), kMaxReportText);
}

}  // namespace
}  // namespace wharf::core
