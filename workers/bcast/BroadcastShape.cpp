#include "bcast/BroadcastShape.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/EnumName.hpp"

namespace pbench::bcast {

namespace {

int lowest_set_bit(int value) {
  return value & -value;
}

}  // namespace

std::string algorithm_name(Algorithm algorithm) {
  constexpr EnumName<Algorithm> kNames[] = {{Algorithm::linear, "linear"},
                                            {Algorithm::backward, "backward"},
                                            {Algorithm::binomial, "binomial"}};
  return name_of(kNames, algorithm, "?");
}

BroadcastShape::BroadcastShape(Algorithm algorithm, int nprocs)
    : algorithm_(algorithm), nprocs_(nprocs) {
  if (nprocs < 1) throw std::invalid_argument("a broadcast needs at least one process");
}

int BroadcastShape::parent(int relative) const {
  if (relative <= 0 || relative >= nprocs_) return -1;
  switch (algorithm_) {
    case Algorithm::linear:
      return relative - 1;
    case Algorithm::backward:
      return (relative + 1) % nprocs_;
    case Algorithm::binomial:
      return relative - lowest_set_bit(relative);
  }
  return -1;
}

std::vector<int> BroadcastShape::children(int relative) const {
  std::vector<int> out;
  if (relative < 0 || relative >= nprocs_) return out;
  switch (algorithm_) {
    case Algorithm::linear:
      if (relative + 1 < nprocs_) out.push_back(relative + 1);
      break;
    case Algorithm::backward: {
      const int next = (relative - 1 + nprocs_) % nprocs_;
      if (next != 0) out.push_back(next);
      break;
    }
    case Algorithm::binomial: {
      int mask = 1;
      if (relative == 0) {
        while (mask < nprocs_) mask <<= 1;
      } else {
        mask = lowest_set_bit(relative);
      }
      for (mask >>= 1; mask > 0; mask >>= 1) {
        if (relative + mask < nprocs_) out.push_back(relative + mask);
      }
      break;
    }
  }
  return out;
}

std::vector<int> BroadcastShape::path(int relative) const {
  std::vector<int> out;
  if (relative < 0 || relative >= nprocs_) return out;
  for (int r = relative; r >= 0; r = parent(r)) out.push_back(r);
  std::reverse(out.begin(), out.end());
  return out;
}

double BroadcastShape::model_arrival(int relative, const HopCost& cost) const {
  const int from = parent(relative);
  if (from < 0) return 0;
  const std::vector<int> siblings = children(from);
  const auto index = std::find(siblings.begin(), siblings.end(), relative) - siblings.begin();
  return model_arrival(from, cost) + cost.gap * static_cast<double>(index) + cost.transit;
}

double BroadcastShape::model_completion(int relative, double hop) const {
  return model_completion(relative, HopCost{hop, hop});
}

double BroadcastShape::model_completion(int relative, const HopCost& cost) const {
  return model_arrival(relative, cost) + cost.gap * static_cast<double>(children(relative).size());
}

}  // namespace pbench::bcast
