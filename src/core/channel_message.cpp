// Parsing and building the session channel's lines (core/channel_message.hpp). Requests
// come from inside a sandbox, so their parser is strict: unknown types and unknown fields
// are refused, every field has one type, and every bound is checked here once. Replies
// come from the daemon and are read leniently (unknown fields are ignored) so that a
// newer daemon can add fields without breaking an older shim.
#include "core/channel_message.hpp"

#include <boost/json.hpp>
#include <initializer_list>
#include <limits>

namespace wharf::core {
namespace json = boost::json;

namespace {

std::string_view strip_newline(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  return line;
}

Result<json::object> parse_object(std::string_view line) {
  if (line.size() > kMaxChannelLineBytes)
    return Error("channel message longer than 64 KiB", "too_long");
  std::string_view body = strip_newline(line);
  if (body.find('\n') != std::string_view::npos)
    return Error("channel message holds more than one line", "bad_message");
  boost::system::error_code ec;
  json::value value = json::parse(body, ec);
  if (ec) return Error("channel message is not JSON: " + ec.message(), "bad_json");
  if (!value.is_object()) return Error("channel message is not a JSON object", "bad_message");
  return std::move(value.get_object());
}

Result<std::string> type_of(const json::object& obj) {
  const json::value* type = obj.if_contains("type");
  if (type == nullptr || !type->is_string())
    return Error("channel message has no string field 'type'", "bad_message");
  return std::string(type->get_string());
}

Error field_error(std::string_view type, std::string_view field, std::string_view want) {
  return Error(
      std::string(type) + ": field '" + std::string(field) + "' must be " + std::string(want),
      "bad_field");
}

// Strict requests: a field the type does not have is refused.
Status only_fields(const json::object& obj, std::string_view type,
                   std::initializer_list<std::string_view> allowed) {
  for (const auto& item : obj) {
    bool known = item.key() == "type";
    for (std::string_view name : allowed) known = known || item.key() == name;
    if (!known)
      return Error(std::string(type) + ": unknown field '" + std::string(item.key()) + "'",
                   "bad_field");
  }
  return ok_status();
}

bool has_nul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}

Result<ChannelRequest> parse_guard(const json::object& obj) {
  if (auto known = only_fields(obj, "guard", {"argv", "cwd"}); !known) return known.error();
  const json::value* argv = obj.if_contains("argv");
  if (argv == nullptr || !argv->is_array()) return field_error("guard", "argv", "an array");
  const json::array& items = argv->get_array();
  if (items.empty()) return field_error("guard", "argv", "a non-empty array");
  if (items.size() > kMaxChannelArgs)
    return field_error("guard", "argv", "an array of at most 256 items");
  ChannelGuard guard;
  guard.argv.reserve(items.size());
  for (const json::value& item : items) {
    if (!item.is_string() || has_nul(item.get_string()))
      return field_error("guard", "argv", "an array of strings without NUL bytes");
    guard.argv.emplace_back(item.get_string());
  }
  const json::value* cwd = obj.if_contains("cwd");
  if (cwd == nullptr || !cwd->is_string()) return field_error("guard", "cwd", "a string");
  std::string_view dir = cwd->get_string();
  if (dir.empty() || dir.front() != '/' || has_nul(dir))
    return field_error("guard", "cwd", "an absolute path");
  guard.cwd = std::string(dir);
  return ChannelRequest(std::move(guard));
}

Result<ChannelRequest> parse_notify(const json::object& obj) {
  if (auto known = only_fields(obj, "notify", {"state", "message"}); !known) return known.error();
  const json::value* state = obj.if_contains("state");
  ChannelNotify notify;
  if (state != nullptr && state->is_string() && state->get_string() == "waiting")
    notify.state = ChannelNotifyState::waiting;
  else if (state != nullptr && state->is_string() && state->get_string() == "finished")
    notify.state = ChannelNotifyState::finished;
  else
    return field_error("notify", "state", "\"waiting\" or \"finished\"");
  if (const json::value* message = obj.if_contains("message");
      message != nullptr && !message->is_null()) {
    if (!message->is_string() || message->get_string().size() > kMaxChannelMessageText)
      return field_error("notify", "message", "a string of at most 4096 bytes");
    notify.message = std::string(message->get_string());
  }
  return ChannelRequest(std::move(notify));
}

std::string line_of(const json::object& obj) {
  return json::serialize(obj) + "\n";
}

// Lenient reply fields: absent means empty; a wrong type is still refused.
Result<std::string> reply_text(const json::object& obj, std::string_view type,
                               std::string_view field) {
  const json::value* v = obj.if_contains(field);
  if (v == nullptr || v->is_null()) return std::string();
  if (!v->is_string()) return field_error(type, field, "a string");
  return std::string(v->get_string());
}

std::optional<std::int64_t> reply_integer(const json::object& obj, std::string_view field) {
  const json::value* v = obj.if_contains(field);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() &&
      v->get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v->get_uint64());
  return std::nullopt;
}

