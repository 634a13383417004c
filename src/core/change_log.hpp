// Numbers the states of a visible screen for readers that poll it as text, and says
// what a reader holding an earlier state has to redo: everything, or shift its copy up
// by some rows and then replace the rows that changed since (each grid row carries the
// number of its last change, stamped while feeding; see cell_grid.hpp).
//
// Invariants: the number only grows and starts at the first number given (at least 1);
// one mark per state that scrolled is kept, ascending, from the state the screen was last
// replaced on, and marks more than a screenful of scrolling old are dropped, so the log
// holds at most one mark per row.
#pragma once

#include <cstdint>
#include <deque>

namespace wharf::core {

class ChangeLog {
 public:
  // `scrolled` is the active grid's scroll count now (CellGrid::scrolled()).
  ChangeLog(std::uint64_t first_seq, std::uint64_t scrolled);

  std::uint64_t seq() const { return seq_; }
  // The number the next state will have: what the grids stamp rows with while feeding.
  std::uint64_t next_seq() const { return seq_ + 1; }
  // The screen on show was replaced (resize, alternate screen switched, reset): every
  // reader from before it needs everything.
  void replace() { replace_pending_ = true; }
  // Ends a feed or resize. A new state when cells on show changed or the screen was
  // replaced; returns whether there is one. `rows` bounds how many marks are kept.
  bool commit(bool cells_changed, std::uint64_t scrolled, int rows);

  struct Redo {
    bool full = true;            // every row
    std::uint64_t scrolled = 0;  // else: rows the whole screen moved up first (< rows)
  };
  // What a reader at state `seen` has to redo to reach seq(), given the active grid's
  // scroll count now.
  Redo since(std::uint64_t seen, std::uint64_t scrolled, int rows) const;

 private:
  struct ScrollMark {
    std::uint64_t seq;       // a state...
    std::uint64_t scrolled;  // ...and the active grid's scroll count from it on
  };
  std::uint64_t seq_;
  std::uint64_t replaced_at_;  // the first state of the screen on show
  bool replace_pending_ = false;
  std::deque<ScrollMark> marks_;
};

}  // namespace wharf::core
