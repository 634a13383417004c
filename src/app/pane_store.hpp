// The web pane's pages: the one page each session has published (core/pane.hpp), kept in
// memory for serving and on disk so a reload, and a daemon that takes the session over
// after a restart, show it again; and the feedback its forms send back, filed as JSON.
//
// On disk, under STATE_DIR/pane/<session>/ (owner-only): page.html (as published),
// page.json ({token, title, bytes, published, created}) and feedback/<ms>.json, one file
// per submission. A page is tied to its session by the session's creation time as well
// as its id, so a later session given the same id (a later daemon starting afresh) never
// shows an older page: a mismatch is removed on sight.
//
// Invariants: lives on the event-loop thread; a publish replaces the page and its token
// (a window holding the old token gets nothing); a page over the cap is never kept; a
// session that ended keeps its page's summary and feedback counters but not its document
// in memory (it is read back from disk if asked for); feedback names its page by token,
// so a form of a replaced page files nothing.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/control_message.hpp"
#include "core/pane.hpp"
#include "core/result.hpp"

namespace wharf::app {

struct FiledFeedback {
  std::filesystem::path path;
  std::string title;
};

class PaneStore {
 public:
  // `dir` empty: pages live in memory only.
  PaneStore(std::filesystem::path dir, std::size_t max_bytes, core::FeedbackLimits limits = {});

  std::size_t max_bytes() const { return max_bytes_; }
  void set_max_bytes(std::size_t max_bytes) { max_bytes_ = max_bytes; }
  const core::FeedbackLimits& limits() const { return limits_; }
  const std::filesystem::path& directory() const { return dir_; }

  // Checks and keeps a page for the session created at `created_ms`, replacing any.
  core::Result<core::PaneSummary> publish(core::SessionId id, std::int64_t created_ms,
                                          std::string_view html, std::string_view title,
                                          std::int64_t now_ms);
  // Removes the page; false when there was none.
  bool clear(core::SessionId id);
  // The page of the session created at `created_ms` (read from disk the first time after
  // a restart), or null.
  const core::PaneSummary* current(core::SessionId id, std::int64_t created_ms);
  // The document to serve for (session, token), or null (unknown, replaced, cleared).
  std::shared_ptr<const std::string> document(core::SessionId id, std::string_view token);
  // The session ended: its document leaves memory; the page stays for feedback.
  void session_ended(core::SessionId id);

  // Files one submission of the page `token` of session `id` (checked against the caps
  // and the page's rate) and answers where. Codes: no_page (none, or replaced), and
  // core::check_feedback's and core::admit_feedback's.
  core::Result<FiledFeedback> file_feedback(core::SessionId id, std::string_view token,
                                            std::string_view fields_json, std::int64_t now_ms);

  std::filesystem::path session_dir(core::SessionId id) const;

 private:
  struct Page {
    core::PaneSummary summary;
    std::int64_t created_ms = 0;
    std::shared_ptr<const std::string> document;  // null: not in memory (ended, or not read)
    std::size_t submissions = 0;
    std::int64_t last_submission_ms = 0;
  };
  Page* find(core::SessionId id, std::int64_t created_ms);
  std::optional<Page> load(core::SessionId id) const;
  void remove_files(core::SessionId id) const;

  std::filesystem::path dir_;
  std::size_t max_bytes_;
  core::FeedbackLimits limits_;
  std::map<core::SessionId, Page> pages_;
};

}  // namespace wharf::app
