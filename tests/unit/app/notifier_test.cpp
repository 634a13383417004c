// The notifier (app/notifier.hpp) and its ntfy and command channels
// (app/notification_channels.hpp), with a channel that records what it is handed: the
// title and message an event makes, the deep link, the screen only when allowed and then
// cut short, the headers ntfy gets (one line each, RFC 2047 beyond ASCII), and the hook
// commands Claude Code gets (app/agent_hooks.hpp).
#include "app/notifier.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "app/agent_hooks.hpp"
#include "app/notification_channels.hpp"

namespace wharf::app {
namespace {

using namespace std::chrono_literals;

struct Recorder : NotificationChannel {
  std::vector<Notification> got;
  std::string_view name() const override { return "recorder"; }
  void deliver(const Notification& notification) override { got.push_back(notification); }
};

NotifyEvent waiting(core::SessionId id, std::string name = "") {
  return NotifyEvent{.session = id,
                     .kind = core::NotifyKind::kWaiting,
                     .source = NotifySource::kSaid,
                     .session_name = name.empty() ? "claude " + std::to_string(id) : name,
                     .program = "claude"};
}

const auto t0 = Notifier::Clock::time_point{} + 1000h;

TEST(Notifier, SendsToEveryChannelOncePerDebounceWindow) {
  Notifier notifier({});
  Recorder owned_copy;
  auto owned = std::make_unique<Recorder>();
  Recorder* first = owned.get();
  notifier.add_channel(std::move(owned));
  notifier.add_channel(owned_copy);
  EXPECT_EQ(notifier.on_event(waiting(3), t0, 600), core::NotifyVerdict::kSend);
  EXPECT_EQ(notifier.on_event(waiting(3), t0 + 30s, 600), core::NotifyVerdict::kDebounced);
  ASSERT_EQ(first->got.size(), 1u);
  ASSERT_EQ(owned_copy.got.size(), 1u);
  EXPECT_EQ(first->got[0].title, "claude 3 is waiting for you");
  EXPECT_EQ(first->got[0].kind, "waiting");
  EXPECT_FALSE(first->got[0].click_url);  // no public_url: no link
}

TEST(Notifier, NamesTheProgramBeforeAPersonsNameAndLinksToTheSession) {
  Notifier notifier({.public_url = "https://box.example:8443"});
  Notification note = notifier.build(waiting(7, "api"));
  EXPECT_EQ(note.title, "claude · api is waiting for you");
  EXPECT_EQ(note.click_url, "https://box.example:8443/#session=7");
  NotifyEvent done = waiting(7, "api");
  done.kind = core::NotifyKind::kFinished;
  done.source = NotifySource::kQuiet;
  EXPECT_EQ(notifier.build(done).title, "claude · api has finished");
  EXPECT_NE(notifier.build(done).message.find("output stopped"), std::string::npos);
}

TEST(Notifier, TheScreenOnlyWhenAllowedAndCutShort) {
  NotifyEvent event = waiting(1);
  event.screen_lines = {"secret line", "", "Allow edit? (y/n)   ", "  "};
  Notifier quiet({});
  EXPECT_EQ(quiet.build(event).message.find("secret"), std::string::npos);
  EXPECT_FALSE(quiet.wants_screen());

  Notifier telling({.include_screen = true});
  EXPECT_TRUE(telling.wants_screen());
  std::string message = telling.build(event).message;
  EXPECT_NE(message.find("\n\nsecret line\nAllow edit? (y/n)"), std::string::npos) << message;
  EXPECT_EQ(message.find("(y/n) "), std::string::npos);  // trailing blanks trimmed

  event.screen_lines.clear();
  for (int i = 0; i < 20; ++i) event.screen_lines.push_back("line " + std::to_string(i));
  message = telling.build(event).message;
  EXPECT_EQ(message.find("line 13"), std::string::npos);  // only the last six
  EXPECT_NE(message.find("line 14\n"), std::string::npos);
  event.screen_lines = {std::string(3000, 'x') + "é" + std::string(10, 'y')};
  message = telling.build(event).message;
  EXPECT_LE(message.size(), 1200u);
  EXPECT_NE(message.find("yyyyyyyyyy"), std::string::npos);  // the end is kept
}

TEST(Notifier, LookedAtAndQuietHoursSendNothing) {
  Notifier notifier({.rules = {.debounce = 0s, .quiet_hours = core::QuietHours{22 * 60, 6 * 60}}});
  Recorder recorder;
  notifier.add_channel(recorder);
  NotifyEvent event = waiting(2);
  event.looked_at = true;
  EXPECT_EQ(notifier.on_event(event, t0, 600), core::NotifyVerdict::kLookedAt);
  event.looked_at = false;
  EXPECT_EQ(notifier.on_event(event, t0, 23 * 60), core::NotifyVerdict::kQuietHours);
  EXPECT_TRUE(recorder.got.empty());
  EXPECT_EQ(notifier.on_event(event, t0, 600), core::NotifyVerdict::kSend);
  EXPECT_EQ(recorder.got.size(), 1u);
}

TEST(NtfyHeaders, OneLineEachEncodedBeyondAsciiWithTokenAndClick) {
  Notification note{.session = 4,
                    .session_name = "x",
                    .program = "claude",
                    .kind = "waiting",
                    .title = "claude · api\r\nX-Evil: 1 is waiting for you",
                    .message = "m",
                    .click_url = "https://box/#session=4"};
  auto headers = ntfy_headers(note, std::string("tk"));
  std::map<std::string, std::string> by_name(headers.begin(), headers.end());
  EXPECT_EQ(by_name["Priority"], "4");
  EXPECT_EQ(by_name["Tags"], "bell,wharf");
  EXPECT_EQ(by_name["Click"], "https://box/#session=4");
  EXPECT_EQ(by_name["Authorization"], "Bearer tk");
  const std::string& title = by_name["Title"];
  EXPECT_TRUE(title.starts_with("=?UTF-8?B?")) << title;
  EXPECT_EQ(title.find('\r'), std::string::npos);
  EXPECT_EQ(title.find('\n'), std::string::npos);

  note.kind = "finished";
  note.title = "bash 1 has finished";
  note.click_url.reset();
  headers = ntfy_headers(note, std::nullopt);
  by_name = {headers.begin(), headers.end()};
  EXPECT_EQ(by_name["Title"], "bash 1 has finished");
  EXPECT_EQ(by_name["Priority"], "3");
  EXPECT_FALSE(by_name.contains("Click"));
  EXPECT_FALSE(by_name.contains("Authorization"));
}

TEST(NotificationJson, CarriesEveryFieldAndANullLink) {
  Notification note{.session = 9,
                    .session_name = "n",
                    .program = "codex",
                    .kind = "finished",
                    .title = "t",
                    .message = "m\n\"q\""};
  auto value = boost::json::parse(notification_json(note));
  EXPECT_EQ(value.at("session").to_number<int>(), 9);
  EXPECT_EQ(value.at("program").as_string(), "codex");
  EXPECT_EQ(value.at("message").as_string(), "m\n\"q\"");
  EXPECT_TRUE(value.at("click_url").is_null());
}

TEST(AgentHooks, ClaudeGetsNotificationAndStopThatNeverBlock) {
  auto hooks = claude_hooks("/opt/my wharf/wharf");
  const auto& notification =
      hooks.at("Notification").as_array().at(0).at("hooks").as_array().at(0).as_object();
  EXPECT_EQ(notification.at("type").as_string(), "command");
  EXPECT_EQ(notification.at("command").as_string(),
            "'/opt/my wharf/wharf' notify waiting >/dev/null 2>&1 || true");
  const auto& stop = hooks.at("Stop").as_array().at(0).at("hooks").as_array().at(0).as_object();
  EXPECT_EQ(stop.at("command").as_string(),
            "'/opt/my wharf/wharf' notify finished >/dev/null 2>&1 || true");
  std::string plugin = opencode_plugin_source("/opt/w\"h");
  EXPECT_NE(plugin.find("const WHARF = \"/opt/w\\\"h\";"), std::string::npos) << plugin;
  EXPECT_NE(plugin.find("session.idle"), std::string::npos);
  EXPECT_NE(plugin.find("permission.asked"), std::string::npos);
}

}  // namespace
}  // namespace wharf::app
