// The conversation probes against fake agent stores built in a temporary home: a
// conversation recorded for the directory is found; one for any other directory (a
// sibling whose path merely starts the same way included) is not; an empty, odd or
// missing store finds nothing. The store layouts are the ones the real agents wrote in
// docs/agents.md's experiments; Claude Code's folder names are checked against names the
// real binary made.
#include "app/conversation_probe.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace wharf::app {
namespace {

namespace fs = std::filesystem;

class ConversationProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-probe-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = fs::canonical(tmpl);
    home_ = root_ / "home";
    fs::create_directories(home_);
    // Two siblings where one name is a prefix of the other: /…/a/b and /…/a/bc.
    dir_ = root_ / "work" / "a" / "b";
    sibling_ = root_ / "work" / "a" / "bc";
    fs::create_directories(dir_);
    fs::create_directories(sibling_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  static void write_file(const fs::path& path, std::string_view content) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << content;
  }

  // Claude Code's rule written out plainly for the ASCII paths these tests use.
  static std::string claude_name(const fs::path& dir) {
    std::string name = dir.string();
    for (char& c : name) {
      bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alnum) c = '-';
    }
    return name;
  }
  fs::path claude_project(const fs::path& dir) const {
    return home_ / ".claude" / "projects" / claude_name(dir);
  }

  fs::path codex_day() const { return home_ / ".codex" / "sessions" / "2026" / "11" / "30"; }
  static std::string codex_meta(std::string_view cwd_json) {
    return std::string(R"({"timestamp":"2026-11-30T05:32:55.545Z","type":"session_meta",)") +
           R"("payload":{"id":"01a22af0","cwd":")" + std::string(cwd_json) +
           R"(","originator":"codex-tui","source":"cli","base_instructions":{"text":"x"}}})" +
           "\n" + R"({"type":"response_item","payload":{}})" + "\n";
  }

  fs::path opencode_db() const { return home_ / ".local" / "share" / "opencode" / "opencode.db"; }
  // The columns of opencode 1.18's session table that the probe reads.
  void opencode_store(std::string_view inserts) const {
    fs::create_directories(opencode_db().parent_path());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(opencode_db().c_str(), &db), SQLITE_OK);
    std::string sql =
        "PRAGMA journal_mode=WAL;"
        "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT,"
        " directory TEXT NOT NULL, title TEXT NOT NULL, time_updated INTEGER NOT NULL,"
        " time_archived INTEGER);" +
        std::string(inserts);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
  }
  static std::string opencode_row(std::string_view id, const fs::path& dir,
                                  std::string_view parent = "NULL",
                                  std::string_view archived = "NULL") {
    return "INSERT INTO session VALUES ('" + std::string(id) + "', 'global', " +
           std::string(parent) + ", '" + dir.string() + "', 't', 1, " + std::string(archived) +
           ");";
  }

  bool probe(std::string_view agent, const fs::path& dir) const {
    return has_previous_conversation(agent, home_, dir);
  }

  fs::path root_, home_, dir_, sibling_;
};

// ---- Claude Code -------------------------------------------------------------------

TEST(ClaudeProjectDirName, MatchesNamesTheRealBinaryMade) {
  // Each non-alphanumeric UTF-16 unit is one '-': 'é' is one unit.
  EXPECT_EQ(claude_project_dir_name("/tmp/pw/My proj.v2_x-\xC3\xA9"), "-tmp-pw-My-proj-v2-x--");
  // Past 200 characters: cut, then '-' and the base-36 hash of the whole path.
  std::string long_path = "/tmp/pw";
  for (int i = 1; i <= 25; ++i)
    long_path += "/segment-" + std::string(i < 10 ? "0" : "") + std::to_string(i);
  long_path += "/end";
  EXPECT_EQ(claude_project_dir_name(long_path),
            "-tmp-pw-segment-01-segment-02-segment-03-segment-04-segment-05-segment-06-segment-"
            "07-segment-08-segment-09-segment-10-segment-11-segment-12-segment-13-segment-14-"
            "segment-15-segment-16-segment-17-segme-kcphqs");
}

TEST(ClaudeProjectDirName, CountsUtf16UnitsLikeJavaScript) {
  // An emoji outside the BMP is a surrogate pair in JavaScript: two units, two dashes.
  EXPECT_EQ(claude_project_dir_name("/x/\xF0\x9F\x98\x80"), "-x---");
  // A byte that is not UTF-8 decodes to U+FFFD: one dash.
  EXPECT_EQ(claude_project_dir_name("/x/\xFFy"), "-x--y");
}

TEST_F(ConversationProbeTest, ClaudeFindsATranscriptForTheDirectory) {
  write_file(claude_project(dir_) / "ec12dda0-f173-4ed0-bcf6-494301139ede.jsonl",
             R"({"type":"user","message":{"role":"user","content":"hello"}})"
             "\n");
  EXPECT_TRUE(probe("claude", dir_));
  // The directory as written with a trailing slash or `..` is the same directory.
  EXPECT_TRUE(probe("claude", dir_.string() + "/"));
  EXPECT_TRUE(probe("claude", dir_ / ".." / "b"));
}

TEST_F(ConversationProbeTest, ClaudeIgnoresOtherDirectories) {
  write_file(claude_project(sibling_) / "s.jsonl", "{}\n");
  EXPECT_FALSE(probe("claude", dir_));
  EXPECT_FALSE(probe("claude", dir_.parent_path()));
  EXPECT_TRUE(probe("claude", sibling_));
}

