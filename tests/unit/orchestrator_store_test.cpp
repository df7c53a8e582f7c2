// The store: round trips of sweeps, points and attempts; refusing files that are not a pbench
// store or have another schema version (and leaving them untouched); ingesting documents once,
// and rejecting bad ones without changing anything.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ingest/Ingester.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/ResultFixtures.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::store;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("pbench-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::int64_t count(Store& store, const std::string& table) {
  auto s = store.db().prepare("SELECT count(*) FROM " + table);
  s.step();
  return s.int64(0);
}

SweepRecord add_sweep(Store& store, const std::string& name, int npoints) {
  std::vector<PointRecord> points;
  for (int i = 0; i < npoints; ++i) {
    PointRecord p;
    p.key = name + "-key" + std::to_string(i);
    p.worker = "logp";
    p.partition = i + 1;
    p.params_json = "{}";
    p.script_path = "/nonexistent/job.sh";
    points.push_back(p);
  }
  return store.insert_sweep({0, name, "{}", "local", "/nonexistent", "2026-11-22T00:00:00.000Z"},
                            points);
}

}  // namespace

TEST_CASE("sweeps, points and attempts round-trip through the store") {
  auto store = Store::open_in_memory();
  const auto sweep = add_sweep(store, "demo", 3);
  CHECK(sweep.id > 0);
  CHECK(store.find_sweep("demo")->name == "demo");
  CHECK_FALSE(store.find_sweep("other"));
  auto points = store.points(sweep.id);
  REQUIRE(points.size() == 3);
  CHECK(points[1].partition == 2);
  CHECK(points[1].state == PointState::planned);
  store.set_point_state(points[1].id, PointState::running);
  CHECK(store.points(sweep.id)[1].state == PointState::running);

  AttemptRecord a;
  a.point_id = points[1].id;
  a.job_dir = "/d";
  a.stdout_path = "/d/o";
  a.stderr_path = "/d/e";
  a.result_path = "/d/r";
  a = store.add_attempt(a);
  CHECK(a.attempt_no == 1);
  a.job_id = "1234";
  a.exit_status = 3;
  a.signal = "KILL";
  a.state = PointState::failed;
  store.update_attempt(a);
  auto b = store.add_attempt({0,
                              points[1].id,
                              0,
                              {},
                              {},
                              PointState::queued,
                              {},
                              {},
                              {},
                              {},
                              {},
                              "/d2",
                              "/d2/o",
                              "/d2/e",
                              "/d2/r",
                              {}});
  CHECK(b.attempt_no == 2);
  const auto all = store.attempts(points[1].id);
  REQUIRE(all.size() == 2);
  CHECK(all[0].exit_status == 3);
  CHECK(all[0].signal == "KILL");
  CHECK(all[0].state == PointState::failed);
  CHECK(store.latest_attempt(points[1].id)->attempt_no == 2);
}

TEST_CASE("replacing a sweep removes its old points and results") {
  auto store = Store::open_in_memory();
  add_sweep(store, "demo", 2);
  std::vector<PointRecord> points(1);
  points[0].key = "new";
  points[0].worker = "logp";
  points[0].partition = 4;
  points[0].params_json = "{}";
  points[0].script_path = "/x";
  store.replace_sweep({0, "demo", "{\"v\":2}", "local", "/x", "t"}, points);
  CHECK(count(store, "sweeps") == 1);
  CHECK(count(store, "points") == 1);
  CHECK(store.find_sweep("demo")->spec_json == "{\"v\":2}");
}

TEST_CASE("a new store file is created with the schema version and reopened") {
  TempDir dir;
  const auto path = (dir.path / "s.db").string();
  CHECK_THROWS_WITH_AS(
      Store::open(path, Store::Access::existing),
      ("no pbench store at '" + path + "' (create one with 'pbench sweep')").c_str(), StoreError);
  {
    auto store = Store::open(path, Store::Access::create);
    add_sweep(store, "demo", 1);
    // WAL with synchronous=NORMAL (1): no fsync per commit, no corruption on a power cut.
    auto journal = store.db().prepare("PRAGMA journal_mode");
    journal.step();
    CHECK(journal.text(0) == "wal");
    auto sync = store.db().prepare("PRAGMA synchronous");
    sync.step();
    CHECK(sync.int64(0) == 1);
  }
  auto again = Store::open(path, Store::Access::read_only);
  CHECK(again.find_sweep("demo"));
  auto v = again.db().prepare("PRAGMA user_version");
  v.step();
  CHECK(v.int64(0) == kStoreSchemaVersion);
}

