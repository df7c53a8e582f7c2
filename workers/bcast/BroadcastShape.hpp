#pragma once
// The shapes of the worker's own broadcast algorithms, in ranks relative to the root (the root
// is 0; absolute rank = (relative + root) mod P):
//   linear    relative i receives from i-1 and sends to i+1: 0 -> 1 -> 2 -> ... -> P-1
//   backward  relative i receives from i+1 (cyclic):        0 -> P-1 -> P-2 -> ... -> 1
//   binomial  MPICH's binomial tree: i receives from i without its lowest set bit and sends to
//             i + m for m = (lowest set bit of i)/2, ..., 1 (largest subtree first).
// Pure C++ without MPI (library pbench_bcast_shape): the worker sends along it, and the
// orchestrator's LogGP model (orchestrator/query/LoggpModel.hpp) predicts OL over it.
#include <string>
#include <vector>

namespace pbench::bcast {

enum class Algorithm { linear, backward, binomial };

/// What one hop of a broadcast costs a model: `gap`, the time a process spends on each send
/// before it starts the next (or returns, after its last); `transit`, the time from the start of
/// a send to its receiver holding the message. The synthetic hop delay d is {d, d} (the
/// message itself free); LogGP gives {g + (m-8)G, EEL + (m-8)G} (docs/model.md).
struct HopCost {
  double gap = 0;
  double transit = 0;
};

/// The algorithm's name as --impl spells it.
std::string algorithm_name(Algorithm algorithm);

class BroadcastShape {
 public:
  /// The shape of `algorithm` over `nprocs` >= 1 processes.
  BroadcastShape(Algorithm algorithm, int nprocs);

  /// The relative rank that `relative` receives from; -1 for the root.
  int parent(int relative) const;
  /// The relative ranks that `relative` sends to, in sending order.
  std::vector<int> children(int relative) const;
  /// The broadcast path to `relative`: relative ranks from the root to it, both included.
  std::vector<int> path(int relative) const;
  /// When `relative` returns from the broadcast, from the root's start, if each send is
  /// preceded by a delay `hop` and messages cost nothing: the hop-delay model of OL_i.
  double model_completion(int relative, double hop) const;
  /// The same for any hop cost: a child that is the k-th send (from 0) of its parent receives
  /// at the parent's arrival + k * gap + transit; a process returns after its arrival plus a
  /// gap per child.
  double model_completion(int relative, const HopCost& cost) const;

  Algorithm algorithm() const { return algorithm_; }
  int nprocs() const { return nprocs_; }

 private:
  /// When `relative` has received the message under the same model.
  double model_arrival(int relative, const HopCost& cost) const;

  Algorithm algorithm_;
  int nprocs_;
};

/// Absolute rank of `relative` for `root` among `nprocs`.
inline int absolute_rank(int relative, int root, int nprocs) {
  return (relative + root) % nprocs;
}
/// Rank relative to `root` of `rank` among `nprocs`.
inline int relative_rank(int rank, int root, int nprocs) {
  return (rank - root + nprocs) % nprocs;
}

}  // namespace pbench::bcast
