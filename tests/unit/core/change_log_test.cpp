// ChangeLog on its own: state numbers, and what a reader at an earlier state must redo.
#include "core/change_log.hpp"

#include <gtest/gtest.h>

namespace wharf::core {
namespace {

constexpr int kRows = 24;

TEST(ChangeLogTest, NumbersOnlyStatesThatChangedSomething) {
  ChangeLog log(100, 0);
  EXPECT_EQ(log.seq(), 100u);
  EXPECT_EQ(log.next_seq(), 101u);
  EXPECT_FALSE(log.commit(false, 0, kRows));
  EXPECT_EQ(log.seq(), 100u);
  EXPECT_TRUE(log.commit(true, 0, kRows));
  EXPECT_EQ(log.seq(), 101u);
  EXPECT_EQ(ChangeLog(0, 0).seq(), 1u) << "0 is never a state: it means 'nothing seen'";
}

TEST(ChangeLogTest, AReaderInStepRedoesOnlyTheChangedRows) {
  ChangeLog log(1, 0);
  log.commit(true, 0, kRows);
  ChangeLog::Redo redo = log.since(1, 0, kRows);
  EXPECT_FALSE(redo.full);
  EXPECT_EQ(redo.scrolled, 0u);
  redo = log.since(log.seq(), 0, kRows);
  EXPECT_FALSE(redo.full);
}

TEST(ChangeLogTest, NothingSeenAFutureStateOrAReplacedScreenMeanEverything) {
  ChangeLog log(10, 0);
  log.commit(true, 0, kRows);
  EXPECT_TRUE(log.since(0, 0, kRows).full);
  EXPECT_TRUE(log.since(log.seq() + 1, 0, kRows).full);
  EXPECT_TRUE(log.since(9, 0, kRows).full) << "older than this screen";
  std::uint64_t before = log.seq();
  log.replace();
  EXPECT_TRUE(log.commit(false, 0, kRows)) << "a replaced screen is a new state by itself";
  EXPECT_TRUE(log.since(before, 0, kRows).full);
  EXPECT_FALSE(log.since(log.seq(), 0, kRows).full);
}

TEST(ChangeLogTest, ScrollingSinceAReadIsReportedAsAShift) {
  ChangeLog log(1, 0);
  log.commit(true, 0, kRows);
  std::uint64_t reader = log.seq();
  log.commit(true, 3, kRows);
  log.commit(true, 5, kRows);
  ChangeLog::Redo redo = log.since(reader, 5, kRows);
  EXPECT_FALSE(redo.full);
  EXPECT_EQ(redo.scrolled, 5u);
  redo = log.since(reader + 1, 5, kRows);
  EXPECT_EQ(redo.scrolled, 2u) << "only the scrolling after the reader's state counts";
}

TEST(ChangeLogTest, AScreenfulOfScrollingMeansEverything) {
  ChangeLog log(1, 0);
  std::uint64_t reader = log.seq();
  std::uint64_t scrolled = 0;
  for (int i = 0; i < 1000; ++i) log.commit(true, ++scrolled, kRows);
  EXPECT_TRUE(log.since(reader, scrolled, kRows).full);
  // A reader a few states behind still gets a shift, though the old marks are gone.
  EXPECT_FALSE(log.since(log.seq() - 3, scrolled, kRows).full);
  EXPECT_EQ(log.since(log.seq() - 3, scrolled, kRows).scrolled, 3u);
}

}  // namespace
}  // namespace wharf::core
