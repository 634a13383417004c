#include "core/config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "core/config_reading.hpp"
#include "core/pane.hpp"
#include "core/shown_text.hpp"

namespace wharf::core {
namespace {

using namespace config_reading;

PromptStyle prompt_style_of(const toml::node& node, std::string& flag) {
  std::string value = string_of(node, "prompt");
  if (value == "none") return PromptStyle::kNone;
  if (value == "argument") return PromptStyle::kArgument;
  if (value.size() > 1 && value.front() == '-' &&
      std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
      })) {
    flag = value;
    return PromptStyle::kFlag;
  }
  refuse(node, "'prompt' is \"argument\", \"none\" or the flag that takes it, like \"--message\"");
}

EntryConfig entry_of(std::string_view section, std::string_view name, const toml::node& node,
                     bool action, bool shell = false) {
  std::string where = "[" + std::string(section) + "." + show_key(name) + "]";
  if (!is_entry_name(name)) {
    refuse(node, where +
                     ": a name is letters, digits, '-', '_' or '.', starting with a letter or "
                     "digit, at most 32 characters");
  }
  EntryConfig entry{.name = std::string(name), .line = line_of(node)};
  if (shell) {  // a shell is found on the machine; only its sandbox is the operator's
    std::map<std::string_view, std::function<void(const toml::node&)>> only;
    sandbox_keys(only, entry.sandbox, where);
    each_key(table_of(node, where), where, only);
    return entry;
  }
  std::map<std::string_view, std::function<void(const toml::node&)>> known{
      {"enabled", [&](const toml::node& n) { entry.enabled = bool_of(n, "enabled"); }},
      {"argv",
       [&](const toml::node& n) {
         entry.argv = strings_of(n, "argv");
         if (entry.argv.empty() || entry.argv.front().empty())
           refuse(n, where + ": 'argv' needs at least the program");
       }},
      {"shell", [&](const toml::node& n) { entry.shell_command = string_of(n, "shell"); }},
      {"keep_screen", [&](const toml::node& n) { entry.keep_screen = bool_of(n, "keep_screen"); }},
  };
  if (action) {
    known.emplace("interactive",
                  [&](const toml::node& n) { entry.interactive = bool_of(n, "interactive"); });
  } else {
    known.emplace("args", [&](const toml::node& n) { entry.extra_args = strings_of(n, "args"); });
    known.emplace("prompt", [&](const toml::node& n) {
      entry.prompt = prompt_style_of(n, entry.prompt_flag);
    });
    known.emplace("resume",
                  [&](const toml::node& n) { entry.resume_args = strings_of(n, "resume"); });
  }
  sandbox_keys(known, entry.sandbox, where);
  each_key(table_of(node, where), where, known);

  if (!entry.argv.empty() && entry.shell_command)
    refuse(node, where + ": give 'argv' or 'shell', not both");
  if (entry.shell_command && entry.shell_command->empty())
    refuse(node, where + ": 'shell' is empty");
  if (raises_privileges(entry.argv) || raises_privileges(entry.extra_args) ||
      (entry.shell_command && raises_privileges(*entry.shell_command))) {
    refuse(node, where +
                     " runs sudo or doas; wharf never starts anything that raises "
                     "privileges");
  }
  return entry;
}

