#include "core/output_budget.hpp"

namespace wharf::core {

bool OutputBudget::try_send(std::uint64_t bytes) {
  if (behind_) return false;
  // A snapshot in flight does not count against the budget for live output, or a screen
  // larger than the budget would leave a window resyncing for ever.
  std::uint64_t allowance = budget_ + (acked_ < snapshot_end_ ? snapshot_bytes_ : 0);
  if (unacknowledged() + bytes > allowance) {
    behind_ = true;
    return false;
  }
  sent_ += bytes;
  return true;
}

void OutputBudget::snapshot_sent(std::uint64_t bytes) {
  sent_ += bytes;
  snapshot_end_ = sent_;
  snapshot_bytes_ = bytes;
  behind_ = false;
}

OutputBudget::Ack OutputBudget::on_ack(std::uint64_t total) {
  if (total > sent_ || total < acked_) return Ack::kInvalid;
  acked_ = total;
  if (behind_ && acked_ == sent_) return Ack::kResync;
  return Ack::kAccepted;
}

}  // namespace wharf::core
