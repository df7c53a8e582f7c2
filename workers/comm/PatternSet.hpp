#pragma once
// Every pattern of one b_eff run, in the original's order: the six rings, the random rings,
// then the additional patterns (worst cycle, best and worst bisection, the ping-pong, the 2-D and
// 3-D Cartesian patterns by direction and all together).
#include <cstdint>
#include <vector>

#include "comm/CartesianGrid.hpp"
#include "comm/Drand48.hpp"
#include "comm/Pattern.hpp"

namespace pbench::comm {

struct PatternSet {
  std::vector<Pattern> patterns;
  int pingpong = -1;  ///< index of the ping-pong between ranks 0 and 1
  std::uint32_t seed = 0;

  /// The patterns of a run on nprocs >= 2 processes with `random_patterns` random rings drawn
  /// from `seed`, and the Cartesian patterns on the given grids.
  static PatternSet build(int nprocs, int random_patterns, std::uint32_t seed,
                          const CartesianGrid& grid2d, const CartesianGrid& grid3d);
  /// The same with the grids CartesianGrid::for_size gives (grid rank = world rank).
  static PatternSet build(int nprocs, int random_patterns, std::uint32_t seed);

  /// One random ring order drawn as the original does: for process i = 0..n-1 pick position
  /// floor(drand48()*n), move on to the next free position (cyclically), put i there.
  static std::vector<int> random_order(Drand48& generator, int nprocs);
  /// The worst-case cycle: 0, n-1, 1, n-2, ...
  static std::vector<int> worst_cycle_order(int nprocs);

  /// Indices of the patterns of one kind, in order.
  std::vector<int> of_kind(PatternKind kind) const;
};

}  // namespace pbench::comm
