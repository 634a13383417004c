#include "ops/arguments.hpp"

#include <charconv>
#include <limits>

#include "core/shown_text.hpp"

namespace wharf::ops {
namespace json = boost::json;

namespace {

std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

std::optional<std::int64_t> bound(const json::object& property, std::string_view key) {
  const json::value* v = property.if_contains(key);
  return v != nullptr ? integer_value(*v) : std::nullopt;
}

std::string_view type_of(const json::object& property) {
  const json::value* type = property.if_contains("type");
  return type != nullptr && type->is_string() ? std::string_view(type->get_string()) : "";
}

// Why `v` does not fit `property`, or nothing.
std::optional<std::string> misfit(std::string_view name, const json::value& v,
                                  const json::object& property) {
  std::string_view type = type_of(property);
  if (type == "integer") {
    std::int64_t min =
        bound(property, "minimum").value_or(std::numeric_limits<std::int64_t>::min());
    std::int64_t max =
        bound(property, "maximum").value_or(std::numeric_limits<std::int64_t>::max());
    auto number = integer_value(v);
    if (number && *number >= min && *number <= max) return std::nullopt;
    if (max == std::numeric_limits<std::int64_t>::max())
      return quoted(name) + " must be an integer of at least " + std::to_string(min);
    return quoted(name) + " must be an integer from " + std::to_string(min) + " to " +
           std::to_string(max);
  }
  if (type == "string") {
    if (!v.is_string()) return quoted(name) + " must be a string";
    if (auto max = bound(property, "maxLength");
        max && v.get_string().size() > static_cast<std::size_t>(*max))
      return quoted(name) + " is longer than " + std::to_string(*max) + " bytes";
    if (const json::value* choices = property.if_contains("enum"); choices && choices->is_array()) {
      std::string listed;
      for (const json::value& choice : choices->get_array()) {
        if (choice == v) return std::nullopt;
        listed += (listed.empty() ? "\"" : ", \"") + std::string(choice.as_string()) + "\"";
      }
      return quoted(name) + " must be one of " + listed;
    }
    return std::nullopt;
  }
  if (type == "boolean") {
    if (v.is_bool()) return std::nullopt;
    return quoted(name) + " must be true or false";
  }
  if (type == "array") {
    std::int64_t min = bound(property, "minItems").value_or(0);
    std::int64_t max =
        bound(property, "maxItems").value_or(std::numeric_limits<std::int64_t>::max());
    const json::array* items = v.if_array();
    if (items == nullptr || static_cast<std::int64_t>(items->size()) < min ||
        static_cast<std::int64_t>(items->size()) > max)
      return quoted(name) + " must be a list of " + std::to_string(min) + " to " +
             std::to_string(max) + " strings";
    std::optional<std::int64_t> item_max;
    if (const json::value* item = property.if_contains("items"); item && item->is_object())
      item_max = bound(item->get_object(), "maxLength");
    for (const json::value& item : *items) {
      if (!item.is_string() ||
          (item_max && item.get_string().size() > static_cast<std::size_t>(*item_max)))
        return "every item of " + quoted(name) + " must be a string" +
               (item_max ? " of at most " + std::to_string(*item_max) + " bytes" : "");
    }
    return std::nullopt;
  }
  if (type == "object") {
    if (v.is_object()) return std::nullopt;
    return quoted(name) + " must be an object";
  }
  return std::nullopt;  // no type: the operation checks it
}

const json::object& empty_object() {
  static const json::object kEmpty;
  return kEmpty;
}

}  // namespace

core::Error bad_argument(std::string message) {
  return core::Error{std::move(message), "bad_argument"};
}

std::optional<std::int64_t> integer_value(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.get_uint64());
  if (v.is_double() && v.get_double() >= -9.2e18 && v.get_double() <= 9.2e18 &&
      v.get_double() == static_cast<double>(static_cast<std::int64_t>(v.get_double())))
    return static_cast<std::int64_t>(v.get_double());
  if (v.is_string()) {
    std::string_view s = v.get_string();
    std::int64_t parsed = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
    if (ec == std::errc{} && ptr == s.data() + s.size() && !s.empty()) return parsed;
  }
  return std::nullopt;
}

