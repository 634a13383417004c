#include "core/control_message.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <string>

#include "core/version.hpp"

namespace wharf::core {
namespace json = boost::json;

namespace {

constexpr std::size_t kMaxTextField = 4096;
constexpr std::size_t kMaxOrderLength = 1024;

ProtocolError field_error(std::string_view type, std::string_view field, std::string_view want) {
  return {"bad_field",
          std::string(type) + ": field '" + std::string(field) + "' must be " + std::string(want)};
}

// Reads the fields of one message, remembering the first problem.
class Fields {
 public:
  Fields(const json::object& obj, std::string_view type) : obj_(obj), type_(type) {}

  std::optional<std::int64_t> integer(std::string_view field, bool required) {
    const json::value* v = obj_.if_contains(field);
    if (v == nullptr || v->is_null()) {
      if (required) fail(field, "present");
      return std::nullopt;
    }
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64())
      return static_cast<std::int64_t>(std::min<std::uint64_t>(v->get_uint64(), INT64_MAX));
    fail(field, "an integer");
    return std::nullopt;
  }
  std::optional<SessionId> session_id(std::string_view field, bool required) {
    auto value = integer(field, required);
    if (value && *value <= 0) {
      fail(field, "a positive session id");
      return std::nullopt;
    }
    return value ? std::optional<SessionId>(static_cast<SessionId>(*value)) : std::nullopt;
  }
  std::string text(std::string_view field) {
    const json::value* v = obj_.if_contains(field);
    if (v == nullptr || v->is_null()) return {};
    if (!v->is_string() || v->get_string().size() > kMaxTextField) {
      fail(field, "a string of at most 4096 bytes");
      return {};
    }
    return std::string(v->get_string());
  }
  bool boolean(std::string_view field) {
    const json::value* v = obj_.if_contains(field);
    if (v == nullptr || v->is_null()) return false;
    if (!v->is_bool()) {
      fail(field, "true or false");
      return false;
    }
    return v->get_bool();
  }
  std::vector<SessionId> id_list(std::string_view field) {
    const json::value* v = obj_.if_contains(field);
    std::vector<SessionId> out;
    if (v == nullptr || !v->is_array() || v->get_array().size() > kMaxOrderLength) {
      fail(field, "an array of session ids");
      return out;
    }
    for (const json::value& item : v->get_array()) {
      if (!item.is_int64() || item.get_int64() <= 0) {
        fail(field, "an array of session ids");
        return {};
      }
      out.push_back(static_cast<SessionId>(item.get_int64()));
    }
    return out;
  }

  const std::optional<ProtocolError>& error() const { return error_; }

