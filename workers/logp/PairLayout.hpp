#pragma once
// One rank's view of the pair placement: in each pair the lower rank sends and the higher rank
// receives, all pairs at the same time; ranks without a partner idle (they join the barriers).
#include <vector>

#include "logp/PairPlacement.hpp"

namespace pbench::logp {

enum class PairRole { sender, receiver, idle };

class PairLayout {
 public:
  /// The layout seen by `rank` in `placement`; throws std::invalid_argument when the rank is
  /// outside it.
  PairLayout(int rank, PairPlacement placement);
  /// The layout seen by `rank` in a world of `size` processes paired in rank order (2k, 2k+1).
  PairLayout(int rank, int size) : PairLayout(rank, PairPlacement::in_rank_order(size)) {}

  /// What this rank does: send, receive, or idle.
  PairRole role() const { return role_; }
  /// The other rank of this rank's pair; -1 when idle.
  int partner() const { return partner_; }
  /// This rank's pair index k; -1 when idle.
  int pair() const { return pair_; }
  /// Number of pairs.
  int pair_count() const { return static_cast<int>(placement_.pairs().size()); }
  /// The ranks that idle, ascending.
  const std::vector<int>& idle_ranks() const { return placement_.idle_ranks(); }
  /// The sending (lower) rank of pair k.
  int sender_of(int pair) const {
    return placement_.pairs().at(static_cast<std::size_t>(pair)).sender;
  }
  /// The receiving (higher) rank of pair k.
  int receiver_of(int pair) const {
    return placement_.pairs().at(static_cast<std::size_t>(pair)).receiver;
  }
  /// The role of any rank of the placement.
  PairRole role_of(int rank) const;
  /// The whole placement.
  const PairPlacement& placement() const { return placement_; }

 private:
  PairPlacement placement_;
  PairRole role_ = PairRole::idle;
  int partner_ = -1;
  int pair_ = -1;
};

/// "send", "recv" or "idle".
const char* role_name(PairRole role);

}  // namespace pbench::logp
