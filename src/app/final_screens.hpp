// Final screens: the last screen of each ended session, as plain UTF-8 text, kept in one
// directory (STATE_DIR/screens) so `wharf history ID --screen` can show what a session
// looked like when it ended, after the session (and perhaps the daemon) is gone.
//
// A screen is named by the session's (run, id) as the metadata store knows it:
// `<run_id>-<session_id>.txt`. A session re-attached by a later daemon keeps the run
// that started it, so its screen is found under that run too.
//
// Invariants:
// - The directory is owner-only (0700) and each file 0600: a screen shows whatever the
//   program printed, which may be private.
// - A file holds at most kMaxBytes: the END of the text (the bottom of the screen is
//   what was looked at last), cut so that it starts on a UTF-8 character boundary.
// - A file appears whole or not at all (written beside it, then renamed over it).
// - At most kMaxFiles screens are kept; saving one more deletes the oldest (by mtime),
//   never the one just saved. Only files named like screens are ever counted or deleted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace wharf::app {

class FinalScreens {
 public:
  static constexpr std::size_t kMaxBytes = 256 * 1024;
  static constexpr std::size_t kMaxFiles = 100;

  explicit FinalScreens(std::filesystem::path directory) : directory_(std::move(directory)) {}

  const std::filesystem::path& directory() const { return directory_; }
  // Where the screen of (run_id, session_id) is kept, whether or not it exists.
  std::filesystem::path path_of(std::int64_t run_id, std::uint64_t session_id) const;

  // Writes `text` as the final screen of (run_id, session_id), replacing any earlier one,
  // then deletes the oldest screens beyond kMaxFiles. Creates the directory if needed.
  // A failure to prune is not reported: the screen itself was kept.
  core::Status save(std::int64_t run_id, std::uint64_t session_id, std::string_view text);
  // The kept screen. Error code "not_found" (message "no final screen kept for session
  // N of run R") when there is none.
  core::Result<std::string> load(std::int64_t run_id, std::uint64_t session_id) const;

  // The last at most `max_bytes` of `text`, starting on a UTF-8 character boundary.
  static std::string_view tail(std::string_view text, std::size_t max_bytes = kMaxBytes);

 private:
  core::Status ensure_directory() const;
  void prune(const std::filesystem::path& keep) const;

  std::filesystem::path directory_;
};

}  // namespace wharf::app