Config walk(const toml::table& root, std::string_view source) {
  Config config{.source = std::string(source)};
  auto entries = [&](std::string_view section, const toml::node& node, bool action,
                     bool shell = false) {
    for (const auto& [name, body] : table_of(node, "[" + std::string(section) + "]")) {
      auto entry = entry_of(section, name.str(), body, action, shell);
      (shell ? config.shells : action ? config.actions : config.agents).push_back(std::move(entry));
    }
  };
  each_key(
      root, "the file",
      {
          {"server",
           [&](const toml::node& node) {
             each_key(
                 table_of(node, "[server]"), "[server]",
                 {
                     {"port",
                      [&](const toml::node& n) {
                        config.port = static_cast<std::uint16_t>(integer_of(n, "port", 0, 65535));
                      }},
                     {"listen",
                      [&](const toml::node& n) { config.listen = string_of(n, "listen"); }},
                     {"workspace",
                      [&](const toml::node& n) { config.workspace = string_of(n, "workspace"); }},
                     {"max_sessions",
                      [&](const toml::node& n) {
                        config.max_sessions =
                            static_cast<std::size_t>(integer_of(n, "max_sessions", 1, 10000));
                      }},
                     {"idle_expiry",
                      [&](const toml::node& n) {
                        config.idle_expiry_seconds = static_cast<unsigned>(
                            integer_of(n, "idle_expiry", 0, 365LL * 24 * 3600));
                      }},
                     {"window_timeout",
                      [&](const toml::node& n) {
                        config.window_timeout_seconds = static_cast<unsigned>(
                            integer_of(n, "window_timeout", 10, 7LL * 24 * 3600));
                      }},
                     {"keep_sessions",
                      [&](const toml::node& n) {
                        config.keep_sessions = bool_of(n, "keep_sessions");
                      }},
                     {"public_url",
                      [&](const toml::node& n) {
                        std::string url = string_of(n, "public_url");
                        if (!is_public_url(url))
                          refuse(n,
                                 "'public_url' is a scheme and host, like "
                                 "\"https://box.example.ts.net\" (http or https, an optional "
                                 "port, no path, query or user)");
                        while (url.ends_with('/')) url.pop_back();
                        config.public_url = url;
                      }},
                     {"allowed_hosts",
                      [&](const toml::node& n) {
                        config.allowed_hosts = strings_of(n, "allowed_hosts");
                        for (std::string& host : config.allowed_hosts) {
                          if (!is_host_name(host))
                            refuse(n,
                                   "'allowed_hosts' holds host names (letters, digits, '-' "
                                   "and '.'), not '" +
                                       shown_text(host) + "'");
                          for (char& c : host)
                            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                        }
                      }},
                     {"tls_cert",
                      [&](const toml::node& n) { config.tls_cert = string_of(n, "tls_cert"); }},
                     {"tls_key",
                      [&](const toml::node& n) { config.tls_key = string_of(n, "tls_key"); }},
                     {"tls",
                      [&](const toml::node& n) {
                        config.tls = string_of(n, "tls");
                        if (config.tls != "self-signed" && config.tls != "off")
                          refuse(n,
                                 "'tls' is \"self-signed\" or \"off\" (a certificate of your "
                                 "own: tls_cert and tls_key)");
                      }},
                     {"log_level",
                      [&](const toml::node& n) {
                        std::string level = string_of(n, "log_level");
                        static const std::set<std::string> kLevels{"trace", "debug", "info",
                                                                   "warn",  "error", "off"};
                        if (!kLevels.contains(level))
                          refuse(n, "'log_level' is trace, debug, info, warn, error or off");
                        config.log_level = level;
                      }},
                 });
           }},
          {"sessions",
           [&](const toml::node& node) {
             each_key(
                 table_of(node, "[sessions]"), "[sessions]",
                 {
                     {"default",
                      [&](const toml::node& n) { config.default_entry = string_of(n, "default"); }},
                     {"directory",
                      [&](const toml::node& n) {
                        config.default_directory = string_of(n, "directory");
                      }},
                     {"context_file",
                      [&](const toml::node& n) {
                        config.context_file = string_of(n, "context_file");
                      }},
                     {"shared_shell",
                      [&](const toml::node& n) {
                        config.shared_shell = bool_of(n, "shared_shell");
                      }},
                     {"shell_integration",
                      [&](const toml::node& n) {
                        config.shell_integration = bool_of(n, "shell_integration");
                      }},
                     {"driver_grace_ms",
                      [&](const toml::node& n) {
                        config.driver_grace_ms =
                            static_cast<unsigned>(integer_of(n, "driver_grace_ms", 0, 600000));
                      }},
                     {"sandbox",
                      [&](const toml::node& n) { config.sandbox_default = bool_of(n, "sandbox"); }},
                     {"allow_env",
                      [&](const toml::node& n) {
                        config.allow_env = strings_of(n, "allow_env");
                        for (const std::string& name : config.allow_env) {
                          if (!is_env_identifier(name))
                            refuse(n, "'allow_env' names variables: '" + shown_text(name) +
                                          "' is not a variable name");
                        }
                      }},
                 });
           }},
          {"uploads",
           [&](const toml::node& node) {
             each_key(table_of(node, "[uploads]"), "[uploads]",
                      {
                          {"max_bytes",
                           [&](const toml::node& n) {
                             config.upload_max_bytes = static_cast<std::uint64_t>(
                                 integer_of(n, "max_bytes", 1, 1LL << 30));
                           }},
                          {"any_type",
                           [&](const toml::node& n) {
                             config.upload_any_type = bool_of(n, "any_type");
                           }},
                      });
           }},
          {"pane",
           [&](const toml::node& node) {
             each_key(table_of(node, "[pane]"), "[pane]",
                      {
                          {"max_bytes",
                           [&](const toml::node& n) {
                             config.pane_max_bytes = static_cast<std::size_t>(integer_of(
                                 n, "max_bytes", 1, static_cast<long long>(kMaxPaneBytesLimit)));
                           }},
                      });
           }},
          {"page",
           [&](const toml::node& node) {
             PageDefaults& page = config.page;
             auto one_of = [](const toml::node& n, std::string_view key,
                              std::initializer_list<std::string_view> allowed) {
               std::string value = string_of(n, key);
               std::string names;
               for (std::string_view a : allowed) {
                 if (value == a) return value;
                 names += (names.empty() ? "" : ", ") + std::string(a);
               }
               refuse(n, "'" + std::string(key) + "' is one of " + names);
             };
             each_key(
                 table_of(node, "[page]"), "[page]",
                 {
                     {"font_size",
                      [&](const toml::node& n) {
                        page.font_size = static_cast<int>(integer_of(n, "font_size", 8, 32));
                      }},
                     {"font_family",
                      [&](const toml::node& n) {
                        std::string family = string_of(n, "font_family");
                        if (family.empty() || family.size() > 200)
                          refuse(n, "'font_family' is a CSS font list of 1 to 200 bytes");
                        page.font_family = family;
                      }},
                     {"theme",
                      [&](const toml::node& n) {
                        page.theme = one_of(n, "theme", {"dark", "light", "system"});
                      }},
                     {"cursor_style",
                      [&](const toml::node& n) {
                        page.cursor_style =
                            one_of(n, "cursor_style", {"block", "bar", "underline"});
                      }},
                     {"cursor_blink",
                      [&](const toml::node& n) { page.cursor_blink = bool_of(n, "cursor_blink"); }},
                     {"chime", [&](const toml::node& n) { page.chime = bool_of(n, "chime"); }},
                     {"notifications",
                      [&](const toml::node& n) {
                        page.notifications = bool_of(n, "notifications");
                      }},
                     {"renderer",
                      [&](const toml::node& n) {
                        page.renderer = one_of(n, "renderer", {"webgl", "dom"});
                      }},
                     {"search_key",
                      [&](const toml::node& n) { page.search_key = bool_of(n, "search_key"); }},
                     {"shift_enter_newline",
                      [&](const toml::node& n) {
                        page.shift_enter_newline = bool_of(n, "shift_enter_newline");
                      }},
                     {"focus", [&](const toml::node& n) { page.focus = bool_of(n, "focus"); }},
                     {"ended_auto_close",
                      [&](const toml::node& n) {
                        page.ended_auto_close = static_cast<unsigned>(
                            integer_of(n, "ended_auto_close", 0, 7 * 24 * 3600));
                      }},
                 });
           }},
          {"notifications",
           [&](const toml::node& node) { notifications_section(node, config.notifications); }},
          {"sandbox", [&](const toml::node& node) { sandbox_section(node, config.sandbox); }},
          {"env",
           [&](const toml::node& node) {
             for (const auto& [name, value] : table_of(node, "[env]")) {
               EnvVar var{std::string(name.str()), string_of(value, name.str())};
               config.env.push_back(var);
               if (auto checked = check_env_layer(config.env, EnvLayer::kMachine); !checked)
                 refuse(value, "[env]: " + checked.error().message);
             }
           }},
          {"agents", [&](const toml::node& node) { entries("agents", node, false); }},
          {"actions", [&](const toml::node& node) { entries("actions", node, true); }},
          {"shells", [&](const toml::node& node) { entries("shells", node, false, true); }},
      });
  return config;
}