TEST_CASE("a file that is not a database is refused and left untouched") {
  TempDir dir;
  const auto path = dir.path / "notes.db";
  std::ofstream(path) << "these are my notes, not a database\n";
  const std::string before = read_file(path);
  CHECK_THROWS_WITH_AS(
      Store::open(path.string(), Store::Access::create),
      ("'" + path.string() + "' is not a pbench store (not an SQLite database)").c_str(),
      StoreError);
  CHECK(read_file(path) == before);
}

TEST_CASE("another application's SQLite database is refused and left untouched") {
  TempDir dir;
  const auto path = (dir.path / "other.db").string();
  {
    Database db(path, Database::Mode::read_write_create);
    db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (42);");
  }
  const std::string before = read_file(path);
  CHECK_THROWS_WITH_AS(Store::open(path, Store::Access::create),
                       ("'" + path + "' is an SQLite database but not a pbench store").c_str(),
                       StoreError);
  CHECK(read_file(path) == before);
}

TEST_CASE("a store of another schema version is refused and left untouched") {
  TempDir dir;
  const auto path = (dir.path / "old.db").string();
  {
    auto store = Store::open(path, Store::Access::create);
    add_sweep(store, "demo", 1);
    // A newer pbench's store.
    store.db().exec("PRAGMA user_version = " + std::to_string(store::kStoreSchemaVersion + 1));
    store.db().exec("PRAGMA journal_mode=DELETE");
  }
  const std::string before = read_file(path);
  CHECK_THROWS_WITH_AS(
      Store::open(path, Store::Access::existing),
      ("'" + path + "' has store schema version " + std::to_string(store::kStoreSchemaVersion + 1) +
       "; this pbench reads version " + std::to_string(store::kStoreSchemaVersion))
          .c_str(),
      StoreError);
  CHECK(read_file(path) == before);
}

namespace {
// The columns of index `name`, in order, comma-separated.
std::string index_columns(Store& store, const std::string& name) {
  auto s = store.db().prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno");
  s.bind(1, name);
  std::string out;
  while (s.step()) out += (out.empty() ? "" : ",") + s.text(0);
  return out;
}

// Turns a new store back into a version 1 store: no runs, its two indexes as they were then.
void make_version_1(Store& store) {
  testing::make_version_4(store);
  store.db().exec(
      "DROP TABLE runs; DROP INDEX results_by_point_run;"
      "ALTER TABLE attempts DROP COLUMN run_no; ALTER TABLE results DROP COLUMN run_no;"
      "DROP INDEX metrics_by_name; CREATE INDEX metrics_by_name ON metrics (name, result_id);"
      "DROP INDEX results_by_point; CREATE INDEX results_by_point ON results (point_id);"
      "DROP INDEX results_by_attempt;"
      // Version 4's layout columns.
      "ALTER TABLE points DROP COLUMN nodes; ALTER TABLE points DROP COLUMN procs_per_node;"
      "ALTER TABLE results DROP COLUMN nodes; ALTER TABLE results DROP COLUMN procs_per_node;"
      "ALTER TABLE results DROP COLUMN node_list; ALTER TABLE results DROP COLUMN "
      "allocated_nodes; ALTER TABLE results DROP COLUMN placement;"
      "PRAGMA user_version = 1; PRAGMA journal_mode=DELETE;");
}
}  // namespace

