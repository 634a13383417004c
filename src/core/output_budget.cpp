#include "core/output_budget.hpp"

#include <algorithm>

namespace wharf::core {

bool OutputBudget::try_send(std::uint64_t bytes) {
  if (behind_) return false;
  // A snapshot in flight does not count against the budget for live output, or a screen
  // larger than the budget would leave a window resyncing for ever.
  std::uint64_t allowance = this->allowance() + (acked_ < snapshot_end_ ? snapshot_bytes_ : 0);
  // With nothing outstanding a chunk always goes, however large: no ack would come to
  // end a behind state that started there.
  if (unacknowledged() > 0 && unacknowledged() + bytes > allowance) {
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

std::uint64_t OutputBudget::allowance() const {
  std::uint64_t cap = budget_;
  if (rate_ > 0) {
    double lag = std::chrono::duration<double>(kTargetLag).count();
    cap = static_cast<std::uint64_t>(rate_ * lag);
  } else if (measured_once_ || budget_ > kInitialOutputBudget) {
    cap = kInitialOutputBudget;
  }
  return std::min(budget_, std::max(cap, std::min(kMinOutputBudget, budget_)));
}

OutputBudget::Ack OutputBudget::on_ack(std::uint64_t total,
                                       std::chrono::steady_clock::time_point now) {
  std::uint64_t before = acked_;
  Ack ack = on_ack(total);
  if (ack == Ack::kInvalid) return ack;
  std::uint64_t processed = total - before;
  if (measured_once_ && processed > 0 && queued_at_last_ack_ >= processed) {
    // The window had at least this much queued since its last acknowledgement: it worked
    // the whole time, so this is its rate (smoothed, so one slow frame does not decide).
    double seconds = std::chrono::duration<double>(now - last_ack_at_).count();
    if (seconds > 0.0005) {
      double sample = static_cast<double>(processed) / seconds;
      rate_ = rate_ > 0 ? 0.7 * rate_ + 0.3 * sample : sample;
    }
  }
  measured_once_ = true;
  last_ack_at_ = now;
  queued_at_last_ack_ = sent_ - acked_;
  return ack;
}

}  // namespace wharf::core
