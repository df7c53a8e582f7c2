#include "comm/Drand48.hpp"

#include <cmath>

namespace pbench::comm {

double Drand48::next() {
  constexpr std::uint64_t kMultiplier = 0x5DEECE66DULL;
  constexpr std::uint64_t kIncrement = 0xB;
  constexpr std::uint64_t kMask = (std::uint64_t{1} << 48) - 1;
  state_ = (kMultiplier * state_ + kIncrement) & kMask;
  return std::ldexp(static_cast<double>(state_), -48);
}

}  // namespace pbench::comm
