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
#include "query/HistoryQuery.hpp"
#include "query/SystemQuery.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/ResultFixtures.hpp"
#include "support/NumberOf.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using testing::number_of;

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
    CHECK(number_of(store, "SELECT count(*) FROM metric_catalogue") == size);
    CHECK(number_of(store,
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
    // A reader of a store it may write has the catalogue made again first, as the views are
    // (a reader that may not write reads through a temporary one: orchestrator: error_paths).
    auto reader = store::Store::open(path.string(), store::Store::Access::read_only);
    CHECK(number_of(reader, "SELECT count(*) FROM metric_catalogue") == size);
    CHECK(number_of(reader,
                    "SELECT count(*) FROM metric_catalogue WHERE name = 'b_eff' AND "
                    "better = 'higher'") == 1);
  }
  auto store = store::Store::open(path.string(), store::Store::Access::existing);
  CHECK(number_of(store, "SELECT count(*) FROM metric_catalogue") == size);
  CHECK(number_of(store,
                "SELECT count(*) FROM metric_catalogue WHERE name = 'b_eff' AND "
                "better = 'higher'") == 1);
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

TEST_CASE("a store makes its views again when this pbench's differ, and answers the same") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("pbench-views-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  query::QueryTable before;
  {
    testing::Fixture f(store::Store::open(path.string(), store::Store::Access::create));
    f.add_sweep("s", {{"comm", 2}});
    f.add_run(0, testing::document("comm", 2, {testing::metric("b_eff", 1e9, "B/s")}, true));
    before = query::system_table(f.store, std::string("s"), {});
    CHECK(number_of(f.store, "SELECT count(*) FROM meta WHERE key = 'store_views'") == 1);
  }
  // An older pbench's views: one lacks a column, one is gone, the fingerprint is another. A
  // reader (pbench query) and a writer both find this pbench's views, and the same answers.
  const auto make_old = [&] {
    auto old = store::Store::open(path.string(), store::Store::Access::existing);
    old.db().exec(
        "DROP VIEW comm_table; CREATE VIEW comm_table AS SELECT 1 AS sweep_id; "
        "DROP VIEW io_table; UPDATE meta SET value = 'old' WHERE key = 'store_views'");
  };
  for (const auto access : {store::Store::Access::read_only, store::Store::Access::existing}) {
    make_old();
    auto store = store::Store::open(path.string(), access);
    CHECK(number_of(store, "SELECT count(*) FROM sqlite_master WHERE name = 'io_table'") == 1);
    CHECK(number_of(store,
                  "SELECT count(*) FROM comm_table WHERE \"row\" = 'partition' AND b_eff = 1e9") ==
          1);
    CHECK(query::render(query::system_table(store, std::string("s"), {}), query::Format::json) ==
          query::render(before, query::Format::json));
  }
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
    CHECK(number_of(f.store, "SELECT count(*) FROM sqlite_master WHERE type = 'view'") == 0);
  }
  auto store = store::Store::open(path.string(), store::Store::Access::existing);
  CHECK(number_of(store, "PRAGMA user_version") == store::kStoreSchemaVersion);
  CHECK(number_of(store, "SELECT count(*) FROM metric_catalogue") ==
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
  CHECK(number_of(store, "SELECT count(*) FROM results") == 0);
}

namespace {

// Every row of the view headlines of a sweep's run next to the kept answer's, as text.
std::string headline_text(store::Store& store, const std::string& source, std::int64_t run) {
  auto s = store.db().prepare(
      "SELECT figure, quote(value), unit, partition, at, point, job, valid, reason, nodes, ppn, "
      "better, shape, won, group_order, group_partition, group_nodes, group_ppn, row_order FROM " +
      source + " WHERE run = ?1 ORDER BY group_order, group_partition, group_nodes, group_ppn, "
      "row_order");
  s.bind(1, run);
  std::string out;
  while (s.step()) {
    for (int c = 0; c < 19; ++c) out += s.optional_text(c).value_or("NULL") + "|";
    out += "\n";
  }
  return out;
}

bool answered(store::Store& store, std::int64_t run) {
  return number_of(store, "SELECT count(*) FROM headline_answered WHERE run = " +
                            std::to_string(run)) == 1;
}

/// Sweep `name`: comm on 2 and 4 processes, its first run's results b_eff 1 GB/s (valid) and
/// 3 GB/s (not valid).
void add_comm_sweep(testing::Fixture& f, const std::string& name) {
  f.add_sweep(name, {{"comm", 2}, {"comm", 4}});
  f.add_run(0, testing::document("comm", 2, {testing::metric("b_eff", 1e9, "B/s")}, true));
  f.add_run(1, testing::document("comm", 4, {testing::metric("b_eff", 3e9, "B/s")}, false));
}

}  // namespace

TEST_CASE("a run's headline is kept answered, the same rows as the view, and made stale by "
          "what changes it") {
  testing::Fixture f;
  add_comm_sweep(f, "kept");
  // Nothing is answered until pbench answers (collect, or opening for writing).
  CHECK_FALSE(answered(f.store, 1));
  const auto from_view = query::system_table(f.store, std::string("kept"), {});
  CHECK(f.store.answer_headlines() == 1);
  CHECK(answered(f.store, 1));
  CHECK(f.store.answer_headlines() == 0);  // nothing left to answer
  CHECK(headline_text(f.store, "headline_answers", 1) == headline_text(f.store, "headlines", 1));
  CHECK(query::system_table(f.store, std::string("kept"), {}).rows == from_view.rows);

  // A new result of the run: the answer is stale, the query reads the view (the valid 2e9 on
  // 4 processes now wins), and answering again gives the view's rows.
  f.add_run(1, testing::document("comm", 4, {testing::metric("b_eff", 2e9, "B/s")}, true));
  CHECK_FALSE(answered(f.store, 1));
  const auto fresh = query::system_table(f.store, std::string("kept"), {});
  REQUIRE_FALSE(fresh.rows.empty());
  CHECK(std::get<double>(fresh.rows[0][2]) == doctest::Approx(2e9));
  f.store.answer_headlines();
  CHECK(headline_text(f.store, "headline_answers", 1) == headline_text(f.store, "headlines", 1));
  CHECK(query::system_table(f.store, std::string("kept"), {}).rows == fresh.rows);

  // A result changed or removed, a point changed, a job id given, the catalogue rewritten: each
  // takes the mark away.
  const auto stale_after = [&](const std::string& sql) {
    f.store.answer_headlines();
    REQUIRE(answered(f.store, 1));
    f.store.db().exec(sql);
    return !answered(f.store, 1);
  };
  CHECK(stale_after("UPDATE results SET valid = 0 WHERE id = (SELECT max(id) FROM results)"));
  CHECK(stale_after("DELETE FROM results WHERE id = (SELECT max(id) FROM results)"));
  CHECK(stale_after("UPDATE points SET params_json = '{\"x\":1}' WHERE id = 1"));
  CHECK(stale_after("UPDATE attempts SET job_id = '77' WHERE id = 1"));
  CHECK(stale_after("UPDATE metric_catalogue SET better = 'higher' WHERE name = 'b_eff'"));
  CHECK(stale_after("DELETE FROM runs WHERE run_no = 1"));
  // Writing an attempt back with its job id unchanged, or a result's allocated nodes, does not
  // (neither changes the headline).
  f.store.db().exec("INSERT INTO runs (sweep_id, run_no, started_at, envelope) "
                    "VALUES (1, 1, 't', '{}')");
  f.store.answer_headlines();
  auto attempt = *f.store.latest_attempt(f.points[0].id);
  attempt.state = store::PointState::failed;
  f.store.update_attempt(attempt);
  f.store.set_result_allocation(1, "node1");
  CHECK(answered(f.store, 1));
  // Removing the sweep removes its answers.
  f.store.delete_sweep(f.store.find_sweep("kept")->id);
  CHECK(number_of(f.store, "SELECT count(*) FROM headline_answers") == 0);
  CHECK(number_of(f.store, "SELECT count(*) FROM headline_answered") == 0);
}

TEST_CASE("history reads the kept answers in one statement and gives what query system gives "
          "run by run") {
  testing::Fixture f;
  add_comm_sweep(f, "nightly");
  const auto sweep_id = f.store.find_sweep("nightly")->id;
  f.store.start_run(sweep_id, "2026-11-23T07:00:00Z", "{}");
  f.add_run(1, testing::document("comm", 4, {testing::metric("b_eff", 2e9, "B/s")}, true));
  f.store.start_run(sweep_id, "2026-11-24T07:00:00Z", "{}");  // a run without results yet
  const auto computed = query::history_table(f.store, "nightly", std::nullopt, {});
  CHECK(f.store.answer_headlines() == 3);
  const auto kept = query::history_table(f.store, "nightly", std::nullopt, {});
  CHECK(kept.rows == computed.rows);
  const auto b_eff = query::history_table(f.store, "nightly", std::string("b_eff"), {});
  REQUIRE(b_eff.rows.size() == 3);
  CHECK(std::get<double>(b_eff.rows[0][4]) == doctest::Approx(1e9));  // run 1: the valid one
  CHECK(std::get<double>(b_eff.rows[1][4]) == doctest::Approx(2e9));  // run 2
  CHECK(b_eff.rows[2][4].index() == 0);                                // run 3: no result
  CHECK(std::get<std::string>(b_eff.rows[2][7]) == "-");
  // Half answered: run 2 made stale by a new result reads the view, the others the answers.
  f.add_run(0, testing::document("comm", 2, {testing::metric("b_eff", 4e9, "B/s")}, true));
  CHECK_FALSE(answered(f.store, 3));
  const auto mixed = query::history_table(f.store, "nightly", std::string("b_eff"), {});
  REQUIRE(mixed.rows.size() == 3);
  CHECK(std::get<double>(mixed.rows[2][4]) == doctest::Approx(4e9));
  f.store.answer_headlines();
  CHECK(query::history_table(f.store, "nightly", std::string("b_eff"), {}).rows == mixed.rows);
}
