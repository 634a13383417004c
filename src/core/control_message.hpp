// The text-frame messages of the browser protocol (docs/protocol.md): parsing what a
// client sends, and building what the server sends. Parsing never throws: any input
// yields either a message or a ProtocolError naming a stable code, so a bad client gets
// an answer and its sessions go on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/capabilities.hpp"
#include "core/exit_status.hpp"
#include "core/launch_request.hpp"
#include "core/terminal_size.hpp"

namespace wharf::core {

// Largest message (text or binary) a client may send; larger closes with 1009.
inline constexpr std::size_t kMaxClientMessageBytes = 64 * 1024;

using SessionId = std::uint64_t;
using WindowId = std::uint64_t;

struct AttachRequest {
  std::optional<SessionId> session;
  bool start = false;
  // The page's window token (hex, 32 to 64 digits; empty: none): the same after a reload
  // of the same browser tab, so a driver that reloads gets its lease back
  // (core/session_registry.hpp, "Driver grace"). A secret: never logged or echoed.
  std::string window_token;
};
struct DetachRequest {};
struct NewRequest {
  LaunchRequest launch;
};
struct EndRequest {
  std::optional<SessionId> session;
};
struct RenameRequest {
  SessionId session = 0;
  std::string name;
};
struct ReorderRequest {
  std::vector<SessionId> order;
};
struct TakeRequest {};
struct ResizeRequest {
  TerminalSize size;
};
struct AckRequest {
  std::uint64_t bytes = 0;
};
struct PingRequest {};
// Text the driving window types as one paste (the composer); see core/paste_text.hpp.
struct PasteRequest {
  std::string text;
  bool submit = false;
};
// The person has looked at a session: its finished/waiting activity is cleared.
struct SeenRequest {
  std::optional<SessionId> session;
};

// Whether the window's page is visible and focused with a person there: no notification
// leaves the page for the session such a window shows (app/notifier.hpp).
struct LookingRequest {
  bool looking = false;
};

// An ended session the page still shows as a tab (docs/protocol.md, "Ended sessions"):
// `ended_screen` asks for its last screen, `dismiss` closes its tab in every window.
struct EndedScreenRequest {
  SessionId session = 0;
};
struct DismissRequest {
  SessionId session = 0;
};

inline constexpr std::size_t kMaxPasteBytes = 48 * 1024;

// A form in the session's web pane was submitted (core/pane.hpp): `page` is the token of
// the page it belongs to, `fields` the form's fields as JSON text (an object), checked by
// core::check_feedback where they are filed.
struct PaneFeedbackRequest {
  SessionId session = 0;
  std::string page;
  std::string fields;
};

// A person's answer to a pending decision (app/decision_desk.hpp) from the page's card.
struct DecideRequest {
  std::uint64_t id = 0;
  bool approve = false;
  std::string note;  // at most kMaxDecideNoteBytes
};
inline constexpr std::size_t kMaxDecideNoteBytes = 1000;

struct ProtocolError {
  std::string code;  // bad_json, bad_message, unknown_type, bad_field
  std::string message;
};

using ClientMessage =
    std::variant<AttachRequest, DetachRequest, NewRequest, EndRequest, RenameRequest,
                 ReorderRequest, TakeRequest, ResizeRequest, AckRequest, PingRequest, PasteRequest,
                 SeenRequest, LookingRequest, PaneFeedbackRequest, EndedScreenRequest,
                 DismissRequest, DecideRequest, ProtocolError>;

ClientMessage parse_client_message(std::string_view text);

// One row of the `sessions` message.
struct SessionSummary {
  SessionId id = 0;
  std::string name;
  std::string program;  // the catalog entry's name
  std::string kind;     // "shell", "agent" or "action"
  std::string cwd;
  std::int64_t created_ms = 0;
  bool ending = false;
  std::optional<WindowId> driver;
  std::size_t windows = 0;
  std::string activity = "idle";  // idle, working, finished, waiting (core/activity.hpp)
  bool shared_shell = false;
  Capabilities capabilities;  // what its sandbox enforces
};

// One ended session the page keeps as a tab until someone closes it: a program that
// ended by itself with a failure (not status 0, or a signal, or a lost host).
struct EndedSummary {
  SessionId id = 0;
  std::string name;
  std::string program;
  std::string kind;
  std::string cwd;
  std::int64_t created_ms = 0;
  std::int64_t ended_ms = 0;
  ExitStatus status;
  bool crashed = false;  // its host went away without a word
};

// `keeps_sessions`: stopping this daemon leaves its sessions running (--keep-sessions).
std::string hello_message(WindowId window, bool keeps_sessions = false);
std::string sessions_message(const std::vector<SessionSummary>& sessions,
                             const std::vector<EndedSummary>& ended = {});
// The last screen of an ended session, as plain text (answer to `ended_screen`).
std::string ended_screen_message(const EndedSummary& ended, std::string_view screen);
std::string attached_message(SessionId session, bool driver, int pid, TerminalSize size);
std::string detached_message(std::optional<SessionId> session, std::string_view reason);
std::string snapshot_message(SessionId session, std::size_t bytes, TerminalSize size);
std::string driver_message(SessionId session, bool driver, std::optional<WindowId> by);
std::string size_message(TerminalSize size);
// `kept`: the session stays as an ended tab (EndedSummary) until someone closes it.
std::string exit_message(SessionId session, const ExitStatus& status, std::optional<SessionId> next,
                         bool kept = false);
std::string pong_message();
std::string pasted_message(SessionId session, std::size_t bytes, std::size_t removed);
std::string chime_message(SessionId session);
// `sessions_kept`: the daemon leaves its sessions running (a restart, --keep-sessions),
// so a window reconnects to the same sessions when the next daemon is up.
std::string stopping_message(bool sessions_kept);
// The window's key was replaced (`wharf key rotate`); the connection closes next.
std::string key_rotated_message();
std::string error_message(std::string_view code, std::string_view message);

}  // namespace wharf::core
