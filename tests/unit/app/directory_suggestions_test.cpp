// The workspace walk behind `GET /api/dirs`, one rule per test, on real folders in a
// temporary workspace: the depth and entry bounds (and the truncated flag each sets), dot
// directories, node_modules, symlinks (never followed), files (never listed), unreadable
// folders, and the order.
#include "app/directory_suggestions.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace wharf::app {
namespace {

namespace fs = std::filesystem;
using Dirs = std::vector<std::string>;

class DirectorySuggestionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-dirs-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    workspace_ = root_ / "ws";
    fs::create_directories(workspace_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(workspace_ / "locked", fs::perms::owner_all, ec);
    fs::remove_all(root_, ec);
  }

  void mkdirs(std::initializer_list<const char*> relatives) const {
    for (const char* relative : relatives) fs::create_directories(workspace_ / relative);
  }

  fs::path root_, workspace_;
};

TEST_F(DirectorySuggestionsTest, ListsRelativePathsByDepthThenPath) {
  mkdirs({"b/z", "a/y/x", "a-b/c", "a/w"});
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"a", "a-b", "b", "a/w", "a/y", "a-b/c", "b/z", "a/y/x"}));
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, StopsAtTheDepthBound) {
  mkdirs({"one/two/three/four"});
  auto result = suggest_directories(workspace_, 3);
  EXPECT_EQ(result.dirs, (Dirs{"one", "one/two", "one/two/three"}));
  EXPECT_TRUE(result.truncated);  // four was left out

  result = suggest_directories(workspace_, 4);
  EXPECT_EQ(result.dirs.size(), 4u);
  EXPECT_FALSE(result.truncated);

  result = suggest_directories(workspace_, 0);
  EXPECT_TRUE(result.dirs.empty());
  EXPECT_TRUE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, ADepthBoundThatHidesNothingIsNotTruncation) {
  mkdirs({"one/two/three"});
  std::ofstream(workspace_ / "one" / "two" / "three" / "file.txt") << "x";
  auto result = suggest_directories(workspace_, 3);
  EXPECT_EQ(result.dirs.size(), 3u);
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, StopsAtTheEntryBound) {
  mkdirs({"a/1", "a/2", "b", "c"});
  auto result = suggest_directories(workspace_, 3, 4);
  EXPECT_EQ(result.dirs, (Dirs{"a", "b", "c", "a/1"}));  // the shallowest are kept
  EXPECT_TRUE(result.truncated);

  result = suggest_directories(workspace_, 3, 5);  // exactly everything
  EXPECT_EQ(result.dirs.size(), 5u);
  EXPECT_FALSE(result.truncated);

  result = suggest_directories(workspace_, 3, 0);
  EXPECT_TRUE(result.dirs.empty());
  EXPECT_TRUE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, SkipsDotDirectoriesAndEverythingUnderThem) {
  mkdirs({".git/objects", ".cache", "src/.hidden/deep", "src/lib"});
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"src", "src/lib"}));
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, SkipsNodeModulesAtAnyDepth) {
  mkdirs({"node_modules/left-pad", "app/node_modules/react", "app/src"});
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"app", "app/src"}));
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, NeverFollowsSymlinks) {
  mkdirs({"real/inside"});
  fs::create_directories(root_ / "outside" / "secret");
  fs::create_directory_symlink(root_ / "outside", workspace_ / "escape");
  fs::create_directory_symlink(workspace_ / "real", workspace_ / "alias");  // inside, too
  fs::create_directory_symlink(workspace_, workspace_ / "real" / "loop");
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"real", "real/inside"}));
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, ListsDirectoriesOnly) {
  mkdirs({"docs"});
  std::ofstream(workspace_ / "README.md") << "x";
  std::ofstream(workspace_ / "docs" / "guide.md") << "x";
  ASSERT_EQ(mkfifo((workspace_ / "pipe").c_str(), 0600), 0);
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"docs"}));
  EXPECT_FALSE(result.truncated);
}

TEST_F(DirectorySuggestionsTest, PassesOverUnreadableFolders) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every folder";
  mkdirs({"locked/inner", "open/inner"});
  fs::permissions(workspace_ / "locked", fs::perms::none);
  auto result = suggest_directories(workspace_);
  EXPECT_EQ(result.dirs, (Dirs{"locked", "open", "open/inner"}));
}

TEST_F(DirectorySuggestionsTest, AMissingWorkspaceSuggestsNothing) {
  auto result = suggest_directories(root_ / "missing");
  EXPECT_TRUE(result.dirs.empty());
  EXPECT_FALSE(result.truncated);
}

}  // namespace
}  // namespace wharf::app
