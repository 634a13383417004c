// The decision desk (app/decision_desk.hpp) with a manual clock, a real store in a
// temporary directory and a notifier whose channel records what it is handed: what an
// opening records, notifies and announces; one outcome per decision whichever way it
// closes (answer, timer expiry, late answer, withdrawal); and what is refused.
#include "app/decision_desk.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <filesystem>

#include "store/metadata_store.hpp"

namespace wharf::app {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct Recorder : NotificationChannel {
  std::vector<Notification> got;
  std::string_view name() const override { return "recorder"; }
  void deliver(const Notification& notification) override { got.push_back(notification); }
};

class DecisionDeskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "wharf-desk-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    auto opened = store::MetadataStore::open(dir_ / "wharf.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store_.emplace(std::move(opened.value()));
    run_ = store_->begin_run(1000, 42).value().run_id;
    for (core::SessionId id : {core::SessionId{1}, core::SessionId{2}})
      ASSERT_TRUE(
          store_->session_started(run_, store::SessionRecord{.session_id = id,
                                                             .name = "claude " + std::to_string(id),
                                                             .entry = "claude",
                                                             .kind = "agent",
                                                             .program = "/usr/bin/claude",
                                                             .cwd = "/work",
                                                             .owner = "key",
                                                             .env_names = {},
                                                             .created_at_ms = 1000}));
    notifier_.add_channel(recorder_);
  }
  void TearDown() override {
    desk_.reset();
    store_.reset();
    fs::remove_all(dir_);
  }

  DecisionDesk& desk(std::chrono::seconds expiry = 600s) {
    desk_.emplace(
        io_, expiry, &*store_, run_,
        [this](core::SessionId id) -> std::optional<DecisionSessionView> {
          if (id > 2) return std::nullopt;
          return DecisionSessionView{.name = "claude " + std::to_string(id),
                                     .program = "claude",
                                     .looked_at = looking_,
                                     .run_id = run_};
        },
        [this] { ++changes_; }, [this] { return now_; });
    desk_->set_notifier(&notifier_);
    return *desk_;
  }

  static core::DecisionRequest push(core::SessionId session) {
    return core::DecisionRequest{.session = session,
                                 .what = "git push",
                                 .argv = {"git", "push", "origin", "main"},
                                 .cwd = "/work/repo",
                                 .source = "guard"};
  }

  std::string stored_outcome(core::SessionId session, std::uint64_t id) {
    auto rows = store_->decisions(run_, session, 100);
    for (const store::DecisionRecord& d : rows.value())
      if (d.decision_id == id) return d.outcome + "|" + d.answered_by + "|" + d.note;
    return "none";
  }

  // Runs the loop until `done` holds, for at most `limit` of real time.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = 5000ms) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      io_.restart();
      io_.run_for(50ms);
    }
    return done();
  }

  fs::path dir_;
  std::optional<store::MetadataStore> store_;
  std::int64_t run_ = 0;
  boost::asio::io_context io_;
  Notifier notifier_{NotifierOptions{}};
  Recorder recorder_;
  std::optional<DecisionDesk> desk_;
  std::int64_t now_ = 1'000'000;
  int changes_ = 0;
  bool looking_ = false;
};

TEST_F(DecisionDeskTest, OpeningRecordsNotifiesAndAnnounces) {
  DecisionDesk& d = desk();
  std::uint64_t id = d.open(push(1), [](const core::DecisionOutcome&) {});
  ASSERT_EQ(id, 1u);
  EXPECT_EQ(changes_, 1);
  EXPECT_EQ(stored_outcome(1, id), "pending||");
  ASSERT_EQ(recorder_.got.size(), 1u);
  EXPECT_EQ(recorder_.got[0].kind, "waiting");
  EXPECT_EQ(recorder_.got[0].title, "claude 1 is waiting for you");
  EXPECT_EQ(recorder_.got[0].message, "Approve? git push origin main (session 1)");

  ASSERT_EQ(d.pending().size(), 1u);
  boost::json::object shown = d.pending_json(d.pending()[0]);
  EXPECT_EQ(shown.at("id").to_number<std::int64_t>(), 1);
  EXPECT_EQ(shown.at("session").to_number<std::int64_t>(), 1);
  EXPECT_EQ(shown.at("session_name").as_string(), "claude 1");
  EXPECT_EQ(shown.at("what").as_string(), "git push");
  EXPECT_EQ(shown.at("argv").as_array().size(), 4u);
  EXPECT_EQ(shown.at("cwd").as_string(), "/work/repo");
  EXPECT_EQ(shown.at("source").as_string(), "guard");
  EXPECT_EQ(shown.at("opened_at_ms").to_number<std::int64_t>(), now_);
  EXPECT_EQ(shown.at("expires_at_ms").to_number<std::int64_t>(), now_ + 600'000);
  boost::json::value message = boost::json::parse(d.decisions_message());
  EXPECT_EQ(message.at("type").as_string(), "decisions");
  EXPECT_EQ(message.at("decisions").as_array().size(), 1u);
}

TEST_F(DecisionDeskTest, TheNotifiersRulesApply) {
  DecisionDesk& d = desk();
  looking_ = true;  // somebody is looking at session 1: nothing leaves the page
  ASSERT_NE(d.open(push(1), nullptr), 0u);
  EXPECT_TRUE(recorder_.got.empty());
  looking_ = false;
  ASSERT_NE(d.open(push(2), nullptr), 0u);
  ASSERT_NE(d.open(push(2), nullptr), 0u);  // within the debounce: one notification
  EXPECT_EQ(recorder_.got.size(), 1u);
}

TEST_F(DecisionDeskTest, AnAnswerReachesTheRequesterOnceAndTheStore) {
  DecisionDesk& d = desk();
  std::vector<core::DecisionOutcome> heard;
  std::uint64_t id = d.open(push(1), [&](const core::DecisionOutcome& o) { heard.push_back(o); });
  auto answered = d.answer(id, false, "device:phone", "push a branch");
  ASSERT_TRUE(answered) << answered.error().message;
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].state, core::DecisionState::kDenied);
  EXPECT_EQ(heard[0].by, "device:phone");
  EXPECT_EQ(heard[0].note, "push a branch");
  EXPECT_EQ(stored_outcome(1, id), "denied|device:phone|push a branch");
  EXPECT_TRUE(d.pending().empty());
  EXPECT_EQ(changes_, 2);

  auto again = d.answer(id, true, "cli", "");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, "already_answered");
  EXPECT_EQ(heard.size(), 1u);
  EXPECT_EQ(stored_outcome(1, id), "denied|device:phone|push a branch");
  EXPECT_EQ(d.answer(99, true, "cli", "").error().code, "no_decision");
}