TEST_F(ConversationProbeTest, ClaudeNeedsANonEmptyTranscript) {
  EXPECT_FALSE(probe("claude", dir_));  // no ~/.claude at all
  fs::create_directories(claude_project(dir_) / "memory");
  EXPECT_FALSE(probe("claude", dir_));  // the folder Claude makes before any message
  write_file(claude_project(dir_) / "empty.jsonl", "");
  write_file(claude_project(dir_) / "notes.txt", "not a transcript");
  EXPECT_FALSE(probe("claude", dir_));
}

// ---- Codex -------------------------------------------------------------------------

TEST_F(ConversationProbeTest, CodexFindsARolloutRecordedInTheDirectory) {
  write_file(codex_day() / "rollout-2026-11-30T05-32-47-01a22af0.jsonl", codex_meta(dir_.string()));
  EXPECT_TRUE(probe("codex", dir_));
  EXPECT_FALSE(probe("codex", sibling_));
  EXPECT_FALSE(probe("codex", dir_.parent_path()));
}

TEST_F(ConversationProbeTest, CodexIgnoresOtherDirectoriesAndOtherRecords) {
  write_file(codex_day() / "rollout-2026-11-30T05-00-00-a.jsonl", codex_meta(sibling_.string()));
  // A first line that is not the session's metadata says nothing about where it ran.
  write_file(codex_day() / "rollout-2026-11-30T06-00-00-b.jsonl",
             R"({"type":"response_item","payload":{"cwd":")" + dir_.string() + "\"}}\n");
  // Only rollout-*.jsonl files count.
  write_file(codex_day() / "other.jsonl", codex_meta(dir_.string()));
  EXPECT_FALSE(probe("codex", dir_));
}

TEST_F(ConversationProbeTest, CodexDecodesEscapedPaths) {
  fs::path odd = root_ / "work" / "q\"uote\\slash";
  fs::create_directories(odd);
  std::string escaped;
  for (char c : odd.string()) {
    if (c == '"' || c == '\\') escaped.push_back('\\');
    escaped.push_back(c);
  }
  write_file(codex_day() / "rollout-2026-11-30T07-00-00-c.jsonl", codex_meta(escaped));
  EXPECT_TRUE(probe("codex", odd));
}

TEST_F(ConversationProbeTest, CodexReadsOnlyTheStartOfALongFirstLine) {
  // Real first lines carry the whole base instructions (tens of KiB); cwd comes first.
  std::string line = codex_meta(dir_.string());
  line.insert(line.find("\"x\""), std::string(200 * 1024, 'x'));
  write_file(codex_day() / "rollout-2026-11-30T08-00-00-d.jsonl", line);
  EXPECT_TRUE(probe("codex", dir_));
}

TEST_F(ConversationProbeTest, CodexFindsNothingInAnEmptyOrMissingStore) {
  EXPECT_FALSE(probe("codex", dir_));
  fs::create_directories(codex_day());
  EXPECT_FALSE(probe("codex", dir_));
  write_file(codex_day() / "rollout-2026-11-30T09-00-00-e.jsonl", "");
  EXPECT_FALSE(probe("codex", dir_));
}

TEST_F(ConversationProbeTest, CodexIsNotStalledByAFifo) {
  fs::create_directories(codex_day());
  fs::path fifo = codex_day() / "rollout-2026-11-30T10-00-00-f.jsonl";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  write_file(codex_day() / "rollout-2026-11-30T09-00-00-g.jsonl", codex_meta(dir_.string()));
  EXPECT_TRUE(probe("codex", dir_));
}

// ---- opencode ----------------------------------------------------------------------

TEST_F(ConversationProbeTest, OpencodeFindsATopLevelSessionInTheDirectory) {
  opencode_store(opencode_row("ses_1", dir_));
  EXPECT_TRUE(probe("opencode", dir_));
  EXPECT_FALSE(probe("opencode", sibling_));
  EXPECT_FALSE(probe("opencode", dir_.parent_path()));
}

TEST_F(ConversationProbeTest, OpencodeIgnoresSubagentAndArchivedSessions) {
  opencode_store(opencode_row("ses_child", dir_, "'ses_parent'") +
                 opencode_row("ses_old", dir_, "NULL", "1700000000000") +
                 opencode_row("ses_other", sibling_));
  EXPECT_FALSE(probe("opencode", dir_));
  EXPECT_TRUE(probe("opencode", sibling_));
}

TEST_F(ConversationProbeTest, OpencodeFindsNothingInAnEmptyOrMissingStore) {
  EXPECT_FALSE(probe("opencode", dir_));
  write_file(opencode_db(), "");  // an empty file is an empty database: no session table
  EXPECT_FALSE(probe("opencode", dir_));
  write_file(opencode_db(), "not a database at all, just some bytes that are long enough");
  EXPECT_FALSE(probe("opencode", dir_));
  fs::remove(opencode_db());
  opencode_store("");
  EXPECT_FALSE(probe("opencode", dir_));
}

// ---- Anything else -----------------------------------------------------------------

TEST_F(ConversationProbeTest, UnknownProbesHaveNothingToResume) {
  write_file(claude_project(dir_) / "t.jsonl", "{}\n");
  EXPECT_FALSE(probe("gemini", dir_));
  EXPECT_FALSE(probe("", dir_));
  EXPECT_FALSE(probe("Claude", dir_));
  EXPECT_TRUE(probe("claude", dir_));
}

}  // namespace
}  // namespace wharf::app
