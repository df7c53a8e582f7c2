// The layout of a result in the store (schema version 4): node lists and node files parsed, the
// nodes, processes per node and node list from rank_hosts, a placement that is not the shape
// asked for as a reason the result is not valid, the queries' nodes and ppn columns with
// --where and --by, compare naming shapes that differ, and a version 3 store migrated.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "ingest/Ingester.hpp"
#include "query/CompareQuery.hpp"
#include "query/LogpQuery.hpp"
#include "query/PointsQuery.hpp"
#include "query/RowGrouping.hpp"
#include "query/SystemQuery.hpp"
#include "query/WhereFilter.hpp"
#include "store/ResultLayout.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/ResultFixtures.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"
#include "util/NodeList.hpp"

using namespace pbench;
using nlohmann::json;

namespace {

using Hosts = std::vector<std::string>;

json with_hosts(json doc, const Hosts& rank_hosts) {
  doc["rank_hosts"] = rank_hosts;
  Hosts distinct;
  for (const auto& h : rank_hosts) {
    if (std::find(distinct.begin(), distinct.end(), h) == distinct.end()) distinct.push_back(h);
  }
  doc["hosts"] = distinct;
  return doc;
}

std::size_t column(const query::QueryTable& t, const std::string& key) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].key == key) return i;
  }
  FAIL("no column " << key);
  return 0;
}

std::int64_t integer(const query::Cell& c) {
  return std::get<std::int64_t>(c);
}