 private:
  void fail(std::string_view field, std::string_view want) {
    if (!error_) error_ = field_error(type_, field, want);
  }
  const json::object& obj_;
  std::string_view type_;
  std::optional<ProtocolError> error_;
};

template <class T>
ClientMessage checked(const Fields& fields, T message) {
  if (fields.error()) return *fields.error();
  return message;
}

json::value optional_id(std::optional<std::uint64_t> id) {
  return id ? json::value(*id) : json::value(nullptr);
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
  Fields f(*obj, type);

  if (type == "resize") {
    auto cols = f.integer("cols", true);
    auto rows = f.integer("rows", true);
    return checked(f, ResizeRequest{clamp_size(cols.value_or(0), rows.value_or(0))});
  }
  if (type == "ack") {
    auto bytes = f.integer("bytes", true);
    if (bytes && *bytes < 0) return field_error(type, "bytes", "a count of bytes");
    return checked(f, AckRequest{static_cast<std::uint64_t>(bytes.value_or(0))});
  }
  if (type == "attach") {
    auto session = f.session_id("session", false);
    bool start = f.boolean("start");
    std::string token = f.text("window_token");
    // 128 bits at least, so nobody guesses another tab's; hex only, so it is never more
    // than an opaque name. The refusal names the field, never the value.
    bool hex = std::all_of(token.begin(), token.end(),
                           [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    if (!token.empty() && (token.size() < 32 || token.size() > 64 || !hex))
      return field_error(type, "window_token", "32 to 64 lowercase hex digits");
    return checked(f, AttachRequest{session, start, std::move(token)});
  }
  if (type == "detach") return DetachRequest{};
  if (type == "new") {
    auto launch = parse_launch_request(*obj);
    if (!launch) return ProtocolError{launch.error().code, "new: " + launch.error().message};
    return NewRequest{std::move(launch.value())};
  }
  if (type == "end") {
    auto session = f.session_id("session", false);
    return checked(f, EndRequest{session});
  }
  if (type == "rename") {
    auto session = f.session_id("session", true);
    const json::value* given = obj->if_contains("name");
    if (given == nullptr || !given->is_string())
      return field_error(type, "name", "a string (empty restores the default name)");
    std::string name = f.text("name");
    return checked(f, RenameRequest{session.value_or(0), std::move(name)});
  }
  if (type == "reorder") {
    auto order = f.id_list("order");
    return checked(f, ReorderRequest{std::move(order)});
  }
  if (type == "paste") {
    const json::value* given = obj->if_contains("text");
    if (given == nullptr || !given->is_string() || given->get_string().size() > kMaxPasteBytes)
      return field_error(type, "text", "a string of at most 48 KiB");
    bool submit = f.boolean("submit");
    return checked(f, PasteRequest{std::string(given->get_string()), submit});
  }
  if (type == "seen") {
    auto session = f.session_id("session", false);
    return checked(f, SeenRequest{session});
  }
  if (type == "looking") {
    const json::value* given = obj->if_contains("looking");
    if (given == nullptr || !given->is_bool()) return field_error(type, "looking", "true or false");
    return LookingRequest{given->get_bool()};
  }
  if (type == "pane_feedback") {
    auto session = f.session_id("session", true);
    std::string page = f.text("page");
    const json::value* fields = obj->if_contains("fields");
    if (fields == nullptr || !fields->is_object())
      return field_error(type, "fields", "an object of names and values");
    if (page.empty() || page.size() > 64) return field_error(type, "page", "the page's token");
    return checked(
        f, PaneFeedbackRequest{session.value_or(0), std::move(page), json::serialize(*fields)});
  }
  if (type == "ended_screen") {
    auto session = f.session_id("session", true);
    return checked(f, EndedScreenRequest{session.value_or(0)});
  }
  if (type == "dismiss") {
    auto session = f.session_id("session", true);
    return checked(f, DismissRequest{session.value_or(0)});
  }
  if (type == "decide") {
    auto id = f.integer("id", true);
    if (id && *id <= 0) return field_error(type, "id", "a decision's id (a positive integer)");
    const json::value* approve = obj->if_contains("approve");
    if (approve == nullptr || !approve->is_bool())
      return field_error(type, "approve", "true or false");
    const json::value* note = obj->if_contains("note");
    if (note != nullptr && !note->is_null() &&
        (!note->is_string() || note->get_string().size() > kMaxDecideNoteBytes))
      return field_error(type, "note", "a string of at most 1000 bytes");
    std::string words = note != nullptr && note->is_string() ? std::string(note->get_string()) : "";
    return checked(f, DecideRequest{static_cast<std::uint64_t>(id.value_or(0)), approve->get_bool(),
                                    std::move(words)});
  }
  if (type == "take") return TakeRequest{};
  if (type == "ping") return PingRequest{};
  std::string shown(type.substr(0, 64));  // never echo an unbounded string back
  return ProtocolError{"unknown_type", "unknown message type '" + shown + "'"};
}

std::string hello_message(WindowId window, bool keeps_sessions) {
  return json::serialize(json::object{{"type", "hello"},
                                      {"protocol", kProtocolVersion},
                                      {"server", "wharf " + std::string(kVersion)},
                                      {"window", window},
                                      {"keeps_sessions", keeps_sessions}});
}

namespace {

json::object ended_object(const EndedSummary& e) {
  json::object obj{{"id", e.id},          {"name", e.name},      {"program", e.program},
                   {"kind", e.kind},      {"cwd", e.cwd},        {"created", e.created_ms},
                   {"ended", e.ended_ms}, {"crashed", e.crashed}};
  obj["code"] = e.status.code ? json::value(*e.status.code) : json::value(nullptr);
  obj["signal"] =
      e.status.signal ? json::value(signal_name(*e.status.signal)) : json::value(nullptr);
  return obj;
}

}  // namespace

std::string ended_screen_message(const EndedSummary& ended, std::string_view screen) {
  json::object obj{{"type", "ended_screen"}, {"session", ended.id}, {"screen", screen}};
  obj["ended"] = ended_object(ended);
  return json::serialize(obj);
}

std::string sessions_message(const std::vector<SessionSummary>& sessions,
                             const std::vector<EndedSummary>& ended) {
  json::array list;
  for (const SessionSummary& s : sessions) {
    list.push_back(json::object{{"id", s.id},
                                {"name", s.name},
                                {"program", s.program},
                                {"kind", s.kind},
                                {"cwd", s.cwd},
                                {"created", s.created_ms},
                                {"status", s.ending ? "ending" : "running"},
                                {"driver", optional_id(s.driver)},
                                {"windows", s.windows},
                                {"activity", s.activity},
                                {"shared_shell", s.shared_shell},
                                {"capabilities", capabilities_object(s.capabilities)}});
  }
  json::array gone;
  for (const EndedSummary& e : ended) gone.push_back(ended_object(e));
  return json::serialize(json::object{
      {"type", "sessions"}, {"sessions", std::move(list)}, {"ended", std::move(gone)}});
}

std::string attached_message(SessionId session, bool driver, int pid, TerminalSize size) {
  return json::serialize(json::object{{"type", "attached"},
                                      {"session", session},
                                      {"driver", driver},
                                      {"pid", pid},
                                      {"cols", size.cols},
                                      {"rows", size.rows}});
}

std::string detached_message(std::optional<SessionId> session, std::string_view reason) {
  return json::serialize(
      json::object{{"type", "detached"}, {"session", optional_id(session)}, {"reason", reason}});
}

std::string snapshot_message(SessionId session, std::size_t bytes, TerminalSize size) {
  return json::serialize(json::object{{"type", "snapshot"},
                                      {"session", session},
                                      {"bytes", bytes},
                                      {"cols", size.cols},
                                      {"rows", size.rows}});
}

std::string driver_message(SessionId session, bool driver, std::optional<WindowId> by) {
  return json::serialize(json::object{
      {"type", "driver"}, {"session", session}, {"driver", driver}, {"by", optional_id(by)}});
}

std::string size_message(TerminalSize size) {
  return json::serialize(json::object{{"type", "size"}, {"cols", size.cols}, {"rows", size.rows}});
}

std::string exit_message(SessionId session, const ExitStatus& status, std::optional<SessionId> next,
                         bool kept) {
  json::object obj{{"type", "exit"}, {"session", session}};
  obj["code"] = status.code ? json::value(*status.code) : json::value(nullptr);
  obj["signal"] = status.signal ? json::value(signal_name(*status.signal)) : json::value(nullptr);
  obj["next"] = optional_id(next);
  obj["kept"] = kept;
  return json::serialize(obj);
}

std::string pong_message() {
  return R"({"type":"pong"})";
}

std::string error_message(std::string_view code, std::string_view message) {
  return json::serialize(json::object{{"type", "error"}, {"code", code}, {"message", message}});
}

std::string pasted_message(SessionId session, std::size_t bytes, std::size_t removed) {
  return json::serialize(json::object{
      {"type", "pasted"}, {"session", session}, {"bytes", bytes}, {"removed", removed}});
}

std::string chime_message(SessionId session) {
  return json::serialize(json::object{{"type", "chime"}, {"session", session}});
}

std::string key_rotated_message() {
  return json::serialize(json::object{{"type", "key_rotated"}});
}

std::string stopping_message(bool sessions_kept) {
  return json::serialize(json::object{{"type", "stopping"}, {"sessions_kept", sessions_kept}});
}

}  // namespace wharf::core
