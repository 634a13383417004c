// The operator's config file (`~/.config/wharf/config.toml`, docs/config.md), parsed
// from text with toml++ into plain values. Reading the file is the caller's business,
// so this is pure and fuzzable.
//
// Invariants: every key and every type is checked; an unknown key, a wrong type or a
// value out of range is refused with "<file>:<line>: <reason>", never ignored, because a
// typo silently ignored is a setting the operator believes is on. Catalog entries are
// argv arrays (or one explicit reviewed shell string) and none may raise privileges
// (sudo, doas): those checks happen here, at load, so a bad entry stops the start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/env_spec.hpp"
#include "core/notification_policy.hpp"
#include "core/result.hpp"

namespace wharf::core {

// How an agent takes the first message of a session.
enum class PromptStyle {
  kNone,      // it cannot: the prompt is refused
  kArgument,  // as its last argument
  kFlag,      // as the value of a flag (prompt_flag)
};

// What one entry declares about its sandbox (docs/sandbox.md); unset: wharf's default
// for its kind. Paths are as written (`~/x`, absolute); sandbox/ resolves and checks them.
struct SandboxDeclaration {
  std::optional<bool> enabled;                       // `sandbox = true|false`
  std::optional<std::vector<std::string>> writable;  // [*.NAME.filesystem] writable
  std::optional<std::vector<std::string>> readable;  // [*.NAME.filesystem] readable
  std::optional<std::string> network;                // none, allow, host or agent
  std::vector<std::string> allow;                    // "host[:port]" lines
  int line = 0;
};

// An agent or action the operator defined, or a change to a built-in agent; for
// [shells.NAME], only the sandbox declaration.
struct EntryConfig {
  std::string name;
  int line = 0;
  bool enabled = true;
  std::vector<std::string> argv;             // operator-defined: the program and its arguments
  std::optional<std::string> shell_command;  // instead of argv: one reviewed `sh -c` string
  std::vector<std::string> extra_args;       // built-in agents: appended to wharf's own
  std::optional<PromptStyle> prompt;
  std::string prompt_flag;
  std::optional<std::vector<std::string>> resume_args;
  bool interactive = false;  // actions: may it run as a session
  // Keep the last screen when a session of it ends (`wharf history ID --screen`).
  bool keep_screen = true;
  SandboxDeclaration sandbox;
};

// [page]: the operator's defaults for the page's settings (web/settings.js); a browser's
// own choice wins over them. Unset: wharf's built-in default.
struct PageDefaults {
  std::optional<int> font_size;             // 8 to 32
  std::optional<std::string> font_family;   // a CSS font list
  std::optional<std::string> theme;         // dark, light, system
  std::optional<std::string> cursor_style;  // block, bar, underline
  std::optional<bool> cursor_blink;
  std::optional<bool> chime;
  std::optional<bool> notifications;
  std::optional<std::string> renderer;  // webgl, dom
  std::optional<bool> search_key;       // Ctrl+F searches the terminal
  std::optional<bool> shift_enter_newline;
  // Whether a tap on the terminal raises the soft keyboard on a touch device (default:
  // no; the toolbar's keyboard key does). The page's `?focus=0|1` wins over it.
  std::optional<bool> focus;
  // Seconds after which an ended session's tab closes by itself; 0: never (the default).
  std::optional<unsigned> ended_auto_close;
};

// [notifications]: notifications that leave the page (app/notifier.hpp). Every channel is
// off until configured; the rules (debounce, quiet hours) apply to all of them.
struct NotificationsConfig {
  std::optional<unsigned> debounce_seconds;         // 0..86400; default 60
  std::optional<QuietHours> quiet_hours;            // local "HH:MM-HH:MM"
  bool include_screen = false;                      // the last screen lines in the message
  std::optional<std::string> ntfy_url;              // http(s)://host/topic
  std::optional<std::string> ntfy_token;            // sent as Authorization: Bearer
  std::vector<std::string> command;                 // argv; the notification's JSON on stdin
  std::optional<unsigned> command_timeout_seconds;  // 1..600; default 10
  // Web Push's VAPID `sub` (RFC 8292): "mailto:..." or "https://..." where a push
  // service may reach the operator. Default: app::default_vapid_subject().
  std::optional<std::string> vapid_subject;
};

// [sandbox]: sessions in a sandbox (docs/sandbox.md).
struct SandboxConfig {
  // How long a pending decision (a guarded `git push`) waits for an answer before it is
  // refused as expired; 10..86400, default 600 (core/decision_book.hpp).
  std::optional<unsigned> decision_expiry_seconds;
  // Where declared paths may lie (`~` allowed); empty: HOME and the workspace.
  std::vector<std::string> roots;
};

struct Config {
  std::string source;  // the file it came from, for messages
  // [server]
  std::optional<std::uint16_t> port;
  std::optional<std::string> listen;
  std::optional<std::string> workspace;
  std::optional<std::size_t> max_sessions;
  std::optional<unsigned> idle_expiry_seconds;
  std::optional<unsigned> window_timeout_seconds;
  std::optional<std::string> log_level;
  // The address people reach wharf at when it is not the one it binds (a reverse proxy,
  // Tailscale): deep links in notifications are built on it, and its host is accepted
  // in Host and Origin. Scheme and host (and port), no path; no trailing slash.
  std::optional<std::string> public_url;
  // Further names a request's Host may carry (a proxy's), accepted deliberately; the
  // Origin check follows the Host.
  std::vector<std::string> allowed_hosts;
  // HTTPS on wharf's own port (docs/remote.md): a certificate and key in PEM files, or
  // tls = "self-signed" (one wharf makes and keeps in the state dir), or "off".
  std::optional<std::string> tls_cert;
  std::optional<std::string> tls_key;
  std::optional<std::string> tls;
  // Whether Ctrl-C / SIGTERM leaves the sessions running for the next daemon.
  std::optional<bool> keep_sessions;
  // [sessions]
  std::optional<std::string> default_entry;
  std::optional<std::string> default_directory;
  std::optional<std::string> context_file;
  std::optional<bool> shared_shell;       // keep a shell for programs that name no session
  std::optional<bool> shell_integration;  // OSC 133 marks in bash and zsh sessions (default on)
  // How long a driving window that went away (a reload) keeps its lease; 0: hand it on at once.
  std::optional<unsigned> driver_grace_ms;
  // Dangerous environment names (core::kDangerousNames) a request may set anyway.
  std::vector<std::string> allow_env;
  // Whether sessions run in a sandbox unless their entry or the request says otherwise.
  std::optional<bool> sandbox_default;
  // [uploads]
  std::optional<std::uint64_t> upload_max_bytes;
  std::optional<bool> upload_any_type;  // accept files that are not images
  // [pane]
  std::optional<std::size_t> pane_max_bytes;  // the largest page a session may publish
  // [page]
  PageDefaults page;
  // [notifications]
  NotificationsConfig notifications;
  // [sandbox]
  SandboxConfig sandbox;
  // [env]: the machine layer
  EnvList env;
  // [agents.NAME], [actions.NAME]
  std::vector<EntryConfig> agents;
  std::vector<EntryConfig> actions;
  // [shells.NAME]: a shell's sandbox declaration (shells take nothing else)
  std::vector<EntryConfig> shells;
};

inline constexpr std::size_t kMaxConfigBytes = 1 << 20;

Result<Config> parse_config(std::string_view text, std::string_view source);

// Whether an argv (or a shell string) would run sudo or doas.
bool raises_privileges(const std::vector<std::string>& argv);
bool raises_privileges(std::string_view shell_command);

// A catalog entry name: what the tab shows and the API names. Letters, digits, '-', '_'
// and '.', starting with a letter or digit, at most 32 bytes.
bool is_entry_name(std::string_view name);

// A DNS name as `allowed_hosts` takes it: labels of letters, digits and '-', joined by '.'.
bool is_host_name(std::string_view host);
// `http(s)://host[:port]` with nothing after but an optional '/'.
bool is_public_url(std::string_view url);

}  // namespace wharf::core