bool has_note(const query::QueryTable& t, const std::string& part) {
  for (const auto& n : t.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("node list: Slurm host lists expand in order, with padding and several groups") {
  CHECK(expand_node_list("node[1-3,7]") == Hosts{"node1", "node2", "node3", "node7"});
  CHECK(expand_node_list("gpu[08-10]x,login") == Hosts{"gpu08x", "gpu09x", "gpu10x", "login"});
  CHECK(expand_node_list("r[1-2]n[1-2]") == Hosts{"r1n1", "r1n2", "r2n1", "r2n2"});
  CHECK(expand_node_list("node1,node2") == Hosts{"node1", "node2"});
  CHECK(expand_node_list("") == Hosts{});
  for (const char* bad :
       {"node[1-3", "node]1", "node[3-1]", "node[a-b]", "node[]", "a,,b", "node[[1]]"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(expand_node_list(bad), std::invalid_argument);
  }
  CHECK_THROWS_WITH(expand_node_list("node[3-1]"),
                    "node list 'node[3-1]': range '3-1' runs backwards");
}

TEST_CASE("node list: hosts compress into a Slurm host list, the inverse of expanding it") {
  Hosts sixteen;
  for (int i = 16; i >= 1; --i) sixteen.push_back("node" + std::to_string(i));
  CHECK(compress_node_list(sixteen) == "node[1-16]");
  Hosts padded;
  for (int i = 1; i <= 16; ++i) padded.push_back((i < 10 ? "node0" : "node") + std::to_string(i));
  CHECK(compress_node_list(padded) == "node[01-16]");
  CHECK(compress_node_list({"node3", "node1", "node2", "node7", "node2"}) == "node[1-3,7]");
  // Groups in the order of their first host; one host without brackets; names without a number.
  CHECK(compress_node_list({"gpu09x", "login", "gpu08x", "node5", "gpu10x"}) ==
        "gpu[08-10]x,login,node5");
  // "n1" and "n01" are two hosts; only the last number varies ("r1n1" and "r2n1" differ before).
  CHECK(compress_node_list({"n1", "n01", "n2"}) == "n[1-2],n01");
  CHECK(compress_node_list({"r1n1", "r1n2", "r2n1"}) == "r1n[1-2],r2n1");
  CHECK(compress_node_list(Hosts{}).empty());
  // Every list it writes expands back to its hosts (each once, ascending within a group).
  for (const auto& hosts : {sixteen, padded, Hosts{"a7", "a9", "a8", "b", "a10", "a01"}}) {
    auto expanded = expand_node_list(compress_node_list(hosts));
    auto sorted_hosts = hosts;
    std::sort(sorted_hosts.begin(), sorted_hosts.end());
    std::sort(expanded.begin(), expanded.end());
    CHECK(expanded == sorted_hosts);
  }
}

TEST_CASE("node list: a compressed list cut to a width names how many hosts it leaves out") {
  Hosts every_other;  // 10,000 nodes, every other one: 5,000 ranges
  for (int i = 1; i <= 10000; i += 2) every_other.push_back("node" + std::to_string(i));
  const auto line = compress_node_list(every_other, 60);
  CHECK(line.size() <= 60);
  CHECK(line.rfind("node[1,3,5,", 0) == 0);
  CHECK(line.find("] and ") != std::string::npos);
  // The hosts shown plus the count left out are all of them.
  const auto cut = line.find(" and ");
  const auto shown = expand_node_list(line.substr(0, cut)).size();
  const auto left = std::stoul(line.substr(cut + 5));
  CHECK(shown + left == every_other.size());
  CHECK(line.substr(line.size() - 5) == " more");
  // What fits is not cut.
  CHECK(compress_node_list({"node1", "node2"}, 10) == "node[1-2]");
  // Two groups, the second cut inside its ranges.
  Hosts two_groups{"a1"};
  for (int i = 1; i <= 19; i += 2) two_groups.push_back("b" + std::to_string(i));
  CHECK(compress_node_list(two_groups) == "a1,b[1,3,5,7,9,11,13,15,17,19]");
  CHECK(compress_node_list(two_groups, 22) == "a1,b[1,3,5] and 7 more");
  CHECK(compress_node_list({"averyveryverylonghostname"}, 10) == "1 host");
}

TEST_CASE("result layout: nodes, ppn and node list from rank_hosts, placement against the shape") {
  const json doc = testing::logp_document(4, 1, 1e-6, 2e-7, 1e-10);
  const store::AskedShape two_by_two{2, 2};
  const auto block = store::result_layout(with_hosts(doc, {"n1", "n1", "n2", "n2"}), two_by_two);
  CHECK(block.nodes == 2);
  CHECK(block.procs_per_node == 2);
  CHECK(block.node_list == "n1,n2");
  CHECK(block.placement.empty());
  // Round-robin placement is the same shape.
  CHECK(store::result_layout(with_hosts(doc, {"n2", "n1", "n2", "n1"}), two_by_two)
            .placement.empty());
  const auto packed = store::result_layout(with_hosts(doc, {"n1", "n1", "n1", "n1"}), two_by_two);
  CHECK(packed.nodes == 1);
  CHECK(packed.procs_per_node == 4);
  CHECK(packed.placement == "placement: 2x2 asked, ranks found on 1 node (n1: 4)");
  const auto uneven = store::result_layout(with_hosts(doc, {"n1", "n1", "n1", "n2"}), two_by_two);
  CHECK(uneven.procs_per_node == 3);
  CHECK(uneven.placement == "placement: 2x2 asked, ranks found on 2 nodes (n1: 3, n2: 1)");
  // A plain partition asks for no shape: wherever the scheduler put the ranks is right.
  CHECK(store::result_layout(with_hosts(doc, {"n1", "n1", "n1", "n1"}), {}).placement.empty());
  // Documents before rank_hosts: the hosts and the worker's procs_per_node.
  const auto older = store::result_layout(doc, {});
  CHECK(older.nodes == 1);
  CHECK(older.procs_per_node == 4);
  CHECK(older.node_list == "node01");
  CHECK(store::asked_shape(json{{"nodes", 4}, {"procs_per_node", 1}}).exact());
  CHECK_FALSE(store::asked_shape(json{{"queue_depth", 1}}).exact());
  CHECK(store::shape_text(2, 1) == "2x1");
}

TEST_CASE("ingest: layout columns, and a placement unlike the shape makes the result not valid") {
  testing::Fixture f;
  f.add_sweep("shapes", {{"logp", 4, R"({"nodes":4,"procs_per_node":1,"queue_depth":1})"},
                         {"logp", 4, R"({"nodes":2,"procs_per_node":2,"queue_depth":1})"},
                         {"logp", 2, R"({"queue_depth":1})"}});
  const json doc4 = testing::logp_document(4, 1, 1e-6, 2e-7, 1e-10);
  f.add_run(0, with_hosts(doc4, {"n1", "n2", "n3", "n4"}));
  // 2x2 asked, every rank found on one node (mpiexec ignored the allocation, say).
  f.add_run(1, with_hosts(doc4, {"n1", "n1", "n1", "n1"}));
  f.add_run(2, with_hosts(testing::logp_document(2, 1, 1e-6, 3e-7, 1e-10), {"n1", "n1"}));

  auto s = f.store.db().prepare(
      "SELECT p.nodes, p.procs_per_node, r.nodes, r.procs_per_node, r.node_list, r.placement, "
      "r.valid FROM results r JOIN points p ON p.id = r.point_id ORDER BY r.id");
  REQUIRE(s.step());
  CHECK(s.int64(0) == 4);
  CHECK(s.int64(2) == 4);
  CHECK(s.int64(3) == 1);
  CHECK(s.text(4) == "n1,n2,n3,n4");
  CHECK(s.is_null(5));
  CHECK(s.int64(6) == 1);
  REQUIRE(s.step());
  CHECK(s.int64(0) == 2);
  CHECK(s.int64(1) == 2);
  CHECK(s.int64(2) == 1);
  CHECK(s.int64(3) == 4);
  CHECK(s.text(5) == "placement: 2x2 asked, ranks found on 1 node (n1: 4)");
  CHECK(s.int64(6) == 0);
  REQUIRE(s.step());
  CHECK(s.is_null(0));  // a plain partition asks for no shape
  CHECK(s.int64(2) == 1);
  CHECK(s.int64(3) == 2);
  CHECK(s.int64(6) == 1);

  // query logp: 4x1 and 2x2 are rows of their own, with where the ranks ran.
  auto logp = query::logp_table(f.store, std::string("shapes"));
  const auto nodes = column(logp, "nodes"), ppn = column(logp, "ppn"),
             valid = column(logp, "valid");
  REQUIRE(logp.rows.size() == 3);
  // The note names the point's shape and its other dimensions (issue 39: q, env).
  CHECK(has_note(logp,
                 "partition 4 (2x2), q 1: not valid: placement: 2x2 asked, ranks found on 1 node"));
  auto by_nodes = logp;
  query::filter_rows(by_nodes, query::parse_where({"nodes=4"}));
  REQUIRE(by_nodes.rows.size() == 1);
  CHECK(integer(by_nodes.rows[0][ppn]) == 1);
  CHECK(std::get<std::string>(by_nodes.rows[0][valid]) == "yes");
  auto one_per_node = logp;
  query::filter_rows(one_per_node, query::parse_where({"ppn=4"}));
  REQUIRE(one_per_node.rows.size() == 1);
  CHECK(std::get<std::string>(one_per_node.rows[0][valid]) == "no");
  query::group_rows(logp, "nodes");
  CHECK(integer(logp.rows[0][nodes]) == 1);
  CHECK(integer(logp.rows[2][nodes]) == 4);
  query::group_rows(logp, "ppn");
  CHECK(integer(logp.rows[0][ppn]) == 1);
  CHECK(integer(logp.rows[2][ppn]) == 4);

  // query points: the shape asked for and the placement.
  const auto points = query::points_table(f.store, std::string("shapes"), false);
  CHECK(integer(points.rows[1][column(points, "nodes")]) == 2);
  CHECK(integer(points.rows[1][column(points, "ppn")]) == 2);
  CHECK(std::get<std::string>(points.rows[1][column(points, "placement")])
            .rfind("placement: 2x2", 0) == 0);
  CHECK(std::holds_alternative<std::monostate>(points.rows[0][column(points, "placement")]));

  // query system: a logp row per shape; --where nodes / ppn on where the ranks ran.
  const auto system = query::system_table(f.store, std::string("shapes"), {});
  int g_rows = 0;
  for (const auto& row : system.rows) {
    if (std::get<std::string>(row[1]) != "logp_g") continue;
    ++g_rows;
    if (integer(row[column(system, "ppn")]) == 4) {
      CHECK(std::get<std::string>(row[column(system, "reason")]).rfind("placement: ", 0) == 0);
    }
  }
  CHECK(g_rows == 3);
  const auto four =
      query::system_table(f.store, std::string("shapes"), query::parse_where({"nodes=4"}));
  for (const auto& row : four.rows) {
    if (std::get<std::string>(row[1]) == "logp_g") CHECK(integer(row[column(four, "nodes")]) == 4);
  }
}

TEST_CASE("query compare: says when the shapes of the compared figures differ") {
  testing::Fixture f;
  const json doc = testing::logp_document(2, 1, 1e-6, 2e-7, 1e-10);
  f.add_sweep("network", {{"logp", 2, R"({"nodes":2,"procs_per_node":1,"queue_depth":1})"}});
  f.add_run(0, with_hosts(doc, {"n1", "n2"}));
  f.add_sweep("memory", {{"logp", 2, R"({"nodes":1,"procs_per_node":2,"queue_depth":1})"}});
  f.add_run(0, with_hosts(doc, {"n1", "n1"}));
  const auto t = query::compare_table(f.store, "network", "memory", {});
  const auto a_shape = column(t, "a_shape"), b_shape = column(t, "b_shape");
  bool found = false;
  for (const auto& row : t.rows) {
    if (std::get<std::string>(row[0]) != "logp_g") continue;
    found = true;
    CHECK(std::get<std::string>(row[a_shape]) == "2x1");
    CHECK(std::get<std::string>(row[b_shape]) == "1x2");
    CHECK(std::holds_alternative<double>(row[column(t, "ratio")]));
  }
  CHECK(found);
  CHECK(has_note(t, "logp_g: the shapes differ: A (network) ran on 2x1, B (memory) on 1x2"));
  // The same shape on both sides says nothing.
  const auto same = query::compare_table(f.store, "network", "network", {});
  CHECK_FALSE(has_note(same, "the shapes differ"));
}

TEST_CASE("a version 3 store gets the layout columns when opened, from its points and documents") {
  const auto path = (std::filesystem::temp_directory_path() /
                     ("pbench-layout-v3-" + std::to_string(::getpid()) + ".db"))
                        .string();
  std::filesystem::remove(path);
  {
    testing::Fixture f(store::Store::open(path, store::Store::Access::create));
    f.add_sweep("old", {{"logp", 2, R"({"nodes":2,"procs_per_node":1,"queue_depth":1})"},
                        {"logp", 2, R"({"queue_depth":1})"}});
    const json doc = testing::logp_document(2, 1, 1e-6, 2e-7, 1e-10);
    f.add_run(0, with_hosts(doc, {"n1", "n1"}));  // 2x1 asked, found on one node
    f.add_run(1, doc);                            // a document from before rank_hosts
    // Back to version 3: no layout columns.
    testing::make_version_4(f.store);
    f.store.db().exec(
        "ALTER TABLE points DROP COLUMN nodes;"
        "ALTER TABLE points DROP COLUMN procs_per_node; ALTER TABLE results DROP COLUMN nodes;"
        "ALTER TABLE results DROP COLUMN procs_per_node; ALTER TABLE results DROP COLUMN "
        "node_list; ALTER TABLE results DROP COLUMN allocated_nodes; ALTER TABLE results DROP "
        "COLUMN placement; UPDATE results SET valid = 1; PRAGMA user_version = 3;");
  }
  {
    // A reader migrates first (the queries read the layout columns).
    auto reader = store::Store::open(path, store::Store::Access::read_only);
    const auto points = query::points_table(reader, std::string("old"), false);
    CHECK(integer(points.rows[0][column(points, "nodes")]) == 2);
  }
  auto store = store::Store::open(path, store::Store::Access::existing);
  auto v = store.db().prepare("PRAGMA user_version");
  v.step();
  CHECK(v.int64(0) == store::kStoreSchemaVersion);
  auto s = store.db().prepare(
      "SELECT p.nodes, p.procs_per_node, r.nodes, r.procs_per_node, r.node_list, r.placement, "
      "r.valid FROM results r JOIN points p ON p.id = r.point_id ORDER BY r.id");
  REQUIRE(s.step());
  CHECK(s.int64(0) == 2);
  CHECK(s.int64(1) == 1);
  CHECK(s.int64(2) == 1);
  CHECK(s.int64(3) == 2);
  CHECK(s.text(4) == "n1");
  CHECK(s.text(5) == "placement: 2x1 asked, ranks found on 1 node (n1: 2)");
  CHECK(s.int64(6) == 0);
  REQUIRE(s.step());
  CHECK(s.is_null(0));
  CHECK(s.int64(2) == 1);
  CHECK(s.int64(3) == 2);
  CHECK(s.text(4) == "node01");
  CHECK(s.is_null(5));
  CHECK(s.int64(6) == 1);
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
}
