// Many machines, one store (issue 54 item 3): `pbench store merge` of store files. The runs of
// the same sweep of the same cluster join the stored sweep, numbered in the order they started;
// a result is never stored twice; a clash is refused with nothing written, or renamed
// NAME@CLUSTER; every merged row keeps its origin; query's --by cluster finds the same sweep on
// each cluster.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "query/ClusterSweep.hpp"
#include "store/StoreMerge.hpp"
#include "support/NumberOf.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using pbench::testing::document;
using pbench::testing::Fixture;
using pbench::testing::metric;
using pbench::testing::number_of;

namespace {

nlohmann::json comm_document(double b_eff) {
  return document("comm", 2, nlohmann::json::array({metric("b_eff", b_eff, "B/s")}), true);
}

/// Two store files in a directory of their own, removed after.
struct TwoFiles {
  std::filesystem::path dir;
  TwoFiles() {
    dir = std::filesystem::temp_directory_path() /
          ("pbench-merge-" + std::to_string(::getpid()) + "-" + std::to_string(++made()));
    std::filesystem::create_directories(dir);
  }
  ~TwoFiles() { std::filesystem::remove_all(dir); }
  static int& made() {
    static int n = 0;
    return n;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

/// A store file with sweep "s" (one comm point, no cluster named): run 1 started at the
/// fixture's time with a result of `b_eff`.
Fixture one_run(const std::string& path, double b_eff) {
  Fixture f(store::Store::open(path, store::Store::Access::create));
  f.add_sweep("s", {{"comm", 2}});
  f.add_run(0, comm_document(b_eff));
  return f;
}

}  // namespace

TEST_CASE("store merge: a run that started earlier joins the same sweep before the stored runs") {
  TwoFiles files;
  auto into = one_run(files.path("into.db"), 1.25e9);
  {
    // The same sweep in another file: the same run 1 (its result byte for byte), and a run that
    // started a day earlier with a result of its own.
    auto from = one_run(files.path("from.db"), 1.25e9);
    from.store.start_run(from.points[0].sweep_id, "2026-11-21T00:00:00.000Z", "{}");
    from.add_run(0, comm_document(2.5e9));
  }
  const auto before = number_of(into.store, "SELECT count(*) FROM results");
  store::MergeOptions options;
  options.cluster = "unnamed";  // the cluster of the stored sweep, which names none
  const auto counts = store::StoreMerge(into.store, options).merge({files.path("from.db")});
  REQUIRE(counts.size() == 1);
  CHECK(counts[0].sweeps_joined == 1);
  CHECK(counts[0].sweeps_new == 0);
  CHECK(counts[0].runs == 1);
  CHECK(counts[0].runs_known == 1);
  CHECK(counts[0].results == 1);
  CHECK(counts[0].results_known == 1);
  CHECK(number_of(into.store, "SELECT count(*) FROM results") == before + 1);
  // Run 1 is now the one that started first (merged), run 2 the stored one; its attempt and
  // result moved with it, and both runs' headlines are answered again.
  CHECK(number_of(into.store,
                 "SELECT run_no FROM runs WHERE started_at = '2026-11-21T00:00:00.000Z'") == 1);
  CHECK(number_of(into.store,
                 "SELECT run_no FROM results r JOIN metrics m ON m.result_id = r.id "
                 "WHERE m.value = 2.5e9") == 1);
  CHECK(number_of(into.store,
                 "SELECT run_no FROM results r JOIN metrics m ON m.result_id = r.id "
                 "WHERE m.value = 1.25e9") == 2);
  CHECK(number_of(into.store,
                 "SELECT count(*) FROM attempts WHERE run_no = 2 AND origin_id IS "
                 "NULL") == 1);
  CHECK(into.store.headline_answered(into.points[0].sweep_id, 1));
  CHECK(into.store.headline_answered(into.points[0].sweep_id, 2));
  CHECK(number_of(into.store,
                 "SELECT count(*) FROM origins WHERE cluster = 'unnamed' AND store = '" +
                     std::filesystem::canonical(files.path("from.db")).string() + "'") == 1);
  // The same file again adds nothing.
  const auto again = store::StoreMerge(into.store, options).merge({files.path("from.db")});
  CHECK(again[0].results == 0);
  CHECK(again[0].runs == 0);
  CHECK(again[0].attempts == 0);
  CHECK(again[0].results_known == 2);
  CHECK(number_of(into.store, "SELECT count(*) FROM results") == before + 1);
}

TEST_CASE("store merge: another cluster's sweep of the same name is refused, or renamed") {
  TwoFiles files;
  auto into = one_run(files.path("into.db"), 1.25e9);
  { one_run(files.path("rack2.db"), 2.5e9); }
  const auto rows = [&] {
    return number_of(into.store,
                    "SELECT (SELECT count(*) FROM sweeps) + (SELECT count(*) FROM "
                    "results) + (SELECT count(*) FROM runs) + (SELECT count(*) FROM "
                    "origins)");
  };
  const auto before = rows();
  // Its profile named no cluster: it is the file's, rack2, not the stored sweep's.
  CHECK_THROWS_WITH_AS(
      store::StoreMerge(into.store, {}).merge({files.path("rack2.db")}),
      doctest::Contains("its sweep 's' (cluster 'rack2') clashes with the stored sweep 's' "
                        "(cluster 'unnamed', not 'rack2'); nothing was written"),
      UsageError);
  CHECK(rows() == before);
  store::MergeOptions rename;
  rename.rename = true;
  const auto counts = store::StoreMerge(into.store, rename).merge({files.path("rack2.db")});
  REQUIRE(counts[0].renamed.size() == 1);
  CHECK(counts[0].renamed[0] == "s -> s@rack2");
  const auto sweeps = query::cluster_sweeps(into.store, std::string("s"));
  REQUIRE(sweeps.size() == 2);
  CHECK(sweeps[0].sweep == "s");
  CHECK(sweeps[0].cluster == "unnamed");
  CHECK(sweeps[1].sweep == "s@rack2");
  CHECK(sweeps[1].cluster == "rack2");
  CHECK(query::cluster_sweeps(into.store, std::string("s@rack2")).size() == 2);
}

TEST_CASE("store merge: a FROM that is no store, or the store itself, is refused") {
  TwoFiles files;
  auto into = one_run(files.path("into.db"), 1.25e9);
  CHECK_THROWS_WITH_AS(store::StoreMerge(into.store, {}).merge({files.path("none.db")}),
                       doctest::Contains("no such store file"), UsageError);
  CHECK_THROWS_WITH_AS(store::StoreMerge(into.store, {}).merge({files.path("into.db")}),
                       doctest::Contains("into itself"), UsageError);
  { std::ofstream(files.path("text.db")) << "not a database, but long enough to be read as one"; }
  CHECK_THROWS_AS(store::StoreMerge(into.store, {}).merge({files.path("text.db")}), StoreError);
}