TEST_CASE("a version 1 store is migrated to version 6 when opened, by a reader too") {
  TempDir dir;
  const auto path = (dir.path / "v1.db").string();
  {
    auto store = Store::open(path, Store::Access::create);
    add_sweep(store, "demo", 2);
    make_version_1(store);
    CHECK(index_columns(store, "metrics_by_name") == "name,result_id");
  }
  {
    // The queries need version 6: a reader migrates an older store first (one transaction).
    auto reader = Store::open(path, Store::Access::read_only);
    CHECK(reader.find_sweep("demo"));
    CHECK(reader.runs(reader.find_sweep("demo")->id).size() == 1);
  }
  auto store = Store::open(path, Store::Access::existing);
  auto v = store.db().prepare("PRAGMA user_version");
  v.step();
  CHECK(v.int64(0) == kStoreSchemaVersion);
  CHECK(index_columns(store, "metrics_by_name") == "name,result_id,value,labels");
  CHECK(index_columns(store, "results_by_point") == "point_id,id,valid");
  CHECK(index_columns(store, "results_by_attempt") == "attempt_id");
  CHECK(index_columns(store, "results_by_point_run") == "point_id,run_no,id");
  CHECK(store.find_sweep("demo"));
  CHECK(store.points(store.find_sweep("demo")->id).size() == 2);
  const auto runs = store.runs(store.find_sweep("demo")->id);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].run_no == 1);
  CHECK(runs[0].started_at == "2026-11-22T00:00:00.000Z");
}

TEST_CASE("a valid document is stored once with its metrics") {
  auto store = Store::open_in_memory();
  ingest::Ingester ingester(store);
  const auto text = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10).dump();
  const auto first = ingester.ingest_text(text, "a.json");
  CHECK_FALSE(first.duplicate);
  CHECK(first.metrics == 8);
  // The same document again (even with other formatting) is recognised and not stored twice.
  const auto second = ingester.ingest_text(nlohmann::json::parse(text).dump(2), "b.json");
  CHECK(second.duplicate);
  CHECK(second.result_id == first.result_id);
  CHECK(count(store, "results") == 1);
  CHECK(count(store, "metrics") == 8);
  auto m = store.db().prepare(
      "SELECT value, unit, labels FROM metrics WHERE name = 'g' AND result_id = ?1");
  m.bind(1, first.result_id);
  REQUIRE(m.step());
  CHECK(m.real(0) == doctest::Approx(2e-7));
  CHECK(m.text(1) == "s");
  CHECK(m.text(2) == "{\"queue_depth\":8}");
}

TEST_CASE("bad documents are rejected with a clear message and change nothing") {
  auto store = Store::open_in_memory();
  ingest::Ingester ingester(store);
  ingester.ingest_text(testing::logp_document(2, 1, 1e-6, 2e-7, 1e-10).dump(), "good.json");
  const std::string good = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10).dump();

  CHECK_THROWS_WITH_AS(ingester.ingest_text("{\"schema_version\": 1,", "t.json"),
                       "result 't.json': malformed JSON at byte 22", ValidationError);
  CHECK_THROWS_WITH_AS(ingester.ingest_text(good.substr(0, good.size() / 2), "half.json"),
                       doctest::Contains("result 'half.json': malformed JSON at byte"),
                       ValidationError);
  CHECK_THROWS_WITH_AS(ingester.ingest_text("", "empty.json"),
                       "result 'empty.json': malformed JSON at byte 1 (empty file)",
                       ValidationError);
  auto wrong_version = nlohmann::json::parse(good);
  wrong_version["schema_version"] = 2;
  CHECK_THROWS_WITH_AS(ingester.ingest_text(wrong_version.dump(), "v2.json"),
                       "result 'v2.json': schema version 2; this pbench reads version 1",
                       ValidationError);
  auto missing = nlohmann::json::parse(good);
  missing.erase("hosts");
  CHECK_THROWS_WITH_AS(ingester.ingest_text(missing.dump(), "m.json"), doctest::Contains("hosts"),
                       ValidationError);
  auto bad_row = nlohmann::json::parse(good);
  bad_row["measurements"]["eel"]["rows"][0].push_back(3);
  CHECK_THROWS_AS(ingester.ingest_text(bad_row.dump(), "row.json"), ValidationError);
  CHECK_THROWS_AS(ingester.ingest_file("/nonexistent/result.json"), ValidationError);

  CHECK(count(store, "results") == 1);
  CHECK(count(store, "metrics") == 8);
}
