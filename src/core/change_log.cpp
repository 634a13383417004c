#include "core/change_log.hpp"

#include <algorithm>
#include <iterator>

namespace wharf::core {

ChangeLog::ChangeLog(std::uint64_t first_seq, std::uint64_t scrolled)
    : seq_(std::max<std::uint64_t>(first_seq, 1)), replaced_at_(seq_) {
  marks_.push_back({seq_, scrolled});
}

bool ChangeLog::commit(bool cells_changed, std::uint64_t scrolled, int rows) {
  if (!cells_changed && !replace_pending_) return false;
  ++seq_;
  if (replace_pending_) {
    replace_pending_ = false;
    replaced_at_ = seq_;
    marks_.clear();
    marks_.push_back({seq_, scrolled});
  } else if (scrolled != marks_.back().scrolled) {
    marks_.push_back({seq_, scrolled});
    // A reader behind the second mark is a screenful or more behind: the first is enough
    // to tell it so. This bounds the marks by the number of rows.
    auto screenful = static_cast<std::uint64_t>(rows);
    while (marks_.size() > 1 && marks_[1].scrolled + screenful <= scrolled) marks_.pop_front();
  }
  return true;
}

ChangeLog::Redo ChangeLog::since(std::uint64_t seen, std::uint64_t scrolled, int rows) const {
  if (seen == 0 || seen > seq_ || seen < replaced_at_) return Redo{};
  // The reader's copy was shifted by every scroll after the last mark at or before it.
  auto after =
      std::upper_bound(marks_.begin(), marks_.end(), seen,
                       [](std::uint64_t seq, const ScrollMark& mark) { return seq < mark.seq; });
  if (after == marks_.begin()) return Redo{};  // dropped: a screenful or more ago
  std::uint64_t moved = scrolled - std::prev(after)->scrolled;
  if (moved >= static_cast<std::uint64_t>(rows)) return Redo{};
  return Redo{.full = false, .scrolled = moved};
}

}  // namespace wharf::core
