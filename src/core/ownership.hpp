// Who may use which session: every operation on a session checks its owner first.
//
// A caller is one of three: whoever holds the access key (the browser, and REST or MCP
// over HTTP with the key), the user's own CLI outside any session (the Unix socket, peer
// uid checked), or a program inside a wharf session (identified by its session). The
// first two are the user and may do anything; a process is the local user only when
// nothing ties it to wharf (server/control_listener.cpp asks app::SessionService). A program inside
// session N is less trusted, since an agent runs there: it may read, drive and end the sessions it
// started (creator "session:N") and read and drive, but not end, the shared shell; nothing else.
//
// Every session stores its creator_label() when it starts; may_access() compares that
// label, so the rule needs nothing but the target's stored creator and whether it is the
// shared shell. Refusals carry code "not_permitted" and say which rule applied and who
// started the target, so an agent (or its user) can tell what to do instead.
#pragma once

#include <string>
#include <string_view>

#include "core/control_message.hpp"
#include "core/result.hpp"

namespace wharf::core {

struct Caller {
  enum class Kind {
    kKeyHolder,  // the browser, REST and MCP over HTTP with the key
    kLocalUser,  // the user's CLI outside any session
    kSession,    // a process inside a wharf session
  };
  Kind kind;
  SessionId session = 0;    // kSession: which one; 0: a program wharf started whose
                            // session is not known (it may use no session but the shared one)
  std::int64_t device = 0;  // kKeyHolder: the paired device whose cookie came along; 0: none
  // Which door the call came through, for the audit only (core/caller_labels.hpp): ""
  // when the kind says it (the CLI, REST), "window" for the page, "mcp" or "mcp:NAME" for
  // an MCP client. A label: it never changes what the caller may do.
  std::string via = {};
};

// For messages: "the browser", "your terminal", "session 3".
std::string describe(const Caller& caller);
// Stored with a session it starts: "key", "local", "session:3".
std::string creator_label(const Caller& caller);
// A stored label in words, as describe() says it; anything unrecognised is quoted.
std::string describe_creator(std::string_view label);

enum class Access { kRead, kDrive, kEnd };

Status may_access(const Caller& caller, SessionId target, std::string_view target_creator,
                  bool target_is_shared_shell, Access access);

}  // namespace wharf::core
