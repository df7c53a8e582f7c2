// io: the benchmark directory seen from every node, and which rank reads back whose chunk, on
// recorded host lists.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/NodeLayout.hpp"
#include "common/ResultDocument.hpp"
#include "io/SharedDirectory.hpp"

using namespace pbench::io;
using pbench::worker::NodeLayout;

TEST_CASE("io read-back: each rank reads the chunk of the next rank on another node") {
  const NodeLayout block({"n1", "n1", "n2", "n2"});
  CHECK(read_back_source(block, 0) == 2);
  CHECK(read_back_source(block, 1) == 2);
  CHECK(read_back_source(block, 2) == 0);
  CHECK(read_back_source(block, 3) == 0);
  for (int r = 0; r < 4; ++r) CHECK_FALSE(block.same_node(r, read_back_source(block, r)));
  const NodeLayout spread({"a", "b"});
  CHECK(read_back_source(spread, 0) == 1);
  CHECK(read_back_source(spread, 1) == 0);
}

TEST_CASE("io read-back: on one node the next rank, alone the rank itself") {
  const NodeLayout one({"h", "h", "h"});
  CHECK(read_back_source(one, 0) == 1);
  CHECK(read_back_source(one, 2) == 0);
  CHECK(read_back_source(NodeLayout({"h"}), 0) == 0);
}

TEST_CASE("io visibility: the error names the nodes and ranks that cannot see the marker") {
  const NodeLayout nodes({"node1", "node1", "node2", "node3", "node3"});
  CHECK_FALSE(visibility_problem("/scratch/d", nodes, {true, true, true, true, true}));
  const auto one = visibility_problem("/tmp/d", nodes, {true, true, false, true, true});
  REQUIRE(one);
  CHECK(*one ==
        "--dir: the benchmark directory '/tmp/d' is not visible from node node2 (rank 2): rank 0 "
        "on node1 wrote a marker there that they cannot read; give --dir on a file system that "
        "every node shares");
  const auto two = visibility_problem("/tmp/d", nodes, {true, true, false, false, false});
  REQUIRE(two);
  CHECK(two->find("not visible from nodes node2 (rank 2), node3 (ranks 3, 4): ") !=
        std::string::npos);
}

TEST_CASE("io read-back: wrong bytes make the result invalid, one node gives a warning") {
  ReadBackCheck good;
  good.rows = {{0, "n1", 1, "n2", 65536, 0}, {1, "n2", 0, "n1", 65536, 0}};
  CHECK(good.across_nodes() == 2);
  pbench::worker::ResultDocument a("io");
  good.report(a);
  CHECK(a.valid());
  CHECK(a.warnings().empty());
  CHECK(a.to_json()["measurements"]["read_back_across_nodes"]["rows"][1][3] == "n1");

  ReadBackCheck bad = good;
  bad.rows[1].wrong_bytes = 5;
  pbench::worker::ResultDocument b("io");
  bad.report(b);
  CHECK_FALSE(b.valid());
  CHECK(b.to_json()["validity"]["reasons"][0] ==
        "read-back check across nodes: 1 of 2 chunks read on one node differ from what another "
        "rank wrote");

  ReadBackCheck local;
  local.rows = {{0, "h", 1, "h", 65536, 0}, {1, "h", 0, "h", 65536, 0}};
  pbench::worker::ResultDocument c("io");
  local.report(c);
  CHECK(c.valid());
  REQUIRE(c.warnings().size() == 1);
  CHECK(c.warnings()[0].rfind("every rank runs on one node", 0) == 0);
  CHECK(read_back_byte(3, 10) != read_back_byte(2, 10));
}
