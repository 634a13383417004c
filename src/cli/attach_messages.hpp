// The daemon's text messages (docs/protocol.md) as `wharf attach` reads them, and the
// session list they bring. Pure: values in, values out; attach_client.cpp decides what
// each message does.
//
// Invariants:
// - Reading never throws and never refuses: a field that is missing or of another type
//   reads as absent (no number, an empty string, false), as the page reads it, so a
//   newer daemon's extra or changed fields cannot stop a window.
// - The session list is the daemon's last word: each `sessions` message that holds a list
//   replaces the one before; one without keeps it.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wharf::cli {

// The message in a text frame, or nothing when it is not a JSON object (the daemon sends
// none; ignored, as the page does).
std::optional<boost::json::object> read_message(std::string_view text);

std::optional<std::int64_t> int_field(const boost::json::object& obj, std::string_view name);
std::string string_field(const boost::json::object& obj, std::string_view name);
bool bool_field(const boost::json::object& obj, std::string_view name);

// How an `exit` message says the session ended: "was killed by SIGTERM", "ended with
// exit code 3", or just "ended".
std::string exit_text(const boost::json::object& exit);

// What the daemon's list says about one session.
class SessionList {
 public:
  explicit SessionList(std::int64_t id) : id_(id) {}

  void update(const boost::json::object& sessions_message);
  // Whether the session is in the list: only a listed id is attached to.
  bool listed() const { return find() != nullptr; }
  // Its name, or "session N" when the list gives none.
  std::string name() const;
  // " (window N drives it)", or nothing when the list does not say.
  std::string driver_text() const;

 private:
  const boost::json::object* find() const;

  std::int64_t id_;
  boost::json::array sessions_;
};

}  // namespace wharf::cli
