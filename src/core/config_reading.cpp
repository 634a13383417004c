// The value readers of config.toml (see config_reading.hpp).
#include "core/config_reading.hpp"

#include "core/shown_text.hpp"

namespace wharf::core::config_reading {

int line_of(const toml::node& node) {
  return static_cast<int>(node.source().begin.line);
}

[[noreturn]] void refuse(const toml::node& node, std::string message) {
  throw ConfigError{line_of(node), std::move(message)};
}

std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "true or false";
    case toml::node_type::array:
      return "a list";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date or time";
  }
}

std::string show_key(std::string_view key) {
  return shown_text(key);
}

const toml::table& table_of(const toml::node& node, std::string_view where) {
  if (const toml::table* t = node.as_table()) return *t;
  refuse(node, std::string(where) + " must be a table, not " + type_name(node));
}

std::string string_of(const toml::node& node, std::string_view key) {
  if (const auto* s = node.as_string()) {
    const std::string& value = s->get();
    if (value.find('\0') != std::string::npos)
      refuse(node, "'" + std::string(key) + "' contains a NUL byte");
    return value;
  }
  refuse(node, "'" + std::string(key) + "' must be a string, not " + type_name(node));
}

bool bool_of(const toml::node& node, std::string_view key) {
  if (const auto* b = node.as_boolean()) return b->get();
  refuse(node, "'" + std::string(key) + "' must be true or false, not " + type_name(node));
}

std::int64_t integer_of(const toml::node& node, std::string_view key, std::int64_t low,
                        std::int64_t high) {
  const auto* i = node.as_integer();
  if (i == nullptr)
    refuse(node, "'" + std::string(key) + "' must be an integer, not " + type_name(node));
  std::int64_t value = i->get();
  if (value < low || value > high) {
    refuse(node, "'" + std::string(key) + "' must be between " + std::to_string(low) + " and " +
                     std::to_string(high));
  }
  return value;
}

std::vector<std::string> strings_of(const toml::node& node, std::string_view key) {
  const toml::array* array = node.as_array();
  if (array == nullptr)
    refuse(node, "'" + std::string(key) + "' must be a list of strings, not " + type_name(node));
  std::vector<std::string> out;
  for (const toml::node& item : *array) out.push_back(string_of(item, key));
  return out;
}

void each_key(const toml::table& table, std::string_view where,
              const std::map<std::string_view, std::function<void(const toml::node&)>>& known) {
  for (const auto& [key, node] : table) {
    auto handler = known.find(key.str());
    if (handler == known.end()) {
      std::string names;
      for (const auto& [name, unused] : known)
        names += (names.empty() ? "" : ", ") + std::string(name);
      refuse(node, "unknown key '" + show_key(key.str()) + "' in " + std::string(where) +
                       " (known: " + names + ")");
    }
    handler->second(node);
  }
}

}  // namespace wharf::core::config_reading
