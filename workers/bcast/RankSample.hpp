#pragma once
// The bounded samples of ranks that keep the classic methods at O(P) messages per measurement
// at any scale (METHODS.md §5, issue 49): with `count` or fewer candidates every one is taken,
// as the seed's method does; with more, `count` of them. Pure C++ without MPI.
#include <vector>

namespace pbench::bcast {

/// Broadcast rounds' roots: `start`, then each next rank in `step` (+1 forward, -1 backward)
/// order, all `nprocs` of them or the first `count` (a contiguous stretch of the round, so
/// consecutive broadcasts pipeline as in a full round).
std::vector<int> round_roots(int nprocs, int start, int step, int count);

/// `count` ranks spread evenly over the `nprocs` ranks other than `skip` (-1: none skipped),
/// from the first one after `skip`; every such rank in order when there are no more than
/// `count`. The delivery check's roots and broadcast-acknowledge's tasks.
std::vector<int> spread_ranks(int nprocs, int skip, int count);

}  // namespace pbench::bcast
