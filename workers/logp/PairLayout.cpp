#include "logp/PairLayout.hpp"

#include <stdexcept>
#include <string>

namespace pbench::logp {

PairLayout::PairLayout(int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size) {
    throw std::invalid_argument("PairLayout: rank " + std::to_string(rank) +
                                " outside a world of " + std::to_string(size));
  }
  pair_count_ = size / 2;
  if (size % 2 == 1) idle_rank_ = size - 1;
  if (idle_rank_ && rank == *idle_rank_) return;
  pair_ = rank / 2;
  role_ = (rank % 2 == 0) ? PairRole::sender : PairRole::receiver;
  partner_ = (rank % 2 == 0) ? rank + 1 : rank - 1;
}

const char* role_name(PairRole role) {
  switch (role) {
    case PairRole::sender:
      return "send";
    case PairRole::receiver:
      return "recv";
    case PairRole::idle:
      break;
  }
  return "idle";
}

}  // namespace pbench::logp
