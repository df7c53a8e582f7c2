#pragma once
// Which neighbours of a pattern run on different nodes: the messages of one iteration whose
// sender and receiver are on different nodes (the network) rather than on one node (shared
// memory), from the recorded host of every rank.
#include <string>
#include <vector>

#include "comm/Pattern.hpp"
#include "common/NodeLayout.hpp"

namespace pbench::comm {

struct NodeCrossings {
  long long messages = 0;           ///< messages per iteration
  long long crossing_messages = 0;  ///< of them, sent to a rank on another node
  /// The neighbour pairs on different nodes, "a-b" with a < b, each once, ascending.
  std::vector<std::string> crossing_neighbours;

  /// The crossings of `pattern` on `layout` (which must cover every rank of the pattern).
  static NodeCrossings of(const Pattern& pattern, const worker::NodeLayout& layout);
  /// crossing_neighbours joined with commas ("" when none).
  std::string neighbours_text() const;
};

}  // namespace pbench::comm
