#pragma once
// The POSIX drand48 generator, written out so a seed gives the same numbers on every platform:
// X(n+1) = (0x5DEECE66D * X(n) + 0xB) mod 2^48, seeded like srand48 (the seed's 32 bits above
// 0x330E). The original b_eff draws its random patterns from drand48 seeded with the time of day;
// pbench draws the same way from a recorded seed, so `--seed s` gives the patterns the original
// would have drawn had time() returned s.
#include <cstdint>

namespace pbench::comm {

class Drand48 {
 public:
  /// Seeds like srand48(seed).
  explicit Drand48(std::uint32_t seed) : state_((std::uint64_t{seed} << 16) | 0x330E) {}
  /// The next value in [0, 1), as drand48().
  double next();

 private:
  std::uint64_t state_;
};

}  // namespace pbench::comm
