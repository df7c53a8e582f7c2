// The metric catalogue: one definition in the code (workers/common/MetricCatalogue.cpp), copied
// into every store's table metric_catalogue and kept up to date; ingest refuses a metric it does
// not hold; the views of schema/store_views.sql answer as the query commands do.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "common/MetricCatalogue.hpp"
#include "ingest/Ingester.hpp"
#include "query/SystemQuery.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/ResultFixtures.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;

namespace {

std::int64_t rows_of(store::Store& store, const std::string& sql) {
  auto s = store.db().prepare(sql);
  s.step();
  return s.int64(0);
}

}  // namespace

TEST_CASE("the catalogue: each metric once, in a base unit, headline figures with a direction") {
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const auto& m : metrics::catalogue()) {
    CHECK_MESSAGE(seen.insert({m.worker, m.name}).second, m.name);
    CHECK_MESSAGE(!m.meaning.empty(), m.name);
    CHECK_MESSAGE((m.headline == metrics::Headline::no) == m.figure.empty(), m.name);
    CHECK(metrics::find_metric(m.worker, m.name) == &m);
  }
  CHECK(metrics::find_metric("logp", "ol") == nullptr);
  CHECK(metrics::find_figure("logp_G")->name == "big_g");
  CHECK(metrics::find_figure("b_eff_io")->name == "b_eff_io");  // not the legacy name
}

TEST_CASE("a store holds the catalogue and gets it back when it differs") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("pbench-catalogue-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  const auto size = static_cast<std::int64_t>(metrics::catalogue().size());
  {
    auto store = store::Store::open(path.string(), store::Store::Access::create);
    CHECK(rows_of(store, "SELECT count(*) FROM metric_catalogue") == size);
    CHECK(rows_of(store,
                  "SELECT count(*) FROM metric_catalogue WHERE worker = 'logp' AND "
                  "name = 'big_g' AND unit = 's/B' AND better = 'lower' AND "
                  "headline = 'yes' AND figure = 'logp_G' AND label_keys = "
                  "'queue_depth'") == 1);
    // An older pbench's catalogue: a metric missing, another's direction changed.
    store.db().exec(
        "DELETE FROM metric_catalogue WHERE name = 'ol'; UPDATE metric_catalogue SET better = "
        "'neither' WHERE name = 'b_eff'; UPDATE meta SET value = 'old' WHERE key = "
        "'metric_catalogue'");
  }
  {
    // A reader cannot write: it reads what the store holds.
    auto reader = store::Store::open(path.string(), store::Store::Access::read_only);
    CHECK(rows_of(reader, "SELECT count(*) FROM metric_catalogue") == size - 1);
  }
  auto store = store::Store::open(path.string(), store::Store::Access::existing);
  CHECK(rows_of(store, "SELECT count(*) FROM metric_catalogue") == size);
  CHECK(rows_of(store,
                "SELECT count(*) FROM metric_catalogue WHERE name = 'b_eff' AND "
                "better = 'higher'") == 1);
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

TEST_CASE("a version 4 store gets the catalogue and the views, its results answer the same") {
  const auto path =
      std::filesystem::temp_directory_path() / ("pbench-v4-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  query::QueryTable before;
  {
    testing::Fixture f(store::Store::open(path.string(), store::Store::Access::create));
    f.add_sweep("old", {{"comm", 2}, {"comm", 4}});
    f.add_run(0, testing::document("comm", 2,
                                   {testing::metric("b_eff", 1e9, "B/s"),
                                    testing::metric("b_eff_per_process", 5e8, "B/s")},
                                   true));
    f.add_run(1, testing::document("comm", 4,
                                   {testing::metric("b_eff", 3e9, "B/s"),
                                    testing::metric("b_eff_per_process", 7.5e8, "B/s")},
                                   false));
    before = query::system_table(f.store, std::string("old"), {});
    testing::make_version_4(f.store);
    CHECK(rows_of(f.store, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == 0);
  }
  auto store = store::Store::open(path.string(), store::Store::Access::existing);
  CHECK(rows_of(store, "PRAGMA user_version") == 7);
  CHECK(rows_of(store, "SELECT count(*) FROM metric_catalogue") ==
        static_cast<std::int64_t>(metrics::catalogue().size()));
  const auto after = query::system_table(store, std::string("old"), {});
  CHECK(after.rows == before.rows);
  // The valid b_eff (1e9 on 2) wins over the larger one that is not (3e9 on 4).
  REQUIRE(after.rows.size() == 2);
  CHECK(std::get<double>(after.rows[0][2]) == doctest::Approx(1e9));
  CHECK(std::get<std::int64_t>(after.rows[0][4]) == 2);
  for (const auto* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

TEST_CASE("ingest refuses a metric the catalogue does not hold, or in another unit, naming it") {
  auto store = store::Store::open_in_memory();
  ingest::Ingester ingester(store);
  auto doc = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10);
  doc["summary"].push_back(testing::metric("eel", 1e-6, "s"));
  CHECK_THROWS_WITH_AS(ingester.ingest_text(doc.dump(), "x.json"),
                       doctest::Contains("result 'x.json': at /summary/8: unknown metric \"eel\" "
                                         "of worker \"logp\" (not in the metric catalogue; logp "
                                         "has: g, big_g,"),
                       ValidationError);
  auto unit = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10);
  unit["summary"][0]["unit"] = "us";
  CHECK_THROWS_WITH_AS(ingester.ingest_text(unit.dump(), "u.json"),
                       doctest::Contains("at /summary/0/unit: metric \"eel_min\" is in s by the "
                                         "metric catalogue, not \"us\""),
                       ValidationError);
  CHECK(rows_of(store, "SELECT count(*) FROM results") == 0);
}
