// PaneStore against a real temporary directory: a page survives into a new store (a
// daemon restart) for the same session and never for a later session with the same id,
// a publish replaces page and token, feedback is filed as JSON for the current token only
// and within the rate, and an ended session still takes feedback.
#include "app/pane_store.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace wharf::app {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

class PaneStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-pane-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    dir_ = root_ / "pane";
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
  fs::path dir_;
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_F(PaneStoreTest, PageSurvivesARestartForTheSameSessionOnly) {
  {
    PaneStore store(dir_, 1024);
    auto page = store.publish(3, 111, "<p>hello</p>", "Hello", 1000);
    ASSERT_TRUE(page) << page.error().message;
  }
  PaneStore again(dir_, 1024);
  const core::PaneSummary* kept = again.current(3, 111);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->title, "Hello");
  auto document = again.document(3, kept->token);
  ASSERT_TRUE(document);
  EXPECT_NE(document->find("<p>hello</p>"), std::string::npos);
  // A later session given id 3 (created at another time) never sees it; it is removed.
  PaneStore third(dir_, 1024);
  EXPECT_EQ(third.current(3, 222), nullptr);
  EXPECT_FALSE(fs::exists(dir_ / "3" / "page.html"));
}

TEST_F(PaneStoreTest, PublishReplacesTokenAndOldTokenServesNothing) {
  PaneStore store(dir_, 1024);
  auto first = store.publish(1, 5, "<p>a</p>", "", 10).value();
  auto second = store.publish(1, 5, "<p>b</p>", "", 20).value();
  EXPECT_NE(first.token, second.token);
  EXPECT_FALSE(store.document(1, first.token));
  EXPECT_TRUE(store.document(1, second.token));
  auto too_big = store.publish(1, 5, std::string(1025, 'x'), "", 30);
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.error().code, "too_large");
  EXPECT_TRUE(store.document(1, second.token));  // a refused publish replaces nothing
  EXPECT_TRUE(store.clear(1));
  EXPECT_FALSE(store.document(1, second.token));
  EXPECT_EQ(store.current(1, 5), nullptr);
  EXPECT_FALSE(store.clear(1));
}

TEST_F(PaneStoreTest, FeedbackIsFiledForTheCurrentPageWithinTheRate) {
  PaneStore store(dir_, 1024);
  auto page = store.publish(2, 5, "<form data-feedback></form>", "Ask", 10).value();
  auto stale = store.file_feedback(2, "0123", R"({"a":"b"})", 1000);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, "no_page");
  auto filed = store.file_feedback(2, page.token, R"({"choice":"yes"})", 5000);
  ASSERT_TRUE(filed) << filed.error().message;
  EXPECT_EQ(filed.value().path, dir_ / "2" / "feedback" / "5000.json");
  json::value record = json::parse(read(filed.value().path));
  EXPECT_EQ(record.at("fields").at("choice").as_string(), "yes");
  EXPECT_EQ(record.at("submitted_at").as_int64(), 5000);
  EXPECT_EQ(record.at("title").as_string(), "Ask");
  struct stat st {};
  ASSERT_EQ(stat(filed.value().path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto soon = store.file_feedback(2, page.token, R"({"choice":"no"})", 5500);
  ASSERT_FALSE(soon);
  EXPECT_EQ(soon.error().code, "too_soon");
  auto bad = store.file_feedback(2, page.token, R"({"choice":1})", 7000);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, "bad_feedback");
  // The session ended: its document leaves memory, feedback is still filed.
  store.session_ended(2);
  EXPECT_TRUE(store.file_feedback(2, page.token, R"({"choice":"late"})", 9000));
  EXPECT_TRUE(store.document(2, page.token));  // read back from disk
}

}  // namespace
}  // namespace wharf::app