Arguments::Arguments(const json::object& args, std::string_view operation) : args_(args) {
  const Operation* op = find_operation(operation);
  check(op != nullptr ? input_schema(*op) : empty_object());
}

Arguments::Arguments(const json::object& args, const json::object& schema) : args_(args) {
  check(schema);
}

void Arguments::check(const json::object& schema) {
  const json::value* listed = schema.if_contains("properties");
  const json::object& properties =
      listed != nullptr && listed->is_object() ? listed->get_object() : empty_object();
  for (const auto& [key, v] : args_) {
    const json::value* property = properties.if_contains(key);
    if (property == nullptr) {
      std::string names;
      for (const auto& [name, unused] : properties)
        names += (names.empty() ? "" : ", ") + std::string(name);
      fail(bad_argument("unknown argument '" + core::shown_text(key, 40) + "'" +
                        (names.empty() ? " (this takes none)" : " (known: " + names + ")")));
      return;
    }
  }
  // In the schema's order, so the first error is the same whatever order the caller used.
  for (const auto& [name, property] : properties) {
    const json::value* v = args_.if_contains(name);
    if (v == nullptr || v->is_null() || !property.is_object()) continue;
    if (auto why = misfit(name, *v, property.get_object())) {
      fail(bad_argument(std::move(*why)));
      return;
    }
  }
  if (const json::value* required = schema.if_contains("required");
      required != nullptr && required->is_array()) {
    for (const json::value& name : required->get_array()) {
      if (name.is_string() && !has(name.get_string())) {
        fail(bad_argument("'" + std::string(name.get_string()) + "' is required"));
        return;
      }
    }
  }
}

void Arguments::fail(core::Error error) {
  if (!error_) error_ = std::move(error);
}

bool Arguments::has(std::string_view name) const {
  const json::value* v = args_.if_contains(name);
  return v != nullptr && !v->is_null();
}

const json::value* Arguments::value(std::string_view name) const {
  if (error_) return nullptr;
  const json::value* v = args_.if_contains(name);
  return v == nullptr || v->is_null() ? nullptr : v;
}

std::optional<std::string> Arguments::text(std::string_view name) const {
  const json::value* v = value(name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

std::optional<std::int64_t> Arguments::integer(std::string_view name) const {
  const json::value* v = value(name);
  return v != nullptr ? integer_value(*v) : std::nullopt;
}

std::optional<bool> Arguments::flag(std::string_view name) const {
  const json::value* v = value(name);
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

std::vector<std::string> Arguments::texts(std::string_view name) const {
  std::vector<std::string> out;
  const json::value* v = value(name);
  if (v == nullptr || !v->is_array()) return out;
  for (const json::value& item : v->get_array())
    if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

std::shared_ptr<app::Session> Arguments::session(Context& context, core::Access access) {
  auto id = integer("session");
  if (!id) {
    fail(bad_argument("'session' is required"));
    return nullptr;
  }
  return check_access(context, static_cast<core::SessionId>(*id), access);
}

std::shared_ptr<app::Session> Arguments::check_access(Context& context, core::SessionId id,
                                                      core::Access access) {
  if (error_) return nullptr;
  const core::SessionEntry* entry = context.sessions.registry().find(id);
  auto session = context.sessions.find(id);
  if (entry == nullptr || !session) {
    fail(core::Error{"there is no live session " + std::to_string(id) +
                         " (list_sessions shows the ones there are)",
                     "no_session"});
    return nullptr;
  }
  if (auto allowed =
          core::may_access(context.caller, id, entry->creator, entry->shared_shell, access);
      !allowed) {
    fail(allowed.error());
    return nullptr;
  }
  return session;
}

}  // namespace wharf::ops
