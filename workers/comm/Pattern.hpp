#pragma once
// A communication pattern of b_eff: for every process the ordered steps of one iteration, each
// sending one message to a neighbour and/or receiving one from a neighbour (METHODS.md section 1,
// "Patterns"). Patterns are plain data built without MPI, so tests and --describe use them too.
#include <string>
#include <utility>
#include <vector>

#include "comm/CartesianGrid.hpp"

namespace pbench::comm {

inline constexpr int kNoRank = -1;
/// The most steps one process has in one iteration (a 3-D grid: two per dimension).
inline constexpr int kMaxSteps = 6;

enum class PatternKind {
  kRing,    ///< one of the six ring patterns, averaged into b_ring
  kRandom,  ///< a random ring, averaged into b_random
  kExtra,   ///< measured and reported, not part of b_eff
};

/// "ring", "random", "extra".
std::string kind_name(PatternKind kind);

struct Step {
  int send_to = kNoRank;    ///< world rank the step sends to, or kNoRank
  int recv_from = kNoRank;  ///< world rank the step receives from, or kNoRank
};

struct Pattern {
  std::string label;  ///< unique in a run: "ring1:3*2&+1", "random7", "cart2d_x", "pingpong"
  PatternKind kind = PatternKind::kExtra;
  std::string shape;            ///< what the label abbreviates, for people
  std::vector<int> ring_sizes;  ///< ring patterns: ring sizes in rank order
  std::vector<int> order;       ///< random and worst-cycle rings: world ranks in ring order
  int grid_dims = 0;            ///< 2 or 3: collectives use that Cartesian grid's communicator
  bool sendrecv_only = false;   ///< measured with MPI_Send/MPI_Recv only (the ping-pong)
  std::vector<std::vector<Step>> steps;  ///< per world rank; empty where a rank takes no part

  /// Messages sent in one iteration by all processes together.
  long long messages_per_iteration() const;
  /// Processes with at least one step.
  int participants() const;
  bool in_b_eff() const { return kind != PatternKind::kExtra; }

  /// Rings over `order` (world ranks in ring order), cut into consecutive rings of `ring_sizes`.
  /// Each process sends to its right neighbour and receives from its left, then sends to its
  /// left and receives from its right; in a ring of two the second step goes to the same partner
  /// and is left out (the original drops it; MPI_Alltoallv cannot carry two messages to one peer).
  static Pattern rings(std::string label, PatternKind kind, const std::vector<int>& order,
                       const std::vector<int>& ring_sizes);
  /// A ping-pong in each pair: the first sends then receives, the second receives then sends.
  static Pattern pairs(std::string label, int nprocs, const std::vector<std::pair<int, int>>& pairs);
  /// Exchanges with both neighbours along each of `dimensions` of a periodic grid; where a
  /// dimension has extent 2 both neighbours are one process and the message back is left out.
  static Pattern grid(std::string label, int nprocs, const CartesianGrid& grid,
                      const std::vector<int>& dimensions);
};

}  // namespace pbench::comm
