#include "app/pane_store.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>

#include "app/key_file.hpp"
#include "app/state_paths.hpp"
#include "core/access_key.hpp"

namespace wharf::app {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// Reads at most `max` bytes of a regular file (never following a symlink); nullopt when
// it is missing, not a regular file or larger.
std::optional<std::string> read_small_file(const fs::path& path, std::size_t max) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buffer[16384];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
    if (out.size() > max) {
      ::close(fd);
      return std::nullopt;
    }
  }
  ::close(fd);
  return out;
}

}  // namespace

PaneStore::PaneStore(fs::path dir, std::size_t max_bytes, core::FeedbackLimits limits)
    : dir_(std::move(dir)), max_bytes_(max_bytes), limits_(limits) {}

fs::path PaneStore::session_dir(core::SessionId id) const {
  return dir_ / std::to_string(id);
}

core::Result<core::PaneSummary> PaneStore::publish(core::SessionId id, std::int64_t created_ms,
                                                   std::string_view html, std::string_view title,
                                                   std::int64_t now_ms) {
  if (auto checked = core::check_page(html, max_bytes_); !checked) return checked.error();
  auto cleaned = core::clean_title(title);
  if (!cleaned) return cleaned.error();
  auto token = mint_key();
  if (!token) return token.error();
  Page page;
  page.summary = core::PaneSummary{.token = token.value(),
                                   .title = cleaned.value(),
                                   .bytes = html.size(),
                                   .published_ms = now_ms};
  page.created_ms = created_ms;
  page.document = std::make_shared<const std::string>(core::pane_document(html));
  if (!dir_.empty()) {
    // Kept for reloads and for the next daemon; a page that cannot be saved still shows
    // now, so a full disk costs only the page's life past a restart.
    fs::path at = session_dir(id);
    json::object meta{{"token", page.summary.token},
                      {"title", page.summary.title},
                      {"bytes", page.summary.bytes},
                      {"published", now_ms},
                      {"created", created_ms}};
    core::Status saved = ensure_private_dir(dir_);
    if (saved) saved = ensure_private_dir(at);
    if (saved) saved = write_private_file(at / "page.html", html);
    if (saved) saved = write_private_file(at / "page.json", json::serialize(meta));
    if (!saved) spdlog::warn("pane of session {} not saved: {}", id, saved.error().message);
  }
  pages_[id] = page;
  return page.summary;
}

bool PaneStore::clear(core::SessionId id) {
  bool had = pages_.erase(id) > 0;
  if (!dir_.empty()) {
    std::error_code ec;
    had = fs::exists(session_dir(id) / "page.json", ec) || had;
    remove_files(id);
  }
  return had;
}

void PaneStore::remove_files(core::SessionId id) const {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove(session_dir(id) / "page.json", ec);
  fs::remove(session_dir(id) / "page.html", ec);
}

std::optional<PaneStore::Page> PaneStore::load(core::SessionId id) const {
  if (dir_.empty()) return std::nullopt;
  auto meta_text = read_small_file(session_dir(id) / "page.json", 4096);
  if (!meta_text) return std::nullopt;
  boost::system::error_code ec;
  json::value meta = json::parse(*meta_text, ec);
  if (ec || !meta.is_object()) return std::nullopt;
  const json::object& m = meta.get_object();
  const auto* token = m.if_contains("token");
  const auto* title = m.if_contains("title");
  const auto* bytes = m.if_contains("bytes");
  const auto* published = m.if_contains("published");
  const auto* created = m.if_contains("created");
  if (token == nullptr || !token->is_string() || title == nullptr || !title->is_string() ||
      bytes == nullptr || !bytes->is_number() || published == nullptr || !published->is_int64() ||
      created == nullptr || !created->is_int64())
    return std::nullopt;
  Page page;
  page.summary = core::PaneSummary{.token = std::string(token->get_string()),
                                   .title = std::string(title->get_string()),
                                   .bytes = bytes->to_number<std::size_t>(),
                                   .published_ms = published->get_int64()};
  page.created_ms = created->get_int64();
  return page;
}

PaneStore::Page* PaneStore::find(core::SessionId id, std::int64_t created_ms) {
  auto it = pages_.find(id);
  if (it == pages_.end()) {
    auto loaded = load(id);
    if (!loaded) return nullptr;
    it = pages_.emplace(id, std::move(*loaded)).first;
  }
  if (created_ms != 0 && it->second.created_ms != created_ms) {
    // An earlier session's page under a reused id: never shown, removed.
    pages_.erase(it);
    remove_files(id);
    return nullptr;
  }
  return &it->second;
}

const core::PaneSummary* PaneStore::current(core::SessionId id, std::int64_t created_ms) {
  Page* page = find(id, created_ms);
  return page == nullptr ? nullptr : &page->summary;
}

std::shared_ptr<const std::string> PaneStore::document(core::SessionId id, std::string_view token) {
  auto it = pages_.find(id);
  if (it == pages_.end() || !core::keys_match(it->second.summary.token, token)) return nullptr;
  Page& page = it->second;
  if (!page.document) {
    auto html = read_small_file(session_dir(id) / "page.html", max_bytes_);
    if (!html) return nullptr;
    auto document = std::make_shared<const std::string>(core::pane_document(*html));
    return document;  // not kept: an ended session's page is read when asked for
  }
  return page.document;
}

void PaneStore::session_ended(core::SessionId id) {
  auto it = pages_.find(id);
  if (it != pages_.end()) it->second.document.reset();
}

core::Result<FiledFeedback> PaneStore::file_feedback(core::SessionId id, std::string_view token,
                                                     std::string_view fields_json,
                                                     std::int64_t now_ms) {
  auto it = pages_.find(id);
  if (it == pages_.end() || !core::keys_match(it->second.summary.token, token))
    return core::Error{
        "that page is no longer the session's page (it was replaced or cleared); "
        "nothing was filed",
        "no_page"};
  Page& page = it->second;
  if (auto admitted =
          core::admit_feedback(page.submissions, page.last_submission_ms, now_ms, limits_);
      !admitted)
    return admitted.error();
  auto fields = core::check_feedback(fields_json, limits_);
  if (!fields) return fields.error();
  if (dir_.empty())
    return core::Error{"this daemon keeps no files for the pane; nothing was filed", "no_page"};
  fs::path folder = session_dir(id) / "feedback";
  core::Status ready = ensure_private_dir(dir_);
  if (ready) ready = ensure_private_dir(session_dir(id));
  if (ready) ready = ensure_private_dir(folder);
  if (!ready) return ready.error();
  json::object record{{"page", page.summary.token},
                      {"title", page.summary.title},
                      {"session", id},
                      {"submitted_at", now_ms},
                      {"fields", std::move(fields.value())}};
  // One name per millisecond; a second submission in the same one (another page of the
  // same session) gets a suffix rather than replacing the first.
  fs::path path = folder / (std::to_string(now_ms) + ".json");
  std::error_code ec;
  for (int n = 1; fs::exists(path, ec) && n < 100; ++n)
    path = folder / (std::to_string(now_ms) + "-" + std::to_string(n) + ".json");
  if (auto written = write_private_file(path, json::serialize(record) + "\n"); !written)
    return written.error();
  page.submissions += 1;
  page.last_submission_ms = now_ms;
  return FiledFeedback{path, page.summary.title};
}

}  // namespace wharf::app
