#include "core/output_acks.hpp"

namespace wharf::core {

void OutputAcks::restart() {
  ++epoch_;
  processed_ = 0;
  acked_ = 0;
  paused_ = false;
}

bool OutputAcks::written(std::uint64_t bytes, std::uint64_t epoch, bool caught_up) {
  if (epoch == epoch_) processed_ += bytes;
  return processed_ - acked_ >= kAckEvery || caught_up;
}

std::optional<std::uint64_t> OutputAcks::take() {
  if (paused_ || processed_ <= acked_) return std::nullopt;
  acked_ = processed_;
  return processed_;
}

}  // namespace wharf::core
