#include "logp/PairLayout.hpp"

#include <stdexcept>
#include <string>

#include "common/EnumName.hpp"

namespace pbench::logp {

PairLayout::PairLayout(int rank, PairPlacement placement) : placement_(std::move(placement)) {
  if (rank < 0 || rank >= placement_.size()) {
    throw std::invalid_argument("PairLayout: rank " + std::to_string(rank) +
                                " outside a world of " + std::to_string(placement_.size()));
  }
  role_ = role_of(rank);
  for (int k = 0; k < pair_count(); ++k) {
    const RankPair& p = placement_.pairs()[static_cast<std::size_t>(k)];
    if (p.sender == rank || p.receiver == rank) {
      pair_ = k;
      partner_ = p.sender == rank ? p.receiver : p.sender;
    }
  }
}

PairRole PairLayout::role_of(int rank) const {
  for (const RankPair& p : placement_.pairs()) {
    if (p.sender == rank) return PairRole::sender;
    if (p.receiver == rank) return PairRole::receiver;
  }
  return PairRole::idle;
}

const char* role_name(PairRole role) {
  constexpr EnumName<PairRole> kNames[] = {{PairRole::sender, "send"},
                                           {PairRole::receiver, "recv"}};
  return name_of(kNames, role, "idle");
}

}  // namespace pbench::logp
