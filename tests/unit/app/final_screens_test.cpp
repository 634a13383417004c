// FinalScreens against a real temporary directory: modes whatever the umask, the
// whole-or-nothing write, the 256 KiB cut that keeps the end on a character boundary,
// the 100-file limit (oldest by mtime go, the one just saved and foreign files stay),
// and the refusals of what wharf did not write.
#include "app/final_screens.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace wharf::app {
namespace {

namespace fs = std::filesystem;

class FinalScreensTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-screens-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    dir_ = root_ / "state" / "screens";
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
  fs::path dir_;
};

unsigned mode_of(const fs::path& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return 0;
  return st.st_mode & 0777;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void set_mtime(const fs::path& path, time_t seconds) {
  timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << path;
}

std::size_t count_files(const fs::path& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST_F(FinalScreensTest, SavesOwnerOnlyAndLoadsWhatWasSaved) {
  mode_t old_umask = umask(0);  // a store relying on the umask would come out 0755/0644
  FinalScreens screens(dir_);
  auto saved = screens.save(2, 7, "$ make\nok\n$ ");
  umask(old_umask);
  ASSERT_TRUE(saved) << saved.error().message;

  EXPECT_EQ(screens.path_of(2, 7), dir_ / "2-7.txt");
  EXPECT_EQ(mode_of(dir_), 0700u);
  EXPECT_EQ(mode_of(dir_ / "2-7.txt"), 0600u);
  EXPECT_EQ(read_file(dir_ / "2-7.txt"), "$ make\nok\n$ ");
  EXPECT_EQ(count_files(dir_), 1u) << "no temporary file left behind";
  auto loaded = screens.load(2, 7);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded.value(), "$ make\nok\n$ ");

  // Saving again replaces; an empty screen is a screen.
  ASSERT_TRUE(screens.save(2, 7, "ünïcode ✓"));
  EXPECT_EQ(screens.load(2, 7).value(), "ünïcode ✓");
  ASSERT_TRUE(screens.save(2, 8, ""));
  auto empty = screens.load(2, 8);
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_EQ(empty.value(), "");
  EXPECT_EQ(count_files(dir_), 2u);
}

TEST_F(FinalScreensTest, LoadOfAScreenNeverKeptSaysSo) {
  FinalScreens screens(dir_);
  auto missing_dir = screens.load(1, 3);
  ASSERT_FALSE(missing_dir);
  EXPECT_EQ(missing_dir.error().code, "not_found");
  EXPECT_EQ(missing_dir.error().message, "no final screen kept for session 3 of run 1");
  EXPECT_FALSE(fs::exists(dir_)) << "loading creates nothing";

  ASSERT_TRUE(screens.save(1, 4, "x"));
  auto missing = screens.load(1, 3);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, "not_found");
  auto other_run = screens.load(2, 4);
  ASSERT_FALSE(other_run);
  EXPECT_EQ(other_run.error().code, "not_found");
}

TEST_F(FinalScreensTest, KeepsTheEndOfALongScreenFromACharacterBoundary) {
  FinalScreens screens(dir_);
  // ASCII: exactly the last kMaxBytes.
  std::string ascii(FinalScreens::kMaxBytes + 1000, 'a');
  ascii.replace(0, 5, "first");
  ascii.replace(ascii.size() - 4, 4, "last");
  ASSERT_TRUE(screens.save(1, 1, ascii));
  std::string kept = screens.load(1, 1).value();
  EXPECT_EQ(kept.size(), FinalScreens::kMaxBytes);
  EXPECT_TRUE(kept.ends_with("last"));
  EXPECT_EQ(kept.find("first"), std::string::npos);

  // Three-byte characters: kMaxBytes is not a multiple of 3, so the cut falls inside one;
  // the kept text starts on the next whole character.
  std::string euros;
  while (euros.size() <= FinalScreens::kMaxBytes + 10) euros += "€";
  ASSERT_NE(FinalScreens::kMaxBytes % 3, 0u);
  ASSERT_TRUE(screens.save(1, 2, euros));
  std::string cut = screens.load(1, 2).value();
  EXPECT_LE(cut.size(), FinalScreens::kMaxBytes);
  EXPECT_GT(cut.size(), FinalScreens::kMaxBytes - 3);
  EXPECT_EQ(cut.size() % 3, 0u);
  EXPECT_TRUE(cut.starts_with("€"));
  EXPECT_TRUE(euros.ends_with(cut));

  EXPECT_EQ(FinalScreens::tail("abc", 3), "abc");
  EXPECT_EQ(FinalScreens::tail("abc", 2), "bc");
  EXPECT_EQ(FinalScreens::tail("xé", 2), "é");
  EXPECT_EQ(FinalScreens::tail("xé", 1), "");  // half a character is not kept
  EXPECT_EQ(FinalScreens::tail("a🚢", 3), "");
  EXPECT_EQ(FinalScreens::tail("a🚢", 4), "🚢");
}

