#include "ops/arguments.hpp"

#include <charconv>

#include "core/shown_text.hpp"

namespace wharf::ops {
namespace json = boost::json;

core::Error bad_argument(std::string message) {
  return core::Error{std::move(message), "bad_argument"};
}

Arguments::Arguments(const json::object& args, std::initializer_list<std::string_view> known)
    : args_(args) {
  for (const auto& [key, value] : args_) {
    bool listed = false;
    for (std::string_view name : known) listed = listed || key == name;
    if (listed) continue;
    std::string names;
    for (std::string_view name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    fail(bad_argument("unknown argument '" + core::shown_text(key, 40) + "'" +
                      (names.empty() ? " (this takes none)" : " (known: " + names + ")")));
    return;
  }
}

void Arguments::fail(core::Error error) {
  if (!error_) error_ = std::move(error);
}

bool Arguments::has(std::string_view name) const {
  const json::value* v = args_.if_contains(name);
  return v != nullptr && !v->is_null();
}

const json::value* Arguments::find(std::string_view name, bool required) {
  if (error_) return nullptr;
  const json::value* v = args_.if_contains(name);
  if (v == nullptr || v->is_null()) {
    if (required) fail(bad_argument("'" + std::string(name) + "' is required"));
    return nullptr;
  }
  return v;
}

std::optional<std::string> Arguments::text(std::string_view name, std::size_t max_bytes,
                                           bool required) {
  const json::value* v = find(name, required);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    fail(bad_argument("'" + std::string(name) + "' must be a string"));
    return std::nullopt;
  }
  if (v->get_string().size() > max_bytes) {
    fail(bad_argument("'" + std::string(name) + "' is longer than " + std::to_string(max_bytes) +
                      " bytes"));
    return std::nullopt;
  }
  return std::string(v->get_string());
}

std::optional<std::int64_t> Arguments::integer(std::string_view name, std::int64_t min,
                                               std::int64_t max, bool required) {
  const json::value* v = find(name, required);
  if (v == nullptr) return std::nullopt;
  std::optional<std::int64_t> number;
  if (v->is_int64()) {
    number = v->get_int64();
  } else if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    number = static_cast<std::int64_t>(v->get_uint64());
  } else if (v->is_double() &&
             v->get_double() == static_cast<double>(static_cast<std::int64_t>(v->get_double()))) {
    number = static_cast<std::int64_t>(v->get_double());
  } else if (v->is_string()) {
    std::string_view s = v->get_string();
    std::int64_t parsed = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
    if (ec == std::errc{} && ptr == s.data() + s.size() && !s.empty()) number = parsed;
  }
  if (!number || *number < min || *number > max) {
    fail(bad_argument("'" + std::string(name) + "' must be an integer from " + std::to_string(min) +
                      " to " + std::to_string(max)));
    return std::nullopt;
  }
  return number;
}

std::optional<bool> Arguments::flag(std::string_view name) {
  const json::value* v = find(name, false);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) {
    fail(bad_argument("'" + std::string(name) + "' must be true or false"));
    return std::nullopt;
  }
  return v->get_bool();
}

std::vector<std::string> Arguments::texts(std::string_view name, std::size_t max_items,
                                          std::size_t max_bytes, bool required) {
  std::vector<std::string> out;
  const json::value* v = find(name, required);
  if (v == nullptr) return out;
  if (!v->is_array() || v->get_array().size() > max_items || (required && v->get_array().empty())) {
    fail(bad_argument("'" + std::string(name) + "' must be a list of 1 to " +
                      std::to_string(max_items) + " strings"));
    return out;
  }
  for (const json::value& item : v->get_array()) {
    if (!item.is_string() || item.get_string().size() > max_bytes) {
      fail(bad_argument("every item of '" + std::string(name) + "' must be a string of at most " +
                        std::to_string(max_bytes) + " bytes"));
      return {};
    }
    out.emplace_back(item.get_string());
  }
  return out;
}

std::shared_ptr<app::Session> Arguments::session(Context& context, core::Access access) {
  auto id = integer("session", 1, INT64_MAX, true);
  if (!id) return nullptr;
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
