#pragma once
// Which ranks pair up, placed on the nodes: with `internode` (the default) the partners of every
// pair run on different nodes, so LogP measures the network; with `intranode` they share a node
// (shared memory). Computed on every rank from the recorded host of every rank, so all ranks
// agree and the placement is unit-tested on recorded host lists.
//
// When the partition cannot form a single pair of the asked kind (internode on one node,
// intranode with one rank per node), the pairs of the other kind are measured and the run says
// so in a note: a result exists, labelled with what was measured, instead of nothing or a silent
// change. Ranks left without a partner of the asked kind idle (their note names them); the pairs
// never mix kinds, since LogP figures are means over pairs.
#include <string>
#include <vector>

#include "common/NodeLayout.hpp"

namespace pbench::logp {

enum class PairMode { internode, intranode };

/// "internode" or "intranode".
const char* mode_name(PairMode mode);
/// The mode named `name`; throws std::invalid_argument for another word.
PairMode parse_pair_mode(const std::string& name);

struct RankPair {
  int sender = 0;    ///< the lower rank of the pair
  int receiver = 0;  ///< the higher rank
};

class PairPlacement {
 public:
  /// Pairs for `asked` on `layout` (see the file comment).
  static PairPlacement place(const worker::NodeLayout& layout, PairMode asked);
  /// Pairs (2k, 2k+1) in rank order, the last rank of an odd count idle, with no node knowledge.
  static PairPlacement in_rank_order(int size);

  /// The pairs, ordered by sender rank; pair k is pairs()[k].
  const std::vector<RankPair>& pairs() const { return pairs_; }
  /// Ranks without a partner, ascending.
  const std::vector<int>& idle_ranks() const { return idle_; }
  /// What was asked for.
  PairMode asked() const { return asked_; }
  /// What the pairs are: differs from asked() when no pair of the asked kind can be formed.
  PairMode measured() const { return measured_; }
  /// Notes for the result's warnings: a fallback to the other kind, idle ranks and why.
  const std::vector<std::string>& notes() const { return notes_; }
  /// Number of processes placed.
  int size() const { return size_; }

 private:
  std::vector<RankPair> pairs_;
  std::vector<int> idle_;
  PairMode asked_ = PairMode::internode;
  PairMode measured_ = PairMode::internode;
  std::vector<std::string> notes_;
  int size_ = 0;
};

}  // namespace pbench::logp
