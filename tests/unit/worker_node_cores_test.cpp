// Oversubscription (issue 36, item 2): the reason a worker gives for nodes with more ranks than
// cores, made-up nodes from 1 to 10,000; how the orchestrator folds the reasons of many results
// into one note and shows them in a table cell; and a bcast reason that stays short at 128 ranks.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bcast/BcastSummary.hpp"
#include "common/NodeCores.hpp"
#include "common/PhysicalLimits.hpp"
#include "query/QueryTable.hpp"

using pbench::worker::NodeCores;
using pbench::worker::oversubscription_reason;

namespace {

std::vector<NodeCores> nodes_of(int count, int ranks, int cores) {
  std::vector<NodeCores> nodes;
  for (int i = 1; i <= count; ++i) {
    nodes.push_back({"node" + std::string(i < 10 ? "0" : "") + std::to_string(i), ranks, cores});
  }
  return nodes;
}

}  // namespace

TEST_CASE("oversubscription: no reason while every node has a core for each rank") {
  CHECK_FALSE(oversubscription_reason({}).has_value());
  CHECK_FALSE(oversubscription_reason({{"box", 2, 2}}).has_value());
  CHECK_FALSE(oversubscription_reason(nodes_of(16, 8, 8)).has_value());
  CHECK_FALSE(oversubscription_reason({{"box", 1, 64}}).has_value());
}

TEST_CASE("oversubscription: one node names its ranks, cores and host") {
  CHECK(oversubscription_reason({{"node3", 8, 2}}) ==
        "oversubscribed: 8 ranks on 2 cores of node3");
  CHECK(oversubscription_reason({{"box", 2, 1}}) == "oversubscribed: 2 ranks on 1 core of box");
  // One of several nodes: the others fit.
  CHECK(oversubscription_reason({{"a", 2, 2}, {"b", 3, 2}, {"c", 1, 4}}) ==
        "oversubscribed: 3 ranks on 2 cores of b");
}

TEST_CASE("oversubscription: several nodes are counted, the worst few named") {
  CHECK(oversubscription_reason(nodes_of(16, 8, 2)) ==
        "oversubscribed on 16 of 16 nodes, worst 8 ranks on 2 cores (node01, node02, node03 and "
        "13 more)");
  // The most ranks per core first (node c: 4 per core); as many per core, more ranks first (d,
  // 6 on 4, before a, 3 on 2).
  const std::vector<NodeCores> mixed = {
      {"a", 3, 2}, {"b", 4, 4}, {"c", 8, 2}, {"d", 6, 4}, {"e", 4, 2}};
  CHECK(oversubscription_reason(mixed) ==
        "oversubscribed on 4 of 5 nodes, worst 8 ranks on 2 cores (c, e, d and 1 more)");
  // As many per core: more ranks is worse.
  CHECK(oversubscription_reason({{"x", 2, 1}, {"y", 4, 2}}) ==
        "oversubscribed on 2 of 2 nodes, worst 4 ranks on 2 cores (y, x)");
}

