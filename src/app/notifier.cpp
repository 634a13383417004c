#include "app/notifier.hpp"

#include <spdlog/spdlog.h>

#include <ctime>

namespace wharf::app {
namespace {

std::string_view source_name(NotifySource source) {
  switch (source) {
    case NotifySource::kSaid:
      return "its own word";
    case NotifySource::kBell:
      return "the bell";
    case NotifySource::kQuiet:
      return "quiet output";
  }
  return "its own word";
}

// The last non-empty lines of the screen, each and all cut short on a character boundary.
std::string screen_tail(const std::vector<std::string>& lines) {
  std::vector<std::string_view> kept;
  for (auto it = lines.rbegin(); it != lines.rend() && kept.size() < kScreenLinesInMessage; ++it) {
    std::string_view line = *it;
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    if (!line.empty()) kept.push_back(line);
  }
  std::string out;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    if (!out.empty()) out += '\n';
    out += *it;
  }
  if (out.size() > kScreenBytesInMessage) {
    // Keep the end (the newest lines), starting on a character boundary.
    std::size_t start = out.size() - kScreenBytesInMessage;
    while (start < out.size() && (static_cast<unsigned char>(out[start]) & 0xC0) == 0x80) ++start;
    out = out.substr(start);
  }
  return out;
}

}  // namespace

Notifier::Notifier(NotifierOptions options)
    : options_(std::move(options)), policy_(options_.rules) {}

void Notifier::add_channel(std::unique_ptr<NotificationChannel> channel) {
  channels_.push_back(channel.get());
  owned_.push_back(std::move(channel));
}

void Notifier::add_channel(NotificationChannel& channel) {
  channels_.push_back(&channel);
}

std::vector<std::string> Notifier::channel_names() const {
  std::vector<std::string> names;
  for (const NotificationChannel* channel : channels_) names.emplace_back(channel->name());
  return names;
}

Notification Notifier::build(const NotifyEvent& event) const {
  Notification note;
  note.session = event.session;
  note.session_name = event.session_name;
  note.program = event.program;
  note.kind = std::string(core::notify_kind_name(event.kind));
  // "claude 3" is the default name and says the program already; a name of the person's
  // own ("api") gets the program in front: "claude · api".
  std::string who = event.session_name;
  if (!event.program.empty() && who != event.program + " " + std::to_string(event.session))
    who = event.program + " · " + who;
  bool waiting = event.kind == core::NotifyKind::kWaiting;
  note.title = who + (waiting ? " is waiting for you" : " has finished");
  switch (event.source) {
    case NotifySource::kSaid:
      note.message = waiting ? "It needs your answer or approval." : "It has finished its turn.";
      break;
    case NotifySource::kBell:
      note.message = "It rang the terminal bell.";
      break;
    case NotifySource::kQuiet:
      note.message = "Its output stopped after a stretch of work.";
      break;
  }
  if (!event.said.empty()) note.message = event.said;
  note.message += " (session " + std::to_string(event.session) + ")";
  if (options_.include_screen) {
    std::string tail = screen_tail(event.screen_lines);
    if (!tail.empty()) note.message += "\n\n" + tail;
  }
  if (options_.public_url)
    note.click_url = *options_.public_url + "/#session=" + std::to_string(event.session);
  return note;
}

core::NotifyVerdict Notifier::on_event(const NotifyEvent& event, Clock::time_point now,
                                       std::optional<int> minute_of_day) {
  auto verdict = policy_.decide(event.session, now, minute_of_day.value_or(local_minute_of_day()),
                                event.looked_at);
  // The log names the session, the reason and the channels, never the text: it may quote
  // the screen.
  std::string outcome;
  if (verdict != core::NotifyVerdict::kSend) {
    outcome = "held back: " + std::string(core::notify_verdict_name(verdict));
  } else if (channels_.empty()) {
    outcome = "not sent: no channel configured";
  } else {
    outcome = "sent to";
    for (std::size_t i = 0; i < channels_.size(); ++i)
      outcome += (i == 0 ? " " : ", ") + std::string(channels_[i]->name());
  }
  spdlog::info("session {} is {} ({}): notification {}", event.session,
               core::notify_kind_name(event.kind), source_name(event.source), outcome);
  if (verdict != core::NotifyVerdict::kSend) return verdict;
  Notification note = build(event);
  for (NotificationChannel* channel : channels_) channel->deliver(note);
  return verdict;
}

int local_minute_of_day() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  if (localtime_r(&now, &local) == nullptr) return 12 * 60;
  return local.tm_hour * 60 + local.tm_min;
}

}  // namespace wharf::app
