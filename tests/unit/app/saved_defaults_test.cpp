// The kept default entry and directory (app/saved_defaults.hpp) against a real
// temporary directory: a missing file is nothing chosen, a round trip keeps both values
// (an empty directory, the workspace itself, included), the file is owner-only, and a
// damaged file is an error rather than a guess.
#include "app/saved_defaults.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace wharf::app {
namespace {

namespace fs = std::filesystem;

class SavedDefaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-defaults-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    file_ = root_ / "defaults.json";
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& text) { std::ofstream(file_) << text; }
  fs::path root_, file_;
};

TEST_F(SavedDefaultsTest, MissingFileIsNothingChosen) {
  auto loaded = load_defaults(file_);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_FALSE(loaded.value().entry);
  EXPECT_FALSE(loaded.value().cwd);
}

TEST_F(SavedDefaultsTest, RoundTripKeepsBothValuesOwnerOnly) {
  ASSERT_TRUE(save_defaults(file_, {.entry = "agent:codex", .cwd = "apps/api"}));
  auto loaded = load_defaults(file_);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded.value().entry, "agent:codex");
  EXPECT_EQ(loaded.value().cwd, "apps/api");
  struct stat st {};
  ASSERT_EQ(stat(file_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U);

  // The workspace itself is an empty directory, not "nothing chosen".
  ASSERT_TRUE(save_defaults(file_, {.entry = "shell:bash", .cwd = ""}));
  loaded = load_defaults(file_);
  ASSERT_TRUE(loaded);
  ASSERT_TRUE(loaded.value().cwd);
  EXPECT_EQ(*loaded.value().cwd, "");
}

TEST_F(SavedDefaultsTest, DamagedFileIsAnError) {
  for (const char* text : {"{not json", "[1,2]", "\"text\""}) {
    write(text);
    auto loaded = load_defaults(file_);
    EXPECT_FALSE(loaded) << text;
  }
  // Fields of another type are ignored, not taken.
  write(R"({"entry": 3, "cwd": "docs"})");
  auto loaded = load_defaults(file_);
  ASSERT_TRUE(loaded);
  EXPECT_FALSE(loaded.value().entry);
  EXPECT_EQ(loaded.value().cwd, "docs");
}

}  // namespace
}  // namespace wharf::app