TEST_CASE("oversubscription: nodes sharing one machine count as one") {
  // The lab: 16 "nodes" (namespaces of one kernel, machine m1 with 2 CPUs), 2 ranks each, each
  // node's ranks may use both cores: no node alone is oversubscribed, the machine is.
  std::vector<NodeCores> lab;
  for (int i = 1; i <= 16; ++i) lab.push_back({"node" + std::to_string(i), 2, 2, "m1", 2});
  CHECK(oversubscription_reason(lab) ==
        "oversubscribed: 32 ranks on 2 cores of one machine shared by 16 nodes (node1, node2, "
        "node3 and 13 more)");
  // Containers pinned to their own halves of an 8-CPU machine, 4 ranks each: it fits.
  CHECK_FALSE(oversubscription_reason({{"c1", 4, 4, "m2", 8}, {"c2", 4, 4, "m2", 8}}).has_value());
  // Without the machine's CPU count the nodes' cores add up.
  CHECK_FALSE(oversubscription_reason({{"c1", 4, 4, "m2", 0}, {"c2", 4, 4, "m2", 0}}).has_value());
  // Two machines of two nodes each and a node of its own; the shared one worst.
  const std::vector<NodeCores> mixed = {{"a1", 4, 2, "ma", 2}, {"a2", 4, 2, "ma", 2},
                                        {"b1", 2, 2, "mb", 4}, {"b2", 2, 2, "mb", 4},
                                        {"c", 3, 2, "mc", 2}};
  CHECK(oversubscription_reason(mixed) ==
        "oversubscribed on 3 of 5 nodes on 2 machines, worst 8 ranks on 2 cores (a1, a2, c)");
  // Nodes of unknown machines stay apart.
  CHECK(oversubscription_reason({{"x", 2, 2, "", 0}, {"y", 2, 2, "", 0}}) == std::nullopt);
  // The worst read back from a shared machine's reason.
  const auto worst = pbench::worker::worst_of_reason(*oversubscription_reason(lab));
  REQUIRE(worst.has_value());
  CHECK((worst->ranks == 32 && worst->cores == 2));
}

TEST_CASE("oversubscription: the reason stays short at 10,000 nodes") {
  const auto reason = oversubscription_reason(nodes_of(10000, 128, 64));
  REQUIRE(reason.has_value());
  CHECK(reason->size() < 120);
  CHECK(*reason ==
        "oversubscribed on 10000 of 10000 nodes, worst 128 ranks on 64 cores (node01, node02, "
        "node03 and 9997 more)");
}

TEST_CASE("oversubscription: a reason is told from others and its worst node read back") {
  using pbench::worker::is_oversubscription_reason;
  using pbench::worker::worst_of_reason;
  CHECK(is_oversubscription_reason("oversubscribed: 8 ranks on 2 cores of node3"));
  CHECK(is_oversubscription_reason(*oversubscription_reason(nodes_of(16, 8, 2))));
  CHECK_FALSE(is_oversubscription_reason("physically impossible: OL = -1 us"));
  CHECK_FALSE(is_oversubscription_reason("oversubscribed somehow"));
  const auto worst = worst_of_reason(*oversubscription_reason(nodes_of(4, 9, 3)));
  REQUIRE(worst.has_value());
  CHECK(worst->ranks == 9);
  CHECK(worst->cores == 3);
  CHECK(worst_of_reason("oversubscribed: 2 ranks on 1 core of box")->cores == 1);
  CHECK(pbench::worker::worst_oversubscription({"physically impossible: x",
                                                "oversubscribed: 4 ranks on 2 cores of a",
                                                "oversubscribed: 3 ranks on 1 core of b",
                                                "oversubscribed: 6 ranks on 3 cores of c"}) ==
        "oversubscribed: 3 ranks on 1 core of b");
  CHECK_FALSE(pbench::worker::worst_oversubscription({"not valid"}).has_value());
}

TEST_CASE("oversubscription: a list says a few and counts the rest") {
  using pbench::worker::few_listed;
  CHECK(few_listed({}, 3).empty());
  CHECK(few_listed({"a", "b"}, 3) == "a, b");
  CHECK(few_listed({"a", "b", "c"}, 3) == "a, b, c");
  CHECK(few_listed({"a", "b", "c", "d", "e"}, 3) == "a, b, c and 2 more");
  CHECK(few_listed({"a, 1", "b, 2", "c, 3"}, 2, "; ") == "a, 1; b, 2 and 1 more");
}