TEST_F(FinalScreensTest, KeepsAtMostAHundredDeletingTheOldestFirst) {
  FinalScreens screens(dir_);
  for (std::uint64_t id = 1; id <= FinalScreens::kMaxFiles; ++id) {
    ASSERT_TRUE(screens.save(1, id, "screen " + std::to_string(id)));
  }
  // What a person keeps there is neither counted nor deleted.
  { std::ofstream(dir_ / "notes.txt") << "mine"; }
  { std::ofstream(dir_ / "1-x.txt") << "mine too"; }
  set_mtime(dir_ / "notes.txt", 10);
  set_mtime(dir_ / "1-x.txt", 10);
  // Ids 1..100 aged in order, so 1 is the oldest whatever the filesystem's timestamps.
  for (std::uint64_t id = 1; id <= FinalScreens::kMaxFiles; ++id) {
    set_mtime(screens.path_of(1, id), 1000 + static_cast<time_t>(id));
  }
  EXPECT_EQ(count_files(dir_), FinalScreens::kMaxFiles + 2);

  for (std::uint64_t id = 1; id <= 3; ++id) ASSERT_TRUE(screens.save(2, id, "new"));
  EXPECT_EQ(count_files(dir_), FinalScreens::kMaxFiles + 2);
  for (std::uint64_t id = 1; id <= 3; ++id) {
    EXPECT_FALSE(fs::exists(screens.path_of(1, id))) << id;
    EXPECT_TRUE(fs::exists(screens.path_of(2, id))) << id;
  }
  EXPECT_TRUE(fs::exists(screens.path_of(1, 4)));
  EXPECT_TRUE(fs::exists(dir_ / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir_ / "1-x.txt"));

  // A clock set back makes the new screen look older than all others: it stays anyway,
  // and the oldest of the rest goes.
  for (const auto& entry : fs::directory_iterator(dir_)) set_mtime(entry.path(), 4'000'000'000);
  set_mtime(screens.path_of(1, 4), 3'000'000'000);
  ASSERT_TRUE(screens.save(3, 1, "from the past"));
  EXPECT_TRUE(fs::exists(screens.path_of(3, 1)));
  EXPECT_FALSE(fs::exists(screens.path_of(1, 4)));
  EXPECT_EQ(count_files(dir_), FinalScreens::kMaxFiles + 2);
}

TEST_F(FinalScreensTest, RemovesOnlyStaleTemporaryFiles) {
  FinalScreens screens(dir_);
  ASSERT_TRUE(screens.save(1, 1, "a"));
  { std::ofstream(dir_ / ".tmp-1-2.txt-abcdef") << "half"; }
  { std::ofstream(dir_ / ".tmp-1-3.txt-ghijkl") << "being written"; }
  set_mtime(dir_ / ".tmp-1-2.txt-abcdef", 1000);  // left by a daemon killed long ago
  ASSERT_TRUE(screens.save(1, 4, "b"));
  EXPECT_FALSE(fs::exists(dir_ / ".tmp-1-2.txt-abcdef"));
  EXPECT_TRUE(fs::exists(dir_ / ".tmp-1-3.txt-ghijkl"));
}

TEST_F(FinalScreensTest, TightensAWideDirectoryAndRefusesWhatItDidNotWrite) {
  fs::create_directories(dir_);
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  FinalScreens screens(dir_);
  ASSERT_TRUE(screens.save(1, 1, "a"));
  EXPECT_EQ(mode_of(dir_), 0700u);

  EXPECT_FALSE(screens.save(-1, 1, "a"));

  // A link where a screen should be is not followed.
  { std::ofstream(root_ / "elsewhere.txt") << "not a screen"; }
  fs::create_symlink(root_ / "elsewhere.txt", dir_ / "1-2.txt");
  auto link = screens.load(1, 2);
  ASSERT_FALSE(link);
  EXPECT_NE(link.error().message.find("symbolic link"), std::string::npos) << link.error().message;

  // Nor is a bigger file than save() writes read whole.
  { std::ofstream(dir_ / "1-3.txt") << std::string(FinalScreens::kMaxBytes + 1, 'x'); }
  auto big = screens.load(1, 3);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("larger"), std::string::npos) << big.error().message;

  // A link in place of the directory is refused, not written through.
  fs::path linked = root_ / "linked";
  fs::create_directory_symlink(dir_, linked);
  FinalScreens through_link(linked);
  auto refused = through_link.save(1, 5, "a");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("not a directory"), std::string::npos)
      << refused.error().message;
  EXPECT_FALSE(fs::exists(dir_ / "1-5.txt"));
}

}  // namespace
}  // namespace wharf::app
