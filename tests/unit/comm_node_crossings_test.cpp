// comm: which neighbours of a pattern run on different nodes, on recorded host lists.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "comm/NodeCrossings.hpp"
#include "comm/Pattern.hpp"
#include "common/NodeLayout.hpp"

using namespace pbench::comm;
using pbench::worker::NodeLayout;

TEST_CASE("comm node crossings: a ring of 4 on 2 nodes x 2 crosses between ranks 1-2 and 3-0") {
  const Pattern ring = Pattern::rings("ring", PatternKind::kRing, {0, 1, 2, 3}, {4});
  const NodeCrossings c = NodeCrossings::of(ring, NodeLayout({"n1", "n1", "n2", "n2"}));
  CHECK(c.messages == 8);  // every rank sends right and left
  CHECK(c.crossing_messages == 4);
  CHECK(c.crossing_neighbours == std::vector<std::string>{"0-3", "1-2"});
  CHECK(c.neighbours_text() == "0-3,1-2");
}

TEST_CASE("comm node crossings: rings of 2 stay on a node with block placement") {
  const Pattern pairs = Pattern::rings("ring1", PatternKind::kRing, {0, 1, 2, 3}, {2, 2});
  const NodeCrossings block = NodeCrossings::of(pairs, NodeLayout({"n1", "n1", "n2", "n2"}));
  CHECK(block.messages == 4);  // a ring of two sends once each way
  CHECK(block.crossing_messages == 0);
  CHECK(block.neighbours_text().empty());
  // One rank per node: every message crosses.
  const NodeCrossings spread = NodeCrossings::of(pairs, NodeLayout({"a", "b", "c", "d"}));
  CHECK(spread.crossing_messages == 4);
  CHECK(spread.crossing_neighbours == std::vector<std::string>{"0-1", "2-3"});
}

TEST_CASE("comm node crossings: a random ring order on 2 nodes, and one node crosses nothing") {
  const Pattern ring = Pattern::rings("random0", PatternKind::kRandom, {0, 2, 1, 3}, {4});
  const NodeCrossings c = NodeCrossings::of(ring, NodeLayout({"x", "y", "x", "y"}));
  // Ring 0-2-1-3-0 with 0,2 on x and 1,3 on y: links 0-2 and 1-3 stay, 2-1 and 3-0 cross.
  CHECK(c.crossing_neighbours == std::vector<std::string>{"0-3", "1-2"});
  CHECK(c.crossing_messages == 4);
  CHECK(NodeCrossings::of(ring, NodeLayout({"h", "h", "h", "h"})).crossing_messages == 0);
}