TEST_CASE("oversubscription: the notes of many results are one note with the worst") {
  using pbench::query::said_once;
  const std::vector<std::string> notes = {
      "sweep s: the largest b_eff is on 4 processes",
      "sweep s, partition 3: not valid: oversubscribed: 3 ranks on 2 cores of box",
      "sweep s, partition 3: not valid: size 8 B: physically impossible: OL = -1 us",
      "sweep s, partition 4: not valid: oversubscribed: 4 ranks on 2 cores of box",
      "sweep s, partition 8: not valid: oversubscribed: 8 ranks on 2 cores of box",
      "sweep s, partition 16: not valid: oversubscribed: 16 ranks on 2 cores of box",
      "sweep s: the largest b_eff is on 4 processes"};
  CHECK(said_once(notes) ==
        std::vector<std::string>{
            "sweep s: the largest b_eff is on 4 processes",
            "4 results not valid, oversubscribed (more ranks on a node than cores they may use; "
            "each result's node_cores lists its nodes): sweep s, partition 3; sweep s, partition "
            "4; sweep s, partition 8 and 1 more; the worst oversubscribed: 16 ranks on 2 cores of "
            "box",
            "sweep s, partition 3: not valid: size 8 B: physically impossible: OL = -1 us"});
  // One result (several rows of it): its own note, once.
  CHECK(said_once({"sweep s, partition 3: not valid: oversubscribed: 3 ranks on 2 cores of box",
                   "sweep s, partition 3: not valid: oversubscribed: 3 ranks on 2 cores of box"}) ==
        std::vector<std::string>{
            "sweep s, partition 3: not valid: oversubscribed: 3 ranks on 2 cores of box"});
  CHECK(said_once({"a", "b", "a"}) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("oversubscription: a table cell says it in a word") {
  using pbench::query::reason_cell;
  CHECK(reason_cell("oversubscribed on 16 of 16 nodes, worst 8 ranks on 2 cores (a, b, c and 13 "
                    "more)") == "oversubscribed");
  CHECK(reason_cell("physically impossible: OL = -1 us") == "physically impossible: OL = -1 us");
  pbench::query::QueryTable table;
  table.columns = {{"partition", "", "partition", "", 1, 0}, pbench::query::reason_column()};
  table.rows = {{std::int64_t{4}, std::string("oversubscribed: 4 ranks on 2 cores of box")},
                {std::int64_t{8}, std::string("oversubscribed: 8 ranks on 2 cores of box")}};
  const auto shown = pbench::query::human_view(table);
  CHECK(std::get<std::string>(shown.rows[0][1]) == "oversubscribed");
  CHECK(std::get<std::string>(shown.rows[1][1]) == "as above");
}

TEST_CASE("bcast: the 3% rule's reason stays short at 128 ranks, the widest first") {
  using namespace pbench::bcast;
  BcastMeasurements m;
  m.nprocs = 128;
  m.parameters.max_measurements = 8;
  SizeMeasurements z;
  z.size = 8;
  // 8 measurements alternating 10 us x (1 - spread), x (1 + spread).
  const auto series = [](double spread) {
    MeasurementSeries s;
    for (int k = 0; k < 8; ++k) s.add(10e-6 * (1 + (k % 2 ? spread : -spread)));
    return s;
  };
  for (int j = 0; j < 128; ++j) z.gaps.push_back(series(0.05 + 0.001 * j));
  for (int t = 1; t < 128; ++t) {
    TaskMeasurements task;
    task.task = t;
    task.rtl = series(0.04);
    task.e = series(0.04);
    z.tasks.push_back(task);
  }
  z.rounds = z.barrier = z.ack = series(0.0);
  z.delivery_errors.assign(128, 0);
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  std::string rule;
  for (const auto& r : s.invalid_reasons) {
    if (r.find("3% of the mean") != std::string::npos) rule = r;
  }
  INFO(rule);
  CHECK(rule.size() < 400);
  CHECK(rule.find("for 382 of 385 figures, the widest first: gap of rank 127 (18.9%), ") !=
        std::string::npos);
  CHECK(rule.find("and 377 more (each figure: table statistics)") != std::string::npos);
}
