// SessionService's part in the web pane: pages are kept by PaneStore (app/pane_store.hpp);
// this ties them to live sessions (by id and creation time), tells the windows when one
// changes, and turns a submitted form into a file and one typed line.
//
// The line goes in exactly as send_text with submit does (core/paste_text.hpp: one paste,
// control codes removed, then Enter), and is built only from the page's cleaned title and
// the path the store chose (core::feedback_line): nothing the form sent reaches the
// terminal.
#include <spdlog/spdlog.h>

#include "app/session_service.hpp"
#include "core/paste_text.hpp"

namespace wharf::app {

namespace {

std::string no_session(core::SessionId session) {
  return "session " + std::to_string(session) + " is not running";
}

}  // namespace

core::Result<core::PaneSummary> SessionService::publish_pane(core::SessionId session,
                                                             std::string_view html,
                                                             std::string_view title) {
  const core::SessionEntry* entry = registry_.find(session);
  if (entry == nullptr) return core::Error{no_session(session), "no_session"};
  auto published = panes_.publish(session, entry->created_ms, html, title, now_ms());
  if (published) windows_.tell_pane(session);
  return published;
}

core::Status SessionService::clear_pane(core::SessionId session) {
  const core::SessionEntry* entry = registry_.find(session);
  if (entry == nullptr) return core::Error{no_session(session), "no_session"};
  if (panes_.clear(session)) windows_.tell_pane(session);
  return core::ok_status();
}

std::string SessionService::pane_message(core::SessionId session) {
  const core::SessionEntry* entry = registry_.find(session);
  const core::PaneSummary* page =
      entry == nullptr ? nullptr : panes_.current(session, entry->created_ms);
  return core::pane_message(session, page);
}

std::shared_ptr<const std::string> SessionService::pane_document(core::SessionId session,
                                                                 std::string_view token) {
  return panes_.document(session, token);
}

core::Result<SessionService::PaneFeedbackReceipt> SessionService::pane_feedback(
    core::SessionId session, std::string_view token, std::string_view fields_json) {
  auto filed = panes_.file_feedback(session, token, fields_json, now_ms());
  if (!filed) return filed.error();
  PaneFeedbackReceipt receipt{.path = filed.value().path};
  // A session that has ended gets the file only.
  if (auto live = find(session)) {
    std::string line = core::feedback_line(filed.value().title, filed.value().path.string());
    core::PastedText pasted = core::encode_paste(line, live->screen().modes().bracketed_paste);
    pasted.bytes += '\r';
    receipt.typed = live->write_input(pasted.bytes);
    if (!receipt.typed)
      spdlog::info("session {}: pane feedback filed at {}, but the session took no input", session,
                   filed.value().path.string());
  }
  return receipt;
}

}  // namespace wharf::app