Result<ChannelReply> parse_exited(const json::object& obj) {
  ChannelExited exited;
  auto code = reply_integer(obj, "code");
  auto signal = reply_integer(obj, "signal");
  if (code && *code >= std::numeric_limits<int>::min() && *code <= std::numeric_limits<int>::max())
    exited.code = static_cast<int>(*code);
  if (signal && *signal > 0 && *signal < 128) exited.signal = static_cast<int>(*signal);
  if (exited.code.has_value() == exited.signal.has_value())
    return Error("exited: exactly one of 'code' and 'signal' must be an integer", "bad_field");
  return ChannelReply(exited);
}

}  // namespace

std::string_view notify_state_name(ChannelNotifyState state) {
  return state == ChannelNotifyState::finished ? "finished" : "waiting";
}

Result<ChannelRequest> parse_channel_request(std::string_view line) {
  auto parsed = parse_object(line);
  if (!parsed) return parsed.error();
  const json::object& obj = parsed.value();
  auto type = type_of(obj);
  if (!type) return type.error();
  if (type.value() == "guard") return parse_guard(obj);
  if (type.value() == "notify") return parse_notify(obj);
  return Error("unknown channel message type '" + type.value().substr(0, 64) + "'", "unknown_type");
}

std::string serialize_channel_request(const ChannelRequest& request) {
  json::object obj;
  if (const auto* guard = std::get_if<ChannelGuard>(&request)) {
    obj["type"] = "guard";
    json::array argv;
    for (const std::string& arg : guard->argv) argv.emplace_back(arg);
    obj["argv"] = std::move(argv);
    obj["cwd"] = guard->cwd;
  } else {
    const auto& notify = std::get<ChannelNotify>(request);
    obj["type"] = "notify";
    obj["state"] = notify_state_name(notify.state);
    if (!notify.message.empty()) obj["message"] = notify.message;
  }
  return line_of(obj);
}

Result<ChannelReply> parse_channel_reply(std::string_view line) {
  auto parsed = parse_object(line);
  if (!parsed) return parsed.error();
  const json::object& obj = parsed.value();
  auto type = type_of(obj);
  if (!type) return type.error();
  const std::string& name = type.value();
  if (name == "pending") {
    auto id = reply_integer(obj, "id");
    auto expires = reply_integer(obj, "expires_in_s");
    if (!id || *id <= 0) return field_error("pending", "id", "a positive integer");
    return ChannelReply(ChannelPending{static_cast<std::uint64_t>(*id), expires.value_or(0)});
  }
  if (name == "approved") {
    auto by = reply_text(obj, name, "by");
    if (!by) return by.error();
    return ChannelReply(ChannelApproved{std::move(by.value())});
  }
  if (name == "exited") return parse_exited(obj);
  if (name == "denied") {
    auto by = reply_text(obj, name, "by");
    if (!by) return by.error();
    auto note = reply_text(obj, name, "note");
    if (!note) return note.error();
    return ChannelReply(ChannelDenied{std::move(by.value()), std::move(note.value())});
  }
  if (name == "expired") return ChannelReply(ChannelExpired{});
  if (name == "error") {
    auto message = reply_text(obj, name, "message");
    if (!message) return message.error();
    return ChannelReply(ChannelFailure{std::move(message.value())});
  }
  if (name == "ok") return ChannelReply(ChannelOk{});
  return Error("unknown channel reply type '" + name.substr(0, 64) + "'", "unknown_type");
}

std::string serialize_channel_reply(const ChannelReply& reply) {
  json::object obj;
  std::visit(
      [&obj](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, ChannelPending>) {
          obj["type"] = "pending";
          obj["id"] = r.id;
          obj["expires_in_s"] = r.expires_in_s;
        } else if constexpr (std::is_same_v<T, ChannelApproved>) {
          obj["type"] = "approved";
          obj["by"] = r.by;
        } else if constexpr (std::is_same_v<T, ChannelExited>) {
          obj["type"] = "exited";
          if (r.signal)
            obj["signal"] = *r.signal;
          else
            obj["code"] = r.code.value_or(0);
        } else if constexpr (std::is_same_v<T, ChannelDenied>) {
          obj["type"] = "denied";
          obj["by"] = r.by;
          obj["note"] = r.note;
        } else if constexpr (std::is_same_v<T, ChannelExpired>) {
          obj["type"] = "expired";
        } else if constexpr (std::is_same_v<T, ChannelFailure>) {
          obj["type"] = "error";
          obj["message"] = r.message;
        } else {
          obj["type"] = "ok";
        }
      },
      reply);
  return line_of(obj);
}

}  // namespace wharf::core
