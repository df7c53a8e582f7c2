#include "store/StoreMigration.hpp"

#include <chrono>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/MetricCatalogue.hpp"
#include "pbench_schema.hpp"
#include "store/PackedDocument.hpp"
#include "store/ResultLayout.hpp"
#include "store/Store.hpp"

namespace pbench::store {

void StoreMigration::run(int from) {
  add_origin_columns();
  add_ingest_reason_column();
  add_document_columns();
  if (from == 1) from_version_1();
  if (from <= 2) from_version_2();
  if (from <= 3) from_version_3();
  if (from <= 4) from_version_4();
  if (from <= 5) from_version_5();
  if (from <= 6) from_version_6();
  if (from <= 7) from_version_7();
  if (from <= 8) from_version_8();
  if (from <= 9) from_version_9();
  if (from <= 10) from_version_10();
  from_version_11();
}

void StoreMigration::add_origin_columns() {
  // One transaction: the table origins and every origin column, or none (an interrupted
  // migration adds them all when run again). runs of a store older than version 3 is made by
  // from_version_2 with its column.
  auto has = db_.prepare("SELECT 1 FROM pragma_table_info('sweeps') WHERE name = 'origin_id'");
  if (has.step()) return;
  Transaction txn(db_);
  db_.exec(
      "CREATE TABLE IF NOT EXISTS origins (id INTEGER PRIMARY KEY, store TEXT NOT NULL, "
      "cluster TEXT NOT NULL, merged_at TEXT NOT NULL, UNIQUE (store, cluster))");
  db_.exec("ALTER TABLE sweeps ADD COLUMN cluster TEXT");
  db_.exec("ALTER TABLE sweeps ADD COLUMN base_name TEXT");
  for (const char* table : {"sweeps", "points", "runs", "attempts", "results"}) {
    auto exists = db_.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
    exists.bind(1, table);
    if (!exists.step()) continue;
    // The table's name is one of the five above.
    db_.exec(std::string("ALTER TABLE ") + table +
             " ADD COLUMN origin_id INTEGER REFERENCES origins(id)");
  }
  txn.commit();
}

void StoreMigration::from_version_11() {
  // Version 12 keeps where rows were made (origins, origin_id: `pbench store merge`) and each
  // sweep's cluster, from the site profile's [machine] cluster it was made with, and its name.
  Transaction txn(db_);
  db_.exec(
      "UPDATE sweeps SET cluster = json_extract(spec_json, '$.machine.cluster'), "
      "base_name = name WHERE base_name IS NULL AND json_valid(spec_json)");
  db_.exec("UPDATE sweeps SET base_name = name WHERE base_name IS NULL");
  remake_views_at(12);
  txn.commit();
}

void StoreMigration::add_ingest_reason_column() {
  auto columns =
      db_.prepare("SELECT 1 FROM pragma_table_info('results') WHERE name = 'ingest_reason'");
  if (!columns.step()) db_.exec("ALTER TABLE results ADD COLUMN ingest_reason TEXT");
}

void StoreMigration::from_version_1() {
  // Version 2 widens two indexes into covering ones and adds results_by_attempt (collect
  // scanned every result for each point without it); no data changes.
  Transaction txn(db_);
  db_.exec("DROP INDEX IF EXISTS metrics_by_name");
  db_.exec("CREATE INDEX metrics_by_name ON metrics (name, result_id, value, labels)");
  db_.exec("DROP INDEX IF EXISTS results_by_point");
  db_.exec("CREATE INDEX results_by_point ON results (point_id, id, valid)");
  db_.exec("CREATE INDEX IF NOT EXISTS results_by_attempt ON results (attempt_id)");
  db_.exec("PRAGMA user_version = 2");
  txn.commit();
}

void StoreMigration::from_version_2() {
  // Version 3 adds the runs of a sweep; what a version 2 store holds is each sweep's run 1.
  Transaction txn(db_);
  db_.exec(
      "CREATE TABLE runs (id INTEGER PRIMARY KEY, "
      "sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE, "
      "run_no INTEGER NOT NULL CHECK (run_no > 0), started_at TEXT NOT NULL, "
      "envelope TEXT NOT NULL, origin_id INTEGER REFERENCES origins(id), "
      "UNIQUE (sweep_id, run_no))");
  db_.exec(
      "INSERT INTO runs(sweep_id, run_no, started_at, envelope) "
      "SELECT id, 1, created_at, '{\"migrated_from_store_version\":2}' FROM sweeps");
  db_.exec("ALTER TABLE attempts ADD COLUMN run_no INTEGER NOT NULL DEFAULT 1");
  db_.exec("ALTER TABLE results ADD COLUMN run_no INTEGER NOT NULL DEFAULT 1");
  db_.exec("CREATE INDEX results_by_point_run ON results (point_id, run_no, id)");
  db_.exec("PRAGMA user_version = 3");
  txn.commit();
}

void StoreMigration::from_version_3() {
  // Version 4 adds the layout: the shape each point asked for, and where each result's ranks
  // ran (from its document's rank_hosts), with a placement that differs from the shape asked
  // for as a reason the result is not valid (store/ResultLayout.hpp).
  Transaction txn(db_);
  db_.exec("ALTER TABLE points ADD COLUMN nodes INTEGER CHECK (nodes IS NULL OR nodes > 0)");
  db_.exec(
      "ALTER TABLE points ADD COLUMN procs_per_node INTEGER "
      "CHECK (procs_per_node IS NULL OR procs_per_node > 0)");
  for (const char* column : {"nodes INTEGER", "procs_per_node INTEGER", "node_list TEXT",
                             "allocated_nodes TEXT", "placement TEXT"}) {
    db_.exec(std::string("ALTER TABLE results ADD COLUMN ") + column);
  }
  {
    auto points = db_.prepare("SELECT id, params_json FROM points");
    auto update = db_.prepare("UPDATE points SET nodes = ?1, procs_per_node = ?2 WHERE id = ?3");
    while (points.step()) {
      const auto shape = asked_shape(nlohmann::json::parse(points.text(1), nullptr, false));
      if (!shape.exact()) continue;
      update.reset();
      update.bind(1, shape.nodes).bind(2, shape.procs_per_node).bind(3, points.int64(0)).run();
    }
  }
  {
    auto results = db_.prepare(
        "SELECT r.id, r.document, p.params_json FROM results r "
        "LEFT JOIN points p ON p.id = r.point_id");
    auto update = db_.prepare(
        "UPDATE results SET nodes = ?1, procs_per_node = ?2, node_list = ?3, placement = ?4, "
        "valid = CASE WHEN ?4 IS NULL THEN valid ELSE 0 END WHERE id = ?5");
    while (results.step()) {
      const auto document = nlohmann::json::parse(results.text(1), nullptr, false);
      const auto params = results.is_null(2)
                              ? nlohmann::json::object()
                              : nlohmann::json::parse(results.text(2), nullptr, false);
      bind_layout(update, result_layout(document, asked_shape(params)), 1);
      update.bind(5, results.int64(0)).run();
    }
  }
  db_.exec("PRAGMA user_version = 4");
  txn.commit();
}

void StoreMigration::from_version_4() {
  // Version 5 adds the metric catalogue and the views that answer (schema/store_views.sql);
  // refresh_catalogue() fills the catalogue.
  views_only_step(5);
}

void StoreMigration::from_version_5() {
  // Version 6 gives the views the column env (schema/store_views.sql drops and makes every
  // view again); no table changes.
  views_only_step(6);
}

void StoreMigration::from_version_6() {
  // Version 7 gives the catalogue the column companion_of (logp's EEL is a headline with o_s,
  // o_r and L read from its result). The catalogue is a copy of the code's: made again, and
  // refresh_catalogue() fills it.
  Transaction txn(db_);
  drop_catalogue_copy();
  remake_views_at(7);
  txn.commit();
}

void StoreMigration::from_version_7() {
  // Version 8 writes the headline rule's order once (the view headline_ranks) and keeps each
  // run's headline answered (headline_answers); schema/store_views.sql makes both, and
  // answer_headlines() (at the end of opening) fills the answers.
  views_only_step(8);
}

void StoreMigration::from_version_8() {
  // Version 9 holds every figure to the catalogue's bounds at ingest (ingest_reason). A result
  // stored valid before with a figure that cannot be is made not valid with the reason, as
  // ingest would store it now; the document stays as it was.
  Transaction txn(db_);
  // The catalogue's copy gains the column bound: made again, and refresh_catalogue() fills it.
  drop_catalogue_copy();
  db_.exec(std::string(schema::store_views_sql()));
  struct Held {
    std::string worker;
    long long nprocs = 0;
    std::vector<metrics::MetricValue> values;
  };
  std::map<std::int64_t, Held> held;
  {
    auto s = db_.prepare(
        "SELECT r.id, r.worker, r.nprocs, m.name, m.value, m.labels FROM results r "
        "JOIN metrics m ON m.result_id = r.id WHERE r.valid AND m.value IS NOT NULL "
        "ORDER BY r.id, m.id");
    while (s.step()) {
      auto& h = held[s.int64(0)];
      h.worker = s.text(1);
      h.nprocs = s.int64(2);
      h.values.push_back({s.text(3), s.real(4), s.optional_text(5).value_or("")});
    }
  }
  auto update = db_.prepare("UPDATE results SET valid = 0, ingest_reason = ?1 WHERE id = ?2");
  for (const auto& [id, h] : held) {
    const std::string reason = metrics::impossible_figures(h.worker, h.nprocs, h.values);
    if (reason.empty()) continue;
    update.reset();
    update.bind(1, reason).bind(2, id).run();
  }
  db_.exec("PRAGMA user_version = 9");
  txn.commit();
}

void StoreMigration::from_version_9() {
  // Version 10 makes the environment a key of every headline and adds result_settings: views
  // only (schema/store_views.sql drops and makes every view, and headline_answers empty, which
  // answer_headlines() at the end of opening fills again).
  views_only_step(10);
}

void StoreMigration::remake_views_at(int version) {
  db_.exec(std::string(schema::store_views_sql()));
  db_.exec("PRAGMA user_version = " + std::to_string(version));
}

void StoreMigration::views_only_step(int version) {
  Transaction txn(db_);
  remake_views_at(version);
  txn.commit();
}

void StoreMigration::drop_catalogue_copy() {
  db_.exec("DROP TABLE IF EXISTS metric_catalogue");
  db_.exec("DELETE FROM meta WHERE key = 'metric_catalogue'");
}

int StoreMigration::pack_batch(int batch) {
  Transaction txn(db_);
  auto next =
      db_.prepare("SELECT id, document FROM results WHERE packed IS NULL ORDER BY id LIMIT ?1");
  next.bind(1, static_cast<std::int64_t>(batch));
  auto update =
      db_.prepare("UPDATE results SET head = ?1, packed = ?2, document = '' WHERE id = ?3");
  int packed = 0;
  while (next.step()) {
    // The stored text is the canonical one its document_hash is of: packed as it is, byte for
    // byte, whatever it holds (a document changed from outside stays as changed, for verify).
    const std::string text = next.text(1);
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    const auto p = pack_document(doc.is_discarded() ? nlohmann::json::object() : doc, text);
    update.reset();
    update.bind(1, p.head).bind_blob(2, p.packed).bind(3, next.int64(0)).run();
    ++packed;
  }
  txn.commit();
  return packed;
}

void StoreMigration::add_document_columns() {
  auto has = db_.prepare("SELECT 1 FROM pragma_table_info('results') WHERE name = 'packed'");
  if (has.step()) return;
  Transaction txn(db_);
  db_.exec("ALTER TABLE results ADD COLUMN head TEXT NOT NULL DEFAULT ''");
  db_.exec("ALTER TABLE results ADD COLUMN packed BLOB");
  txn.commit();
}

void StoreMigration::from_version_10() {
  std::int64_t total = 0, done = 0;
  {
    auto count = db_.prepare("SELECT count(*), count(packed) FROM results");
    count.step();
    total = count.int64(0);
    done = count.int64(1);
  }
  using Clock = std::chrono::steady_clock;
  auto said = Clock::now();
  const auto say = [&] {
    std::cerr << "pbench: store '" << db_.path() << "' to version 11: " << done << " of " << total
              << " result documents compressed" << std::endl;
  };
  if (done < total) say();
  while (done < total) {
    const int packed = pack_batch(500);
    if (packed == 0) break;
    done += packed;
    if (Clock::now() - said > std::chrono::seconds(2) || done == total) {
      say();
      said = Clock::now();
    }
  }
  // The text column goes; SQLite rewrites the table without it (the views and triggers that
  // name results are made again after).
  Transaction txn(db_);
  std::vector<std::string> drops;
  {
    auto s = db_.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger')");
    while (s.step()) drops.push_back("DROP " + s.text(0) + " IF EXISTS \"" + s.text(1) + "\"");
  }
  for (const auto& drop : drops) db_.exec(drop);
  db_.exec("ALTER TABLE results DROP COLUMN document");
  db_.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('compact', 'pending')");
  remake_views_at(11);
  txn.commit();
}

void compact_if_pending(Database& db) {
  {
    auto pending = db.prepare("SELECT 1 FROM meta WHERE key = 'compact' AND value = 'pending'");
    if (!pending.step()) return;
  }
  std::cerr << "pbench: store '" << db.path()
            << "': giving the space of the uncompressed documents back (VACUUM)" << std::endl;
  db.exec("VACUUM");
  db.exec("DELETE FROM meta WHERE key = 'compact'");
}

}  // namespace pbench::store