bool privileged_program(std::string_view word) {
  auto slash = word.rfind('/');
  std::string_view base = slash == std::string_view::npos ? word : word.substr(slash + 1);
  return base == "sudo" || base == "doas";
}

}  // namespace

bool is_entry_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  if (std::isalnum(static_cast<unsigned char>(name.front())) == 0) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x80 && (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.');
  });
}

bool is_host_name(std::string_view host) {
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.') return false;
  std::size_t label = 0;
  for (char c : host) {
    if (c == '.') {
      if (label == 0) return false;
      label = 0;
      continue;
    }
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || ++label > 63) return false;
  }
  return true;
}

bool is_public_url(std::string_view url) {
  std::string_view rest;
  if (url.starts_with("https://"))
    rest = url.substr(8);
  else if (url.starts_with("http://"))
    rest = url.substr(7);
  else
    return false;
  if (rest.ends_with('/')) rest.remove_suffix(1);
  std::string_view host = rest;
  if (auto colon = rest.rfind(':'); colon != std::string_view::npos && !rest.starts_with('[')) {
    host = rest.substr(0, colon);
    std::string_view port = rest.substr(colon + 1);
    if (port.empty() || port.size() > 5) return false;
    unsigned value = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value == 0 || value > 65535) return false;
  }
  return is_host_name(host);
}

bool raises_privileges(const std::vector<std::string>& argv) {
  return std::any_of(argv.begin(), argv.end(),
                     [](const std::string& word) { return privileged_program(word); });
}

// A shell string is split wherever a command word could begin or end, so `x;sudo y`,
// `$(sudo y)` and `/usr/bin/doas y` are all caught; a false alarm on a word that merely
// is "sudo" is the safe side.
bool raises_privileges(std::string_view shell_command) {
  std::string word;
  auto flush = [&] {
    bool hit = privileged_program(word);
    word.clear();
    return hit;
  };
  for (char c : shell_command) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '/' || c == '_' || c == '-' || c == '.') {
      word.push_back(c);
    } else if (flush()) {
      return true;
    }
  }
  return flush();
}

Result<Config> parse_config(std::string_view text, std::string_view source) {
  auto at = [&](int line, const std::string& message) {
    return Error{std::string(source) + ":" + std::to_string(line) + ": " + message, "bad_config"};
  };
  if (text.size() > kMaxConfigBytes) return at(1, "the file is larger than 1 MiB");
  try {
    toml::table root = toml::parse(text, source);
    return walk(root, source);
  } catch (const toml::parse_error& e) {
    return at(static_cast<int>(e.source().begin.line), std::string(e.description()));
  } catch (const ConfigError& e) {
    return at(e.line, e.message);
  }
}

}  // namespace wharf::core
