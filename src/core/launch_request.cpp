#include "core/launch_request.hpp"

#include <array>

#include "core/catalog.hpp"

namespace wharf::core {
namespace json = boost::json;

namespace {

constexpr std::size_t kMaxShortField = 4096;
constexpr std::array<std::string_view, 6> kCommandFields{"command", "cmd",  "args",
                                                         "argv",    "exec", "program"};

Error bad(std::string message) {
  return Error{std::move(message), "bad_field"};
}

Result<std::string> text(const json::object& fields, std::string_view name, std::size_t max) {
  const json::value* v = fields.if_contains(name);
  if (v == nullptr || v->is_null()) return std::string{};
  if (!v->is_string() || v->get_string().size() > max) {
    return bad("field '" + std::string(name) + "' must be a string of at most " +
               std::to_string(max) + " bytes");
  }
  return std::string(v->get_string());
}

}  // namespace

Result<LaunchRequest> parse_launch_request(const json::object& fields) {
  for (std::string_view name : kCommandFields) {
    if (fields.contains(name)) {
      return bad("there is no '" + std::string(name) +
                 "' field: a session runs a catalog entry, named by 'kind' and 'entry'");
    }
  }
  LaunchRequest request;
  struct Field {
    std::string_view name;
    std::string* into;
    std::size_t max;
  };
  std::string agent, shell, title;
  for (const Field& f :
       {Field{"kind", &request.kind, 16}, Field{"entry", &request.entry, 64},
        Field{"agent", &agent, 64}, Field{"shell", &shell, 64},
        Field{"cwd", &request.cwd, kMaxShortField}, Field{"name", &request.name, kMaxShortField},
        Field{"title", &title, kMaxShortField},
        Field{"prompt", &request.prompt, kMaxPromptBytes}}) {
    auto value = text(fields, f.name, f.max);
    if (!value) return value.error();
    *f.into = std::move(value.value());
  }
  // "agent": "codex" and "shell": "zsh" are the natural spellings of kind + entry.
  for (auto [spelled, kind] : {std::pair{&agent, "agent"}, std::pair{&shell, "shell"}}) {
    if (spelled->empty()) continue;
    if (!request.entry.empty() || (!request.kind.empty() && request.kind != kind))
      return bad("give either 'kind' and 'entry' or '" + std::string(kind) + "', not both");
    request.kind = kind;
    request.entry = *spelled;
  }
  if (!request.kind.empty() && !parse_kind(request.kind))
    return bad("field 'kind' must be \"shell\", \"agent\" or \"action\"");
  if (request.name.empty()) request.name = title;
  if (const json::value* sandbox = fields.if_contains("sandbox");
      sandbox != nullptr && !sandbox->is_null()) {
    if (!sandbox->is_bool()) return bad("field 'sandbox' must be true or false");
    request.sandbox = sandbox->get_bool();
  }

  if (const json::value* env = fields.if_contains("env"); env != nullptr && !env->is_null()) {
    if (!env->is_object()) return bad("field 'env' must be an object of names to string values");
    for (const auto& [name, value] : env->get_object()) {
      if (!value.is_string()) {
        return Error{"the value of '" + std::string(name).substr(0, 40) + "' must be a string",
                     "bad_env"};
      }
      request.env.push_back(EnvVar{std::string(name), std::string(value.get_string())});
    }
    if (auto checked = check_env_layer(request.env, EnvLayer::kSession); !checked)
      return checked.error();
  }
  return request;
}

}  // namespace wharf::core
