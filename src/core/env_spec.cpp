#include "core/env_spec.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/shown_text.hpp"

namespace wharf::core {
namespace {

constexpr std::string_view kCode = "bad_env";

std::string quoted(std::string_view name) {
  return "'" + shown_text(name) + "'";
}

std::string_view layer_label(EnvLayer layer) {
  switch (layer) {
    case EnvLayer::kMachine:
      return "the config's [env]";
    case EnvLayer::kRepo:
      return "the workspace's .wharf/env";
    case EnvLayer::kSession:
      return "the session's environment";
  }
  return "the environment";
}

bool is_listed(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_loader_name(std::string_view name) {
  return name.starts_with("LD_") || is_listed(name, kLoaderNames);
}

// Why a dangerous name is refused, in words.
std::string_view danger_of(std::string_view name) {
  if (is_loader_name(name)) return "changes what the dynamic loader loads";
  if (name == "PATH") return "chooses which program every command name runs";
  return "makes programs in the session run code nobody typed";
}

Status check_one(const EnvVar& var, EnvLayer layer) {
  if (var.name.empty()) return Error{"an environment variable needs a name before '='", "bad_env"};
  if (!is_env_identifier(var.name)) {
    return Error{quoted(var.name) +
                     " is not a variable name: use letters, digits and '_', not starting "
                     "with a digit",
                 std::string(kCode)};
  }
  if (is_listed(var.name, kNamesWharfSets)) {
    return Error{quoted(var.name) + " is set by wharf itself and cannot be set in " +
                     std::string(layer_label(layer)),
                 std::string(kCode)};
  }
  if (layer == EnvLayer::kRepo && is_dangerous_env_name(var.name)) {
    return Error{quoted(var.name) + " " + std::string(danger_of(var.name)) +
                     "; the workspace's .wharf/env may not set it (set it in the config's "
                     "[env])",
                 std::string(kCode)};
  }
  if (var.value.find('\0') != std::string::npos)
    return Error{"the value of " + quoted(var.name) + " contains a NUL byte", std::string(kCode)};
  if (var.value.size() > kMaxEnvValueBytes) {
    return Error{"the value of " + quoted(var.name) + " is longer than " +
                     std::to_string(kMaxEnvValueBytes) + " bytes",
                 std::string(kCode)};
  }
  return ok_status();
}

}  // namespace

bool is_dangerous_env_name(std::string_view name) {
  return is_loader_name(name) || is_listed(name, kDangerousNames);
}

Status check_request_env_names(std::span<const EnvVar> vars, std::span<const std::string> allowed) {
  for (const EnvVar& var : vars) {
    if (!is_dangerous_env_name(var.name)) continue;
    if (std::find(allowed.begin(), allowed.end(), var.name) != allowed.end()) continue;
    return Error{quoted(var.name) + " " + std::string(danger_of(var.name)) +
                     "; a request may not set it (the operator can allow it with "
                     "[sessions] allow_env in config.toml, or set it in [env])",
                 std::string(kCode)};
  }
  return ok_status();
}

bool is_env_identifier(std::string_view name) {
  if (name.empty() || name.size() > 256) return false;
  auto first = static_cast<unsigned char>(name.front());
  if (!(std::isalpha(first) != 0 || first == '_') || first >= 0x80) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x80 && (std::isalnum(u) != 0 || u == '_');
  });
}

Result<EnvVar> parse_env_assignment(std::string_view spec) {
  auto eq = spec.find('=');
  if (eq == std::string_view::npos) {
    return Error{quoted(spec) + " has no '=': write KEY=VALUE (KEY= for an empty value)",
                 std::string(kCode)};
  }
  return EnvVar{std::string(spec.substr(0, eq)), std::string(spec.substr(eq + 1))};
}

Status check_env_layer(std::span<const EnvVar> vars, EnvLayer layer) {
  if (vars.size() > kMaxEnvVars) {
    return Error{std::string(layer_label(layer)) + " sets more than " +
                     std::to_string(kMaxEnvVars) + " variables",
                 std::string(kCode)};
  }
  std::set<std::string_view> seen;
  for (const EnvVar& var : vars) {
    if (auto checked = check_one(var, layer); !checked) return checked;
    if (!seen.insert(var.name).second) {
      return Error{quoted(var.name) + " is given twice in " + std::string(layer_label(layer)),
                   std::string(kCode)};
    }
  }
  return ok_status();
}

Result<EnvList> parse_env_specs(std::span<const std::string> specs) {
  EnvList vars;
  for (const std::string& spec : specs) {
    auto var = parse_env_assignment(spec);
    if (!var) return var.error();
    vars.push_back(std::move(var.value()));
  }
  if (auto checked = check_env_layer(vars, EnvLayer::kSession); !checked) return checked.error();
  return vars;
}

Result<EnvList> parse_env_file(std::string_view text, std::string_view source) {
  EnvList vars;
  std::set<std::string, std::less<>> seen;
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;

    auto at = [&](const Error& e) {
      return Error{std::string(source) + ":" + std::to_string(line_number) + ": " + e.message,
                   e.code};
    };
    auto var = parse_env_assignment(line);
    if (!var) return at(var.error());
    if (auto checked = check_one(var.value(), EnvLayer::kRepo); !checked)
      return at(checked.error());
    if (!seen.insert(var.value().name).second)
      return at(Error{quoted(var.value().name) + " is given twice", std::string(kCode)});
    if (vars.size() == kMaxEnvVars) {
      return at(
          Error{"more than " + std::to_string(kMaxEnvVars) + " variables", std::string(kCode)});
    }
    vars.push_back(std::move(var.value()));
  }
  return vars;
}

std::vector<std::string> layer_environment(std::span<const std::string> base,
                                           std::span<const EnvList* const> layers) {
  std::map<std::string, std::string, std::less<>> env;
  for (const std::string& entry : base) {
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const EnvList* layer : layers) {
    if (layer == nullptr) continue;
    for (const EnvVar& var : *layer) env[var.name] = var.value;
  }
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

}  // namespace wharf::core
