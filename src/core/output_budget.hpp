// Flow control for one window (docs/protocol.md, "Flow control"). The window may have
// at most `budget` bytes of output sent but not yet acknowledged. Past that it is
// "behind": live output is no longer sent to it, and once it has acknowledged all it
// was sent, it is due a fresh snapshot, after which live output resumes. So a slow
// window skips states instead of making the daemon queue bytes for it.
#pragma once

#include <cstdint>

namespace wharf::core {

inline constexpr std::uint64_t kDefaultOutputBudget = 1 << 20;

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
  // is behind, so send it a snapshot now.
  Ack on_ack(std::uint64_t total);

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
};

}  // namespace wharf::core
