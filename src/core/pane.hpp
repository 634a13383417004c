// The web pane's rules, as pure functions: what a session may publish for its user to see
// beside the terminal (an HTML page), how that page is wrapped before a browser renders
// it, and what a form in it may send back (feedback).
//
// A published page is untrusted: an agent wrote it, maybe from text it read somewhere.
// It is rendered in a sandboxed frame with an opaque origin under a policy that allows
// no network access (kPanePolicy), so it can show things and run its own scripts but
// reach nothing of the page around it, the daemon or other sessions. The one channel
// back is a form marked `data-feedback`: a small script wharf puts at the top of the
// document (pane_document) turns its submission into a message to the page around it,
// which hands the fields to the daemon. Those fields are checked here (check_feedback)
// against fixed caps before anything is written, and the one line typed into the
// session afterwards (feedback_line) is built only from text the daemon controls.
//
// Invariants: nothing here reads a clock or a file; every refusal is an Error with a
// stable code (too_large, bad_title, bad_feedback, too_soon, too_many_feedback).
#pragma once

#include <boost/json/object.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::core {

// The largest page a session may publish, unless `[pane] max_bytes` says less or more
// (up to kMaxPaneBytesLimit). A page is a document, not a data dump.
inline constexpr std::size_t kDefaultPaneMaxBytes = 512 * 1024;
inline constexpr std::size_t kMaxPaneBytesLimit = 512 * 1024;
inline constexpr std::size_t kMaxPaneTitleBytes = 200;

// Caps on one feedback submission. The total stays under the WebSocket's 64 KiB message
// cap (core/control_message.hpp) with room for the envelope, so a large form gets a
// clear refusal instead of a closed connection.
struct FeedbackLimits {
  std::size_t max_fields = 32;  // values, counting each of a repeated name
  std::size_t max_name_bytes = 64;
  std::size_t max_value_bytes = 8 * 1024;
  std::size_t max_total_bytes = 48 * 1024;  // names and values together
  std::int64_t min_interval_ms = 1000;      // one submission a second per page
  std::size_t max_per_page = 20;            // a page in a loop cannot drive an agent forever
};

// The response policy of a served pane document: scripts and styles of its own, images
// and fonts inline as data: only, no fetch, no form posts, no frames, no base; rendered
// only inside wharf's own page; sandboxed (opaque origin, no top navigation, no popups)
// even if someone opens it on its own.
inline constexpr std::string_view kPanePolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; font-src data:; media-src data:; form-action 'none'; base-uri 'none'; "
    "frame-ancestors 'self'; sandbox allow-scripts allow-forms";

// A page may be published: at most `max_bytes`, not empty. Code too_large / bad_page.
Status check_page(std::string_view html, std::size_t max_bytes);

// A title as it is kept and shown: valid UTF-8 (else bad_title), control characters
// turned to spaces, runs of spaces folded, trimmed, cut at kMaxPaneTitleBytes on a
// character boundary. Empty stays empty.
Result<std::string> clean_title(std::string_view title);

// The document served for a page: the feedback script first (after a doctype, so the
// page keeps its standards mode), then the page as published.
std::string pane_document(std::string_view html);

// The fields of one submission, checked: a JSON object whose keys are names and whose
// values are strings or arrays of strings (a repeated name). `text` is that object as
// JSON text, as the page sent it. Code bad_feedback, with what broke which cap.
Result<boost::json::object> check_feedback(std::string_view text, const FeedbackLimits& limits);

// Whether a page that has had `count` submissions, the last at `last_ms` (0: none), may
// take one more at `now_ms`. Codes too_soon and too_many_feedback.
Status admit_feedback(std::size_t count, std::int64_t last_ms, std::int64_t now_ms,
                      const FeedbackLimits& limits);

// The one line typed into the session after a submission, from a cleaned title and a
// path the daemon chose: [wharf pane: form "Plan" submitted; read /path/1700000000000.json]
std::string feedback_line(std::string_view title, std::string_view path);

// The protocol's `pane` message (docs/protocol.md): the attached session's page, or
// `page: null` when it has none. `url` is where the window loads the document.
struct PaneSummary {
  std::string token;  // names this publication; a new one each time
  std::string title;
  std::size_t bytes = 0;
  std::int64_t published_ms = 0;
};
std::string pane_message(std::uint64_t session, const PaneSummary* page);

// The answer to a window's `pane_feedback`: where the submission was filed, and whether
// the line was typed (false: the session has ended or took no input).
std::string pane_feedback_message(std::uint64_t session, std::string_view path, bool typed);

// Where a page's document is served: /pane/SESSION/TOKEN.
std::string pane_url(std::uint64_t session, std::string_view token);

}  // namespace wharf::core
