// The session service's side of notifications that leave the page (app/notifier.hpp):
// who is looking at a session, and the event the notifier hears, built here because only
// the service knows a session's name, program, windows and screen.
#include "app/session_service.hpp"

namespace wharf::app {

bool SessionService::looked_at(core::SessionId id) const {
  const core::SessionEntry* entry = registry_.find(id);
  if (entry == nullptr) return false;
  for (core::WindowId window : entry->windows)
    if (windows_.looking(window)) return true;
  return false;
}

void SessionService::notify_person(core::SessionId id, core::NotifyKind kind, NotifySource source) {
  if (notifier_ == nullptr) return;
  const core::SessionEntry* entry = registry_.find(id);
  auto session = find(id);
  if (entry == nullptr || !session) return;
  NotifyEvent event{
      .session = id,
      .kind = kind,
      .source = source,
      .session_name = entry->name(),
      .program = entry->program,
      .looked_at = looked_at(id),
      .screen_lines = {},
  };
  if (notifier_->wants_screen()) event.screen_lines = session->text(0).lines;
  notifier_->on_event(event);
}

}  // namespace wharf::app
