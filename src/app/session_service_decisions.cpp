// The session service's side of pending decisions (app/decision_desk.hpp): what the desk
// is told of a session, and the `decisions` message every window hears when the list
// changes. A session's pending decisions are withdrawn when it ends (on_session_finished).
#include "app/session_service.hpp"

namespace wharf::app {

std::optional<DecisionSessionView> SessionService::decision_view(core::SessionId id) const {
  const core::SessionEntry* entry = registry_.find(id);
  auto session = find(id);
  if (entry == nullptr || !session) return std::nullopt;
  return DecisionSessionView{.name = entry->name(),
                             .program = entry->program,
                             .looked_at = looked_at(id),
                             .run_id = session->meta().run_id};
}

void SessionService::announce_decisions() {
  windows_.tell_decisions(std::make_shared<const std::string>(decisions_.decisions_message()));
}

}  // namespace wharf::app
