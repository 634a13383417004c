#include "app/final_screens.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

namespace wharf::app {
namespace fs = std::filesystem;

namespace {

// Temporary files start with a dot, so they never look like a screen to prune() or
// `ls`; one left by a daemon killed mid-write is removed once it is this old.
constexpr std::string_view kTempPrefix = ".tmp-";
constexpr auto kStaleTempAge = std::chrono::hours(1);

std::string errno_text() {
  return std::strerror(errno);
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "<digits>-<digits>.txt": the only names prune() counts or deletes, so nothing else a
// person puts in the directory is ever touched.
bool is_screen_name(std::string_view name) {
  if (!name.ends_with(".txt")) return false;
  name.remove_suffix(4);
  auto dash = name.find('-');
  if (dash == std::string_view::npos) return false;
  return all_digits(name.substr(0, dash)) && all_digits(name.substr(dash + 1));
}

core::Status write_all(int fd, std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return core::Error{errno_text()};
    written += static_cast<std::size_t>(n);
  }
  return core::ok_status();
}

}  // namespace

fs::path FinalScreens::path_of(std::int64_t run_id, std::uint64_t session_id) const {
  return directory_ / (std::to_string(run_id) + "-" + std::to_string(session_id) + ".txt");
}

std::string_view FinalScreens::tail(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t start = text.size() - max_bytes;
  // A continuation byte (10xxxxxx) is the middle of a character whose start was cut
  // off; skipping them starts the text on the next whole character (at most three
  // bytes later in valid UTF-8).
  while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
    ++start;
  }
  return text.substr(start);
}

core::Status FinalScreens::ensure_directory() const {
  auto fail = [&](const std::string& why) {
    return core::Error{"cannot keep final screens in " + directory_.string() + ": " + why};
  };
  // mkdir with 0700 itself, not a wider mkdir and a chmod after: there is no moment in
  // which another user could open the directory.
  if (mkdir(directory_.c_str(), 0700) != 0) {
    if (errno == ENOENT) {
      std::error_code ec;
      fs::create_directories(directory_.parent_path(), ec);
      if (ec) return fail(ec.message());
      if (mkdir(directory_.c_str(), 0700) != 0 && errno != EEXIST) return fail(errno_text());
    } else if (errno != EEXIST) {
      return fail(errno_text());
    }
  }
  struct stat st {};
  if (lstat(directory_.c_str(), &st) != 0) return fail(errno_text());
  if (!S_ISDIR(st.st_mode)) return fail("it is not a directory");
  if (st.st_uid != geteuid()) return fail("it belongs to another user");
  // An existing directory may have been made wider (or by an older wharf): tightened.
  if ((st.st_mode & 077) != 0 && chmod(directory_.c_str(), 0700) != 0) {
    return fail("it cannot be made owner-only (0700): " + errno_text());
  }
  return core::ok_status();
}

core::Status FinalScreens::save(std::int64_t run_id, std::uint64_t session_id,
                                std::string_view text) {
  auto fail = [&](const std::string& why) {
    return core::Error{"cannot keep the final screen of session " + std::to_string(session_id) +
                       ": " + why};
  };
  if (run_id < 0) return fail("the run id is negative");
  if (auto made = ensure_directory(); !made) return made.error();

  fs::path target = path_of(run_id, session_id);
  std::string temp =
      (directory_ / (std::string(kTempPrefix) + target.filename().string() + "-XXXXXX")).string();
  // mkostemp: a new file (O_EXCL) under a name nobody could have planted.
  int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return fail(errno_text());
  auto discard = [&](const std::string& why) {
    unlink(temp.c_str());
    return fail(why);
  };
  // Exactly 0600 whatever the umask (mkostemp's mode is 0600 less the umask's bits).
  if (fchmod(fd, 0600) != 0) {
    std::string why = errno_text();
    close(fd);
    return discard(why);
  }
  auto written = write_all(fd, tail(text));
  // No fsync: the daemon saves from its event loop, which must not wait for the disk;
  // a power cut may lose a final screen, never a half-written one (the rename).
  if (close(fd) != 0 && written) written = core::Error{errno_text()};
  if (!written) return discard(written.error().message);
  if (rename(temp.c_str(), target.c_str()) != 0) return discard(errno_text());

  prune(target);
  return core::ok_status();
}

void FinalScreens::prune(const fs::path& keep) const {
  struct Screen {
    timespec modified;
    fs::path path;
  };
  std::vector<Screen> screens;
  auto stale_before = std::chrono::system_clock::now() - kStaleTempAge;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory_, ec)) {
    std::string name = entry.path().filename().string();
    struct stat st {};
    // lstat: a link is looked at as itself, never followed out of the directory.
    if (lstat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (name.starts_with(kTempPrefix)) {
      if (std::chrono::system_clock::from_time_t(st.st_mtime) < stale_before) {
        unlink(entry.path().c_str());
      }
      continue;
    }
    if (is_screen_name(name)) screens.push_back({st.st_mtim, entry.path()});
  }
  if (screens.size() <= kMaxFiles) return;
  // Oldest first; the name breaks ties so the order is the same on every run.
  std::sort(screens.begin(), screens.end(), [](const Screen& a, const Screen& b) {
    return std::tie(a.modified.tv_sec, a.modified.tv_nsec, a.path) <
           std::tie(b.modified.tv_sec, b.modified.tv_nsec, b.path);
  });
  std::size_t left = screens.size();
  for (const Screen& screen : screens) {
    if (left <= kMaxFiles) break;
    // The screen just saved stays even if a clock set back makes it look oldest.
    if (screen.path == keep) continue;
    if (unlink(screen.path.c_str()) == 0 || errno == ENOENT) --left;
  }
}

core::Result<std::string> FinalScreens::load(std::int64_t run_id, std::uint64_t session_id) const {
  fs::path path = path_of(run_id, session_id);
  auto fail = [&](const std::string& why) {
    return core::Error{"cannot read the final screen " + path.string() + ": " + why};
  };
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      return core::Error{"no final screen kept for session " + std::to_string(session_id) +
                             " of run " + std::to_string(run_id),
                         "not_found"};
    }
    if (errno == ELOOP) return fail("it is a symbolic link, which wharf does not follow");
    return fail(errno_text());
  }
  auto close_and_fail = [&](const std::string& why) {
    close(fd);
    return fail(why);
  };
  struct stat st {};
  if (fstat(fd, &st) != 0) return close_and_fail(errno_text());
  if (!S_ISREG(st.st_mode)) return close_and_fail("it is not a regular file");
  // Whatever is bigger was not written by save(); not read into memory whole.
  if (static_cast<std::uint64_t>(st.st_size) > kMaxBytes) {
    return close_and_fail("it is larger than wharf ever writes one");
  }
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < text.size()) {
    ssize_t n = read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return close_and_fail(errno_text());
    if (n == 0) break;  // shorter than fstat said (truncated meanwhile): what is there
    got += static_cast<std::size_t>(n);
  }
  close(fd);
  text.resize(got);
  return text;
}

}  // namespace wharf::app
