#include "core/control_message.hpp"

#include <boost/json.hpp>
#include <string>

#include "core/version.hpp"

namespace wharf::core {
namespace json = boost::json;

namespace {

ProtocolError field_error(std::string_view type, std::string_view field, std::string_view want) {
  return {"bad_field",
          std::string(type) + ": field '" + std::string(field) + "' must be " + std::string(want)};
}

// An integer field, accepting only JSON integers (no 1.5, no "80").
std::variant<std::int64_t, ProtocolError> integer_field(const json::object& obj,
                                                        std::string_view type,
                                                        std::string_view field) {
  const json::value* v = obj.if_contains(field);
  if (v == nullptr) return field_error(type, field, "present");
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) {
    // Larger than int64 can only be clamped down; keep it representable.
    return static_cast<std::int64_t>(std::min<std::uint64_t>(v->get_uint64(), INT64_MAX));
  }
  return field_error(type, field, "an integer");
}

}  // namespace

ClientMessage parse_client_message(std::string_view text) {
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 16;  // control messages are flat; refuse deep nesting early
  json::value value = json::parse(text, ec, {}, options);
  if (ec) return ProtocolError{"bad_json", "message is not valid JSON: " + ec.message()};
  const json::object* obj = value.if_object();
  if (obj == nullptr) return ProtocolError{"bad_message", "message must be a JSON object"};
  const json::value* type_value = obj->if_contains("type");
  if (type_value == nullptr || !type_value->is_string())
    return ProtocolError{"bad_message", "message needs a string field 'type'"};
  std::string_view type = type_value->get_string();

  if (type == "resize") {
    auto cols = integer_field(*obj, type, "cols");
    if (auto* e = std::get_if<ProtocolError>(&cols)) return *e;
    auto rows = integer_field(*obj, type, "rows");
    if (auto* e = std::get_if<ProtocolError>(&rows)) return *e;
    return ResizeRequest{clamp_size(std::get<std::int64_t>(cols), std::get<std::int64_t>(rows))};
  }
  if (type == "ping") return PingRequest{};
  if (type == "end") return EndRequest{};
  std::string shown(type.substr(0, 64));  // never echo an unbounded string back
  return ProtocolError{"unknown_type", "unknown message type '" + shown + "'"};
}

std::string hello_message() {
  return json::serialize(json::object{{"type", "hello"},
                                      {"protocol", kProtocolVersion},
                                      {"server", "wharf " + std::string(kVersion)}});
}

std::string ready_message(SessionId session, int pid, TerminalSize size) {
  return json::serialize(json::object{{"type", "ready"},
                                      {"session", session},
                                      {"pid", pid},
                                      {"cols", size.cols},
                                      {"rows", size.rows}});
}

std::string size_message(TerminalSize size) {
  return json::serialize(json::object{{"type", "size"}, {"cols", size.cols}, {"rows", size.rows}});
}

std::string exit_message(SessionId session, const ExitStatus& status) {
  json::object obj{{"type", "exit"}, {"session", session}};
  obj["code"] = status.code ? json::value(*status.code) : json::value(nullptr);
  obj["signal"] = status.signal ? json::value(signal_name(*status.signal)) : json::value(nullptr);
  return json::serialize(obj);
}

std::string pong_message() {
  return R"({"type":"pong"})";
}

std::string error_message(std::string_view code, std::string_view message) {
  return json::serialize(json::object{{"type", "error"}, {"code", code}, {"message", message}});
}

}  // namespace wharf::core
