// The session a web pane operation (pane_show, pane_clear) acts on. A program inside a
// session publishes for its own person first: with no session named it is the caller's
// own, and naming its own session is always allowed (an agent's session was usually
// started by the browser, which the ownership rule alone would refuse). Any other session
// needs the right to drive it (core/ownership.hpp): a program may publish into the
// sessions it started, the user anywhere.
#pragma once

#include <memory>

#include "ops/arguments.hpp"

namespace wharf::ops {

inline std::shared_ptr<app::Session> pane_target(Arguments& a, Context& context) {
  bool inside = context.caller.kind == core::Caller::Kind::kSession && context.caller.session != 0;
  if (a.has("session")) {
    auto id = a.integer("session");
    if (a && inside && id && static_cast<core::SessionId>(*id) == context.caller.session) {
      auto own = context.sessions.find(context.caller.session);
      if (!own) a.fail(core::Error{"the caller's session has ended", "no_session"});
      return own;
    }
    return a.session(context, core::Access::kDrive);
  }
  if (!a) return nullptr;
  if (!inside) {
    a.fail(bad_argument(
        "name the session ('session'); only a program inside a session may leave it out"));
    return nullptr;
  }
  auto own = context.sessions.find(context.caller.session);
  if (!own) a.fail(core::Error{"the caller's session has ended", "no_session"});
  return own;
}

}  // namespace wharf::ops
