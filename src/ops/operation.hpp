// An operation is one thing a program may ask of the daemon: list sessions, start one,
// end one, read its screen, type keys or text into it, run a command in a shell and get
// its output and exit status, or wait for something to appear. Each is described once,
// in its own file, as a small descriptor in one table (tmux's cmd_entry idea), and
// reached three ways: the control socket (the `wharf` CLI and `wharf mcp`), /api/v1 over
// HTTP, and MCP over HTTP at /mcp. The three cannot drift apart.
//
// Each descriptor holds the one description of its arguments and of its answer: JSON
// Schemas, as JSON text. The input schema is what MCP's tools/list shows, what the
// arguments are checked against (ops/arguments.hpp reads names, types, bounds, enums and
// `required` from it) and what the OpenAPI document of /api/v1 says (server/openapi.hpp);
// the output schema is MCP's outputSchema and the OpenAPI response. Nothing else lists
// an operation's fields.
//
// Invariants: an operation checks every argument, and the caller's right to the session
// it names (core/ownership.hpp), before it touches anything; unknown arguments are
// refused by name; it answers a JSON object (MCP's structured content) that its output
// schema describes, or an Error whose code says what kind of failure it was; it never
// throws (run_operation() also turns a stray exception into an error, so a bad request
// costs only its own answer).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>
#include <span>
#include <string>
#include <string_view>

#include "app/session_service.hpp"
#include "core/ownership.hpp"
#include "core/result.hpp"

namespace wharf::ops {

namespace asio = boost::asio;

struct Context {
  app::SessionService& sessions;
  core::Caller caller;
};

using Answer = core::Result<boost::json::object>;

struct Operation {
  std::string_view name;           // also the MCP tool's name
  std::string_view title;          // a short human title
  std::string_view description;    // for a person or a model choosing what to call
  std::string_view input_schema;   // JSON Schema of the arguments, as JSON text
  std::string_view output_schema;  // JSON Schema of a successful answer, as JSON text
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = false;  // reaches beyond wharf's sessions (a shell command can do anything)
  asio::awaitable<Answer> (*run)(Context& context, const boost::json::object& args);
  // The answer as text for a reader (MCP's text content, the CLI); null: compact JSON.
  std::string (*render_text)(const boost::json::object& answer) = nullptr;
};

std::span<const Operation> all_operations();
const Operation* find_operation(std::string_view name);

// The operation's schemas, parsed once (the text is wharf's own: one that does not parse
// is a bug that the first test calling this finds).
const boost::json::object& input_schema(const Operation& operation);
const boost::json::object& output_schema(const Operation& operation);

// Runs `name` with `args`; unknown names and exceptions become errors.
asio::awaitable<Answer> run_operation(std::string_view name, Context& context,
                                      const boost::json::object& args);

// The text form of an operation's answer (render_text, else JSON).
std::string answer_text(const Operation& operation, const boost::json::object& answer);

// The operations, one per file.
extern const Operation kListSessions;
extern const Operation kNewSession;
extern const Operation kEndSession;
extern const Operation kRenameSession;
extern const Operation kMoveSession;
extern const Operation kReadScreen;
extern const Operation kSendKeys;
extern const Operation kSendText;
extern const Operation kRunCommand;
extern const Operation kWaitFor;
extern const Operation kNotify;
extern const Operation kPaneShow;
extern const Operation kPaneClear;
extern const Operation kListEntries;
extern const Operation kPairDevice;
extern const Operation kListDevices;
extern const Operation kRevokeDevice;
extern const Operation kListDecisions;
extern const Operation kAnswerDecision;

}  // namespace wharf::ops
