// Flow control for one window (docs/protocol.md, "Flow control"). The window may have
// at most `budget` bytes of output sent but not yet acknowledged. Past that it is
// "behind": live output is no longer sent to it, and once it has acknowledged all it
// was sent, it is due a fresh snapshot, after which live output resumes. So a slow
// window skips states instead of making the daemon queue bytes for it.
//
// The budget is also measured in time: from its acknowledgements the window's own
// processing rate is learned (only over stretches where it had work queued, so an idle
// window does not look slow), and the budget shrinks to about kTargetLag of that work, so
// a page that chews 2 MB/s falls behind after 0.2 s of output, not after a whole MiB, and
// jumps to the current screen (mosh's lesson) instead of replaying what scrolled past.
#pragma once

#include <chrono>
#include <cstdint>

namespace wharf::core {

inline constexpr std::uint64_t kDefaultOutputBudget = 1 << 20;
inline constexpr std::chrono::milliseconds kTargetLag{100};
inline constexpr std::uint64_t kMinOutputBudget = 32 * 1024;
// Before the first measurement: about what a busy page processes in a few tenths of a second.
inline constexpr std::uint64_t kInitialOutputBudget = 256 * 1024;

class OutputBudget {
 public:
  enum class Ack { kAccepted, kResync, kInvalid };

  explicit OutputBudget(std::uint64_t budget = kDefaultOutputBudget) : budget_(budget) {}

  // A new attachment: counting starts again from zero.
  void reset() { *this = OutputBudget(budget_); }
  // Live output of `bytes`: true if it may be sent now (and it is counted as sent).
  bool try_send(std::uint64_t bytes);
  // A snapshot is always sent, counted, and ends the behind state.
  void snapshot_sent(std::uint64_t bytes);
  // The client's running total. kResync: everything sent is processed and the window
  // is behind, so send it a snapshot now. With `now`, the window's rate is learned.
  Ack on_ack(std::uint64_t total);
  Ack on_ack(std::uint64_t total, std::chrono::steady_clock::time_point now);

  // What may be unacknowledged now: the byte budget, or less for a window measured slow.
  std::uint64_t allowance() const;
  // Bytes per second the window was measured to process (0: not measured yet).
  double rate() const { return rate_; }

  bool behind() const { return behind_; }
  std::uint64_t unacknowledged() const { return sent_ - acked_; }
  std::uint64_t sent() const { return sent_; }

 private:
  std::uint64_t budget_;
  std::uint64_t sent_ = 0;
  std::uint64_t acked_ = 0;
  std::uint64_t snapshot_end_ = 0;  // sent_ right after the last snapshot
  std::uint64_t snapshot_bytes_ = 0;
  bool behind_ = false;
  // Rate learning: the last acknowledgement, and how much was queued behind it.
  std::chrono::steady_clock::time_point last_ack_at_{};
  std::uint64_t queued_at_last_ack_ = 0;
  bool measured_once_ = false;
  double rate_ = 0;
};

}  // namespace wharf::core
