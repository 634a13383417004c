// The pending decisions (core/decision_book.hpp) with a manual clock: ids that only grow,
// one answer each, deadlines, withdrawal, the note's bound and the book's.
#include "core/decision_book.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

using namespace std::chrono_literals;

DecisionRequest push(SessionId session) {
  return DecisionRequest{.session = session,
                         .what = "git push",
                         .argv = {"git", "push", "origin", "main"},
                         .cwd = "/work/repo",
                         .source = "guard"};
}

TEST(DecisionBook, OpensWithIncreasingIdsAndADeadline) {
  DecisionBook book(120s);
  auto a = book.open(push(1), 1000);
  auto b = book.open(push(2), 2000);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.value().id, 1u);
  EXPECT_EQ(b.value().id, 2u);
  EXPECT_EQ(a.value().opened_at_ms, 1000);
  EXPECT_EQ(a.value().expires_at_ms, 121000);
  EXPECT_EQ(a.value().request.argv.size(), 4u);
  EXPECT_EQ(book.next_deadline(), 121000);
  EXPECT_EQ(book.size(), 2u);
}

TEST(DecisionBook, ExpiryIsClampedToItsBounds) {
  EXPECT_EQ(DecisionBook(1s).expiry(), kMinDecisionExpiry);
  EXPECT_EQ(DecisionBook(999999s).expiry(), kMaxDecisionExpiry);
  EXPECT_EQ(DecisionBook().expiry(), 600s);
}

TEST(DecisionBook, AnswerClosesOnceAndSaysWho) {
  DecisionBook book;
  auto id = book.open(push(3), 0).value().id;
  auto approved = book.answer(id, true, "cli", "go ahead", 5000);
  ASSERT_TRUE(approved);
  EXPECT_EQ(approved.value().state, DecisionState::kApproved);
  EXPECT_EQ(approved.value().by, "cli");
  EXPECT_EQ(approved.value().note, "go ahead");
  EXPECT_EQ(approved.value().session, 3u);
  EXPECT_EQ(approved.value().at_ms, 5000);
  EXPECT_EQ(book.size(), 0u);
  auto again = book.answer(id, false, "key", "", 6000);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, "already_answered");
  EXPECT_NE(again.error().message.find("approved"), std::string::npos);
}

TEST(DecisionBook, DenyKeepsTheNote) {
  DecisionBook book;
  auto id = book.open(push(1), 0).value().id;
  auto denied = book.answer(id, false, "device:phone", "not on main", 1);
  ASSERT_TRUE(denied);
  EXPECT_EQ(denied.value().state, DecisionState::kDenied);
  EXPECT_EQ(denied.value().note, "not on main");
}

TEST(DecisionBook, UnknownIdsAndLongNotesAreRefused) {
  DecisionBook book;
  auto unknown = book.answer(42, true, "cli", "", 0);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, "no_decision");
  auto id = book.open(push(1), 0).value().id;
  auto long_note = book.answer(id, true, "cli", std::string(kMaxDecisionNoteBytes + 1, 'x'), 1);
  ASSERT_FALSE(long_note);
  EXPECT_EQ(long_note.error().code, "bad_argument");
  EXPECT_EQ(book.size(), 1u);  // a refused answer leaves the decision waiting
  EXPECT_TRUE(book.answer(id, true, "cli", std::string(kMaxDecisionNoteBytes, 'x'), 2));
}

TEST(DecisionBook, ExpireCollectsWhatIsDueAndOnlyThat) {
  DecisionBook book(10s);
  auto a = book.open(push(1), 0).value().id;
  auto b = book.open(push(1), 5000).value().id;
  EXPECT_TRUE(book.expire(9999).empty());
  auto due = book.expire(10000);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].id, a);
  EXPECT_EQ(due[0].state, DecisionState::kExpired);
  EXPECT_EQ(due[0].by, "");
  EXPECT_EQ(book.next_deadline(), 15000);
  EXPECT_EQ(book.answer(a, true, "cli", "", 10001).error().code, "already_answered");
  EXPECT_EQ(book.expire(15000).front().id, b);
  EXPECT_FALSE(book.next_deadline());
}

TEST(DecisionBook, ALateYesIsRefusedEvenBeforeExpireRuns) {
  DecisionBook book(10s);
  auto id = book.open(push(1), 0).value().id;
  auto late = book.answer(id, true, "cli", "", 10000);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, "already_answered");
  EXPECT_NE(late.error().message.find("expired"), std::string::npos);
  EXPECT_EQ(book.size(), 0u);
}

TEST(DecisionBook, WithdrawClosesWithoutAnAnswer) {
  DecisionBook book;
  auto id = book.open(push(1), 0).value().id;
  auto withdrawn = book.withdraw(id, 7);
  ASSERT_TRUE(withdrawn);
  EXPECT_EQ(withdrawn->state, DecisionState::kWithdrawn);
  EXPECT_FALSE(book.withdraw(id, 8));
  EXPECT_EQ(book.answer(id, true, "cli", "", 9).error().code, "already_answered");
}

TEST(DecisionBook, ListsPendingOnesBySession) {
  DecisionBook book;
  (void)book.open(push(1), 0);
  (void)book.open(push(2), 0);
  (void)book.open(push(1), 0);
  EXPECT_EQ(book.list().size(), 3u);
  auto ones = book.list(1);
  ASSERT_EQ(ones.size(), 2u);
  EXPECT_EQ(ones[0].id, 1u);
  EXPECT_EQ(ones[1].id, 3u);
  EXPECT_TRUE(book.list(9).empty());
  ASSERT_NE(book.find(2), nullptr);
  EXPECT_EQ(book.find(2)->request.session, 2u);
  EXPECT_EQ(book.find(99), nullptr);
}

TEST(DecisionBook, RefusesMoreThanItsBoundAndIdsAreNeverReused) {
  DecisionBook book;
  for (std::size_t i = 0; i < kMaxPendingDecisions; ++i) ASSERT_TRUE(book.open(push(1), 0));
  auto over = book.open(push(1), 0);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, "too_many_decisions");
  ASSERT_TRUE(book.withdraw(1, 0));
  auto next = book.open(push(1), 0);
  ASSERT_TRUE(next);
  EXPECT_EQ(next.value().id, kMaxPendingDecisions + 1);
}

}  // namespace
}  // namespace wharf::core
