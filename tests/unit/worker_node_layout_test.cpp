// The worker common library's node layout: recorded host lists grouped into nodes.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/NodeLayout.hpp"

using pbench::worker::NodeLayout;

TEST_CASE("node layout: 2 nodes x 2 ranks, block placement, groups ranks by host name") {
  const NodeLayout l({"node1", "node1", "node2", "node2"});
  CHECK(l.size() == 4);
  CHECK(l.node_count() == 2);
  CHECK(l.hosts() == std::vector<std::string>{"node1", "node2"});
  CHECK(l.node_of(0) == 0);
  CHECK(l.node_of(3) == 1);
  CHECK(l.host_of(2) == "node2");
  CHECK(l.ranks_on(0) == std::vector<int>{0, 1});
  CHECK(l.ranks_on(1) == std::vector<int>{2, 3});
  CHECK(l.same_node(0, 1));
  CHECK_FALSE(l.same_node(1, 2));
  CHECK(l.most_per_node() == 2);
  CHECK(l.least_per_node() == 2);
}

TEST_CASE("node layout: round-robin placement keeps rank order per node") {
  const NodeLayout l({"b", "a", "b", "a", "b"});
  CHECK(l.hosts() == std::vector<std::string>{"b", "a"});  // order of first appearance
  CHECK(l.ranks_on(0) == std::vector<int>{0, 2, 4});
  CHECK(l.ranks_on(1) == std::vector<int>{1, 3});
  CHECK(l.most_per_node() == 3);
  CHECK(l.least_per_node() == 2);
  CHECK(l.rank_hosts().size() == 5);
}

TEST_CASE("node layout: one node holds every rank") {
  const NodeLayout l({"h", "h", "h"});
  CHECK(l.node_count() == 1);
  CHECK(l.same_node(0, 2));
  CHECK(l.most_per_node() == 3);
}

TEST_CASE("node layout: bad input is refused with the reason") {
  CHECK_THROWS_AS(NodeLayout({}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(NodeLayout({"a", ""}), "node layout: rank 1 has no host name",
                       std::invalid_argument);
  const NodeLayout l({"a"});
  CHECK_THROWS_AS(l.node_of(1), std::out_of_range);
  CHECK_THROWS_AS(l.ranks_on(-1), std::out_of_range);
}
