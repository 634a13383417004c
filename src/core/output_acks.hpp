// Flow control from the window's side (docs/protocol.md, "Flow control"; the daemon's
// side is core/output_budget.hpp): a window counts the bytes of binary frames its
// terminal has taken since the last `attached`, and acknowledges the running total at
// least every kAckEvery bytes and whenever it has caught up, so the daemon can tell a
// window that keeps up from one to skip ahead with a snapshot. `wharf attach` counts
// with this; the page (web/connection.js) follows the same rules.
//
// Invariants:
// - Only the current attachment's bytes count: each `attached` starts a new epoch, and
//   writes queued under an older one add nothing when they finish.
// - Between asking for a re-attach and its `attached`, nothing is acknowledged: the
//   daemon's count starts again there, and an old total would be refused.
// - Each total is acknowledged once, and only when it grew.
#pragma once

#include <cstdint>
#include <optional>

namespace wharf::core {

class OutputAcks {
 public:
  static constexpr std::uint64_t kAckEvery = 64 * 1024;  // as the page: at least this often

  // The attachment that output written now belongs to.
  std::uint64_t epoch() const { return epoch_; }
  // An `attached`: counting starts again, in a new epoch.
  void restart();
  // A re-attach was asked for: acks wait for its `attached`.
  void pause() { paused_ = true; }
  // `bytes` of attachment `epoch` have been written; `caught_up` when nothing else waits
  // to be. True when an ack is due.
  bool written(std::uint64_t bytes, std::uint64_t epoch, bool caught_up);
  // The total to acknowledge now, if any; from then on it counts as acknowledged.
  std::optional<std::uint64_t> take();

 private:
  std::uint64_t epoch_ = 0;
  std::uint64_t processed_ = 0;
  std::uint64_t acked_ = 0;
  bool paused_ = false;
};

}  // namespace wharf::core