TEST_F(DecisionDeskTest, TheTimerExpiresWhatNobodyAnswered) {
  DecisionDesk& d = desk(10s);
  std::vector<core::DecisionOutcome> heard;
  std::uint64_t id = d.open(push(1), [&](const core::DecisionOutcome& o) { heard.push_back(o); });
  io_.restart();
  io_.run_for(100ms);  // not due: nothing happens
  EXPECT_TRUE(heard.empty());
  now_ += 10'000;  // the deadline passes (as after a suspended laptop)
  ASSERT_TRUE(run_until([&] { return !heard.empty(); }));
  EXPECT_EQ(heard[0].id, id);
  EXPECT_EQ(heard[0].state, core::DecisionState::kExpired);
  EXPECT_EQ(stored_outcome(1, id), "expired||");
  EXPECT_TRUE(d.pending().empty());
  EXPECT_EQ(changes_, 2);
}

TEST_F(DecisionDeskTest, ALateAnswerIsRefusedAndTheRequesterHearsExpired) {
  DecisionDesk& d = desk(10s);
  std::vector<core::DecisionOutcome> heard;
  std::uint64_t id = d.open(push(1), [&](const core::DecisionOutcome& o) { heard.push_back(o); });
  now_ += 10'001;
  auto late = d.answer(id, true, "cli", "");
  ASSERT_FALSE(late);
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].state, core::DecisionState::kExpired);
  EXPECT_EQ(heard[0].session, 1u);
  EXPECT_EQ(stored_outcome(1, id), "expired||");
}

TEST_F(DecisionDeskTest, AnEndedSessionsDecisionsAreWithdrawn) {
  DecisionDesk& d = desk();
  std::vector<core::DecisionOutcome> heard;
  auto listen = [&](const core::DecisionOutcome& o) { heard.push_back(o); };
  std::uint64_t a = d.open(push(1), listen);
  std::uint64_t b = d.open(push(2), listen);
  std::uint64_t c = d.open(push(1), listen);
  d.withdraw_session(1);
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[0].state, core::DecisionState::kWithdrawn);
  EXPECT_EQ(stored_outcome(1, a), "withdrawn||");
  EXPECT_EQ(stored_outcome(1, c), "withdrawn||");
  EXPECT_EQ(stored_outcome(2, b), "pending||");
  ASSERT_EQ(d.pending().size(), 1u);
  d.withdraw(b);
  EXPECT_EQ(heard.size(), 3u);
  d.withdraw(b);  // once only
  EXPECT_EQ(heard.size(), 3u);
}

TEST_F(DecisionDeskTest, AnOutcomeMayOpenTheNextDecision) {
  DecisionDesk& d = desk();
  std::uint64_t second = 0;
  std::uint64_t first =
      d.open(push(1), [&](const core::DecisionOutcome&) { second = d.open(push(1), nullptr); });
  ASSERT_TRUE(d.answer(first, true, "cli", ""));
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(d.pending().size(), 1u);
}

TEST_F(DecisionDeskTest, AFullBookRefusesAndTheStoreIsNotNeeded) {
  DecisionDesk& d = desk();
  for (std::size_t i = 0; i < core::kMaxPendingDecisions; ++i)
    ASSERT_NE(d.open(push(1), nullptr), 0u);
  EXPECT_EQ(d.open(push(1), nullptr), 0u);
  // A session the store never heard of: the decision still works, the audit logs why not.
  DecisionDesk other(io_, 600s, &*store_, run_, nullptr, nullptr, [this] { return now_; });
  std::uint64_t id = other.open(push(9), nullptr);
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(other.answer(id, true, "cli", ""));
}

}  // namespace
}  // namespace wharf::app
