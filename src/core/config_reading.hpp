// Reading config.toml's values (core/config.cpp and its sections): each reader checks
// one value's type and range and refuses with the file's line and a sentence, by throwing
// ConfigError, which parse_config catches once. Internal to core's config parsing.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"

namespace wharf::core::config_reading {

// Every failure of the walk is thrown as this and caught once in parse_config: a config
// is refused at its first error, and the throw keeps each check one line.
struct ConfigError {
  int line;
  std::string message;
};

int line_of(const toml::node& node);
[[noreturn]] void refuse(const toml::node& node, std::string message);
std::string show_key(std::string_view key);
const toml::table& table_of(const toml::node& node, std::string_view where);
std::string string_of(const toml::node& node, std::string_view key);
bool bool_of(const toml::node& node, std::string_view key);
std::int64_t integer_of(const toml::node& node, std::string_view key, std::int64_t low,
                        std::int64_t high);
std::vector<std::string> strings_of(const toml::node& node, std::string_view key);
// Walks a table's keys, refusing any key the handler does not know.
void each_key(const toml::table& table, std::string_view where,
              const std::map<std::string_view, std::function<void(const toml::node&)>>& known);

// The [notifications] section (config_notifications.cpp).
void notifications_section(const toml::node& node, NotificationsConfig& out);
// Adds the sandbox keys of a catalog entry to `known` (config_entry_sandbox.cpp).
void sandbox_keys(std::map<std::string_view, std::function<void(const toml::node&)>>& known,
                  SandboxDeclaration& out, const std::string& where);
// The [sandbox] section (config_sandbox.cpp).
void sandbox_section(const toml::node& node, SandboxConfig& out);

}  // namespace wharf::core::config_reading
