#include "cli/attach_messages.hpp"

#include <fmt/format.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <utility>

namespace wharf::cli {

namespace json = boost::json;

std::optional<json::object> read_message(std::string_view text) {
  boost::system::error_code ec;
  json::value value = json::parse(text, ec);
  json::object* obj = ec ? nullptr : value.if_object();
  if (obj == nullptr) return std::nullopt;
  return std::move(*obj);
}

std::optional<std::int64_t> int_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  if (v == nullptr) return std::nullopt;
  boost::system::error_code ec;
  auto n = v->to_number<std::int64_t>(ec);
  if (ec) return std::nullopt;
  return n;
}

std::string string_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool bool_field(const json::object& obj, std::string_view name) {
  const json::value* v = obj.if_contains(name);
  return v != nullptr && v->is_bool() && v->get_bool();
}

std::string exit_text(const json::object& exit) {
  const json::value* signal = exit.if_contains("signal");
  auto code = int_field(exit, "code");
  return signal != nullptr && signal->is_string()
             ? fmt::format("was killed by {}", std::string(signal->get_string()))
         : code ? fmt::format("ended with exit code {}", *code)
                : std::string("ended");
}

void SessionList::update(const json::object& sessions_message) {
  if (const json::value* list = sessions_message.if_contains("sessions"); list && list->is_array())
    sessions_ = list->get_array();
}

const json::object* SessionList::find() const {
  for (const json::value& entry : sessions_) {
    const json::object* s = entry.if_object();
    if (s != nullptr && int_field(*s, "id") == id_) return s;
  }
  return nullptr;
}

std::string SessionList::name() const {
  const json::object* s = find();
  std::string listed = s != nullptr ? string_field(*s, "name") : std::string();
  return listed.empty() ? fmt::format("session {}", id_) : listed;
}

std::string SessionList::driver_text() const {
  const json::object* s = find();
  auto driver = s != nullptr ? int_field(*s, "driver") : std::nullopt;
  return driver ? fmt::format(" (window {} drives it)", *driver) : std::string();
}

}  // namespace wharf::cli
