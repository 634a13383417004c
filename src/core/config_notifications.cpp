// config.toml's [notifications] section (see config_reading.hpp).
#include <algorithm>

#include "core/config_reading.hpp"
#include "core/shown_text.hpp"

namespace wharf::core::config_reading {

// [notifications] (docs/config.md). A function of its own so walk() stays a table of
// sections. The token and the URL end up in HTTP headers and the request line: control
// characters and spaces are refused here, so nothing the file says can add a header.
void notifications_section(const toml::node& node, NotificationsConfig& out) {
  auto header_safe = [](std::string_view value) {
    return std::all_of(value.begin(), value.end(), [](char c) { return c > ' ' && c != '\x7f'; });
  };
  each_key(
      table_of(node, "[notifications]"), "[notifications]",
      {
          {"debounce",
           [&](const toml::node& n) {
             out.debounce_seconds =
                 static_cast<unsigned>(integer_of(n, "debounce", 0, kMaxNotifyDebounce.count()));
           }},
          {"quiet_hours",
           [&](const toml::node& n) {
             auto hours = parse_quiet_hours(string_of(n, "quiet_hours"));
             if (!hours) refuse(n, hours.error().message);
             out.quiet_hours = hours.value();
           }},
          {"include_screen",
           [&](const toml::node& n) { out.include_screen = bool_of(n, "include_screen"); }},
          {"ntfy_url",
           [&](const toml::node& n) {
             std::string url = string_of(n, "ntfy_url");
             std::string_view rest = url;
             if (rest.starts_with("https://")) {
               rest.remove_prefix(8);
             } else if (rest.starts_with("http://")) {
               rest.remove_prefix(7);
             } else {
               refuse(n,
                      "'ntfy_url' is an http:// or https:// URL of a topic, like "
                      "\"https://ntfy.sh/my-topic\"");
             }
             auto slash = rest.find('/');
             if (rest.empty() || slash == 0 || !header_safe(url) || url.size() > 2048)
               refuse(n,
                      "'ntfy_url' needs a host and no spaces, like \"https://ntfy.sh/my-topic\"");
             if (slash == std::string_view::npos || slash + 1 == rest.size())
               refuse(n,
                      "'ntfy_url' names a topic after the host, like \"https://ntfy.sh/my-topic\"");
             out.ntfy_url = url;
           }},
          {"ntfy_token",
           [&](const toml::node& n) {
             std::string token = string_of(n, "ntfy_token");
             if (token.empty() || token.size() > 512 || !header_safe(token))
               refuse(
                   n,
                   "'ntfy_token' is an access token of 1 to 512 printable characters, no spaces");
             out.ntfy_token = token;
           }},
          {"command",
           [&](const toml::node& n) {
             out.command = strings_of(n, "command");
             if (out.command.empty() || out.command.front().empty())
               refuse(n,
                      "'command' is a program and its arguments, like [\"notify-send-json\"] "
                      "(no shell; the notification comes as JSON on its standard input)");
           }},
          {"command_timeout",
           [&](const toml::node& n) {
             out.command_timeout_seconds =
                 static_cast<unsigned>(integer_of(n, "command_timeout", 1, 600));
           }},
          {"vapid_subject",
           [&](const toml::node& n) {
             std::string subject = string_of(n, "vapid_subject");
             bool scheme = subject.starts_with("mailto:") || subject.starts_with("https://");
             if (!scheme || subject.size() < 9 || subject.size() > 256 || !header_safe(subject))
               refuse(
                   n,
                   "'vapid_subject' is how a push service reaches you: \"mailto:you@example.com\" "
                   "or an https:// URL, no spaces");
             out.vapid_subject = subject;
           }},
      });
}

}  // namespace wharf::core::config_reading
