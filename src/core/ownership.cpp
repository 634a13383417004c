#include "core/ownership.hpp"

#include <charconv>

#include "core/shown_text.hpp"

namespace wharf::core {
namespace {

constexpr std::string_view kSessionPrefix = "session:";

std::string session_words(SessionId id) {
  return "session " + std::to_string(id);
}

// Session 0 is none: a process wharf's daemon or hosts left behind whose session is not
// known. It is still never the user.
std::string program_words(SessionId id) {
  if (id == 0) return "a program wharf started, of no known session,";
  return "a program inside " + session_words(id);
}

}  // namespace

std::string describe(const Caller& caller) {
  switch (caller.kind) {
    case Caller::Kind::kKeyHolder:
      return "the browser";
    case Caller::Kind::kLocalUser:
      return "your terminal";
    case Caller::Kind::kSession:
      return caller.session == 0 ? "a program of no known session" : session_words(caller.session);
  }
  return "an unknown caller";
}

std::string creator_label(const Caller& caller) {
  switch (caller.kind) {
    case Caller::Kind::kKeyHolder:
      return "key";
    case Caller::Kind::kLocalUser:
      return "local";
    case Caller::Kind::kSession:
      return std::string(kSessionPrefix) + std::to_string(caller.session);
  }
  return "unknown";
}

std::string describe_creator(std::string_view label) {
  if (label == "key") return "the browser";
  if (label == "local") return "your terminal";
  if (label.empty()) return "an unrecorded creator";
  if (label.starts_with(kSessionPrefix)) {
    std::string_view digits = label.substr(kSessionPrefix.size());
    SessionId id = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (ec == std::errc{} && end == digits.data() + digits.size() && !digits.empty())
      return session_words(id);
  }
  return "'" + shown_text(label) + "'";
}

Status may_access(const Caller& caller, SessionId target, std::string_view target_creator,
                  bool target_is_shared_shell, Access access) {
  if (caller.kind != Caller::Kind::kSession) return ok_status();
  // Compared as stored labels, so "session:3" never matches "session:30" or "session:03".
  if (caller.session != 0 && target_creator == creator_label(caller)) return ok_status();
  std::string program = program_words(caller.session);
  if (target_is_shared_shell) {
    if (access != Access::kEnd) return ok_status();
    return Error{session_words(target) + " is the shared shell; " + program +
                     " may read and drive it but not end it",
                 "not_permitted"};
  }
  return Error{session_words(target) + " was started by " + describe_creator(target_creator) +
                   "; " + program + " may only use the sessions it started and the shared shell",
               "not_permitted"};
}

}  // namespace wharf::core
