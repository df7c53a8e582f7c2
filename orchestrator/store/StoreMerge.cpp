#include "store/StoreMerge.hpp"

#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::store {
namespace {

namespace fs = std::filesystem;

/// Copies column `column` of the row `from` is on to parameter `param` of `to`, of its type.
void copy_value(const Statement& from, int column, Statement& to, int param) {
  switch (from.type(column)) {
    case SQLITE_INTEGER:
      to.bind(param, from.int64(column));
      break;
    case SQLITE_FLOAT:
      to.bind(param, from.real(column));
      break;
    case SQLITE_TEXT:
      to.bind(param, from.text(column));
      break;
    case SQLITE_BLOB:
      to.bind_blob(param, from.blob(column));
      break;
    default:
      to.bind(param, std::nullopt);
  }
}

/// A FROM store, opened read-only and checked: a pbench store of this version, intact.
Database open_source(const std::string& path, const std::string& into_path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw UsageError("cannot merge '" + path + "': no such store file");
  }
  if (fs::exists(into_path, ec) && fs::equivalent(path, into_path, ec)) {
    throw UsageError("cannot merge '" + path + "' into itself ('" + into_path + "')");
  }
  const std::string nothing = "; nothing was written into '" + into_path + "'";
  Database db(path, Database::Mode::read_only);
  int version = 0;
  std::string application;
  try {
    auto v = db.prepare("PRAGMA user_version");
    if (v.step()) version = static_cast<int>(v.int64(0));
    auto meta = db.prepare("SELECT value FROM meta WHERE key = 'application'");
    if (meta.step()) application = meta.text(0);
  } catch (const StoreDamagedError& e) {
    throw StoreDamagedError(
        "cannot merge '" + path + "': " + damaged_store_message(path, e.sqlite_said()) + nothing,
        e.sqlite_said());
  } catch (const StoreError& e) {
    throw StoreError("cannot merge '" + path + "': not a pbench store (" + e.what() + ")" +
                     nothing);
  }
  if (application != "pbench") {
    throw StoreError("cannot merge '" + path + "': not a pbench store" + nothing);
  }
  if (version > kStoreSchemaVersion) {
    throw StoreError("cannot merge '" + path + "': it has store schema version " +
                     std::to_string(version) +
                     ", written by a newer pbench; this pbench reads "
                     "version " +
                     std::to_string(kStoreSchemaVersion) + nothing);
  }
  if (version < kStoreSchemaVersion) {
    throw StoreError("cannot merge '" + path + "': it has store schema version " +
                     std::to_string(version) + "; merge reads version " +
                     std::to_string(kStoreSchemaVersion) +
                     " only: open it once with this "
                     "pbench to migrate it ('pbench --db " +
                     path +
                     " list'), or merge a copy"
                     " of it migrated so" +
                     nothing);
  }
  const auto problems = integrity_problems(db, false, 10);
  if (!problems.empty()) {
    throw StoreDamagedError(
        "cannot merge '" + path + "': " + damaged_store_message(path, problems.front()) + nothing,
        problems.front());
  }
  return db;
}

std::string now_utc() {
  char text[32];
  const auto t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

/// The merge of one FROM into the store, inside the caller's transaction.
class SourceMerge {
 public:
  SourceMerge(Database& into, Database& from, std::string from_name, const MergeOptions& options)
      : into_(into), from_(from), options_(options) {
    counts_.from = std::move(from_name);
    std::error_code ec;
    auto absolute = fs::weakly_canonical(counts_.from, ec);
    from_path_ = ec ? fs::absolute(counts_.from).string() : absolute.string();
    default_cluster_ =
        options.cluster.empty() ? fs::path(counts_.from).stem().string() : options.cluster;
    auto s = from_.prepare("SELECT id, store, cluster FROM origins");
    while (s.step()) source_origins_[s.int64(0)] = {s.text(1), s.text(2)};
  }

  MergeCounts run() {
    auto sweeps = from_.prepare(
        "SELECT id, name, spec_json, scheduler, directory, created_at, cluster, "
        "coalesce(base_name, name), origin_id FROM sweeps ORDER BY id");
    while (sweeps.step()) merge_sweep(sweeps);
    // The results without a point (their sweep removed): no run or attempt of a sweep.
    runs_.clear();
    attempts_.clear();
    merge_results(std::nullopt, std::nullopt);
    return counts_;
  }

 private:
  /// The id of origin (store, cluster) in the store, made when it has none.
  std::int64_t origin_id(const std::string& store, const std::string& cluster) {
    auto find = into_.prepare("SELECT id FROM origins WHERE store = ?1 AND cluster = ?2");
    find.bind(1, store).bind(2, cluster);
    if (find.step()) return find.int64(0);
    into_.prepare("INSERT INTO origins(store, cluster, merged_at) VALUES (?1, ?2, ?3)")
        .bind(1, store)
        .bind(2, cluster)
        .bind(3, now_utc())
        .run();
    return into_.last_insert_rowid();
  }

  /// The origin of a FROM row: the one FROM kept for it, else FROM itself on `cluster`.
  std::int64_t row_origin(const Statement& s, int column, const std::string& cluster) {
    if (!s.is_null(column)) {
      const auto it = source_origins_.find(s.int64(column));
      if (it != source_origins_.end()) return origin_id(it->second.first, it->second.second);
    }
    return origin_id(from_path_, cluster);
  }

  /// Where FROM's sweep goes: the stored sweep it joins (its id), or nothing for a new one
  /// under `name` (possibly renamed NAME@CLUSTER).
  std::optional<std::int64_t> target_sweep(std::string& name, const std::string& spec,
                                           const std::string& cluster) {
    auto find = into_.prepare(
        "SELECT id, spec_json, coalesce(cluster, 'unnamed') FROM sweeps WHERE name = ?1");
    find.bind(1, name);
    if (!find.step()) return std::nullopt;
    if (find.text(1) == spec && find.text(2) == cluster) return find.int64(0);
    const std::string why = find.text(2) != cluster
                                ? "cluster '" + find.text(2) + "', not '" + cluster + "'"
                                : "another specification";
    const std::string original = name;
    if (!options_.rename) {
      throw UsageError("cannot merge '" + counts_.from + "': its sweep '" + name + "' (cluster '" +
                       cluster + "') clashes with the stored sweep '" + name + "' (" + why +
                       "); nothing was written: --rename stores it as '" + name + "@" + cluster +
                       "'");
    }
    name += "@" + cluster;
    find.reset();
    find.bind(1, name);
    if (find.step()) {
      if (find.text(1) == spec && find.text(2) == cluster) return find.int64(0);
      throw UsageError("cannot merge '" + counts_.from + "': its sweep '" + original +
                       "' clashes with the stored sweep '" + original + "', and its new name '" +
                       name + "' with the stored sweep of that name; nothing was written");
    }
    counts_.renamed.push_back(original + " -> " + name);
    return std::nullopt;
  }

  void merge_sweep(const Statement& s) {
    std::string name = s.text(1);
    const std::string spec = s.text(2);
    const std::string cluster = s.is_null(6) ? default_cluster_ : s.text(6);
    const auto joined = target_sweep(name, spec, cluster);
    std::int64_t sweep_id = 0;
    if (joined) {
      sweep_id = *joined;
      ++counts_.sweeps_joined;
    } else {
      auto insert = into_.prepare(
          "INSERT INTO sweeps(name, spec_json, scheduler, directory, created_at, cluster, "
          "base_name, origin_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
      insert.bind(1, name).bind(2, spec).bind(3, s.text(3)).bind(4, s.text(4));
      insert.bind(5, s.text(5)).bind(6, cluster).bind(7, s.text(7));
      insert.bind(8, row_origin(s, 8, cluster)).run();
      sweep_id = into_.last_insert_rowid();
      ++counts_.sweeps_new;
    }
    sweep_cluster_ = cluster;
    points_.clear();
    runs_.clear();
    known_runs_.clear();
    attempts_.clear();
    merge_points(s.int64(0), sweep_id);
    const bool reorder = merge_runs(s.int64(0), sweep_id);
    merge_attempts(s.int64(0));
    merge_results(s.int64(0), sweep_id);
    if (reorder) number_runs_by_start(sweep_id);
  }

  void merge_points(std::int64_t from_sweep, std::int64_t sweep_id) {
    auto points = from_.prepare(
        "SELECT id, point_key, worker, partition, params_json, script_path, state, nodes, "
        "procs_per_node, origin_id FROM points WHERE sweep_id = ?1 ORDER BY id");
    points.bind(1, from_sweep);
    auto find = into_.prepare("SELECT id FROM points WHERE sweep_id = ?1 AND point_key = ?2");
    auto insert = into_.prepare(
        "INSERT INTO points(sweep_id, point_key, worker, partition, params_json, script_path, "
        "state, nodes, procs_per_node, origin_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
        "?10)");
    while (points.step()) {
      find.reset();
      find.bind(1, sweep_id).bind(2, points.text(1));
      if (find.step()) {
        points_[points.int64(0)] = find.int64(0);
        continue;
      }
      insert.reset();
      insert.bind(1, sweep_id);
      for (int c = 1; c <= 8; ++c) copy_value(points, c, insert, c + 1);
      insert.bind(10, row_origin(points, 9, sweep_cluster_)).run();
      points_[points.int64(0)] = into_.last_insert_rowid();
      ++counts_.points;
    }
  }

  /// Maps FROM's runs of a sweep to the store's: the run of the same start, else a new one
  /// after the last. True when a new run started before one the store held (runs are then
  /// numbered again by their start).
  bool merge_runs(std::int64_t from_sweep, std::int64_t sweep_id) {
    auto runs = from_.prepare(
        "SELECT run_no, started_at, envelope, origin_id FROM runs WHERE sweep_id = ?1 "
        "ORDER BY run_no");
    runs.bind(1, from_sweep);
    auto find = into_.prepare("SELECT run_no FROM runs WHERE sweep_id = ?1 AND started_at = ?2");
    auto last = into_.prepare(
        "SELECT coalesce(max(run_no), 0), max(started_at) FROM runs WHERE sweep_id = ?1");
    auto insert = into_.prepare(
        "INSERT INTO runs(sweep_id, run_no, started_at, envelope, origin_id) "
        "VALUES (?1, ?2, ?3, ?4, ?5)");
    bool reorder = false;
    while (runs.step()) {
      find.reset();
      find.bind(1, sweep_id).bind(2, runs.text(1));
      if (find.step()) {
        runs_[runs.int64(0)] = find.int64(0);
        known_runs_.insert(find.int64(0));
        ++counts_.runs_known;
        continue;
      }
      last.reset();
      last.bind(1, sweep_id);
      last.step();
      const std::int64_t run_no = last.int64(0) + 1;
      if (!last.is_null(1) && runs.text(1) < last.text(1)) reorder = true;
      insert.reset();
      insert.bind(1, sweep_id).bind(2, run_no).bind(3, runs.text(1)).bind(4, runs.text(2));
      insert.bind(5, row_origin(runs, 3, sweep_cluster_)).run();
      runs_[runs.int64(0)] = run_no;
      ++counts_.runs;
    }
    return reorder;
  }

  void merge_attempts(std::int64_t from_sweep) {
    auto attempts = from_.prepare(
        "SELECT a.id, a.point_id, a.run_no, a.job_id, a.native_state, a.state, a.submitted_at, "
        "a.started_at, a.ended_at, a.exit_status, a.signal, a.job_dir, a.stdout_path, "
        "a.stderr_path, a.result_path, a.stderr_tail, a.origin_id FROM attempts a "
        "JOIN points p ON p.id = a.point_id WHERE p.sweep_id = ?1 ORDER BY a.point_id, "
        "a.attempt_no");
    attempts.bind(1, from_sweep);
    // An attempt of a run the store held is the same attempt when it ran in the same job
    // directory (one a attempt on the machine it ran on).
    auto find = into_.prepare(
        "SELECT id FROM attempts WHERE point_id = ?1 AND run_no = ?2 AND job_dir = ?3");
    auto next =
        into_.prepare("SELECT coalesce(max(attempt_no), 0) + 1 FROM attempts WHERE point_id = ?1");
    auto insert = into_.prepare(
        "INSERT INTO attempts(point_id, attempt_no, run_no, job_id, native_state, state, "
        "submitted_at, started_at, ended_at, exit_status, signal, job_dir, stdout_path, "
        "stderr_path, result_path, stderr_tail, origin_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
        "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    while (attempts.step()) {
      const std::int64_t point = points_.at(attempts.int64(1));
      const std::int64_t run = runs_.count(attempts.int64(2)) ? runs_.at(attempts.int64(2)) : 1;
      if (known_runs_.count(run)) {
        find.reset();
        find.bind(1, point).bind(2, run).bind(3, attempts.text(11));
        if (find.step()) {
          attempts_[attempts.int64(0)] = find.int64(0);
          continue;
        }
      }
      next.reset();
      next.bind(1, point);
      next.step();
      insert.reset();
      insert.bind(1, point).bind(2, next.int64(0)).bind(3, run);
      for (int c = 3; c <= 15; ++c) copy_value(attempts, c, insert, c + 1);
      insert.bind(17, row_origin(attempts, 16, sweep_cluster_)).run();
      attempts_[attempts.int64(0)] = into_.last_insert_rowid();
      ++counts_.attempts;
    }
  }

  /// The results of FROM's sweep (nothing: the results without a point) and their metrics.
  void merge_results(std::optional<std::int64_t> from_sweep, std::optional<std::int64_t> sweep);

  /// Numbers the runs of a sweep 1, 2, ... in the order they started (their attempts' and
  /// results' too); the sweep's kept headline answers are made again.
  void number_runs_by_start(std::int64_t sweep_id);

  Database& into_;
  Database& from_;
  const MergeOptions& options_;
  MergeCounts counts_;
  std::string from_path_;
  std::string default_cluster_;
  std::string sweep_cluster_;
  std::map<std::int64_t, std::pair<std::string, std::string>> source_origins_;
  std::map<std::int64_t, std::int64_t> points_;    ///< FROM's point id -> the store's
  std::map<std::int64_t, std::int64_t> runs_;      ///< FROM's run_no -> the store's
  std::set<std::int64_t> known_runs_;              ///< the store's runs FROM's matched
  std::map<std::int64_t, std::int64_t> attempts_;  ///< FROM's attempt id -> the store's
};

/// The columns of a result copied as they are (after point_id, attempt_id and run_no).
constexpr const char* kResultColumns =
    "document_hash, schema_version, worker, worker_version, nprocs, valid, started_at, "
    "ended_at, ingested_at, nodes, procs_per_node, node_list, allocated_nodes, placement, "
    "ingest_reason, head, packed";
constexpr int kResultColumnCount = 17;

void SourceMerge::merge_results(std::optional<std::int64_t> from_sweep,
                                std::optional<std::int64_t> sweep) {
  // A sweep's results through its points (the indexes points_by_sweep, results_by_point);
  // the results without a point by themselves.
  auto results = from_.prepare(
      std::string("SELECT r.id, r.point_id, r.attempt_id, r.run_no, r.origin_id, ") +
      "r.document_hash, r.schema_version, r.worker, r.worker_version, r.nprocs, r.valid, "
      "r.started_at, r.ended_at, r.ingested_at, r.nodes, r.procs_per_node, r.node_list, "
      "r.allocated_nodes, r.placement, r.ingest_reason, r.head, r.packed FROM " +
      (from_sweep ? "points p CROSS JOIN results r WHERE p.sweep_id = ?1 AND r.point_id = p.id"
                  : "results r WHERE r.point_id IS NULL AND ?1 IS NULL") +
      " ORDER BY r.id");
  results.bind(1, from_sweep);
  auto known = into_.prepare("SELECT 1 FROM results WHERE document_hash = ?1");
  auto insert = into_.prepare(std::string("INSERT INTO results(point_id, attempt_id, run_no, "
                                          "origin_id, ") +
                              kResultColumns +
                              ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                              "?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
  auto metrics = from_.prepare(
      "SELECT name, value, unit, samples, labels FROM metrics WHERE result_id = ?1 ORDER BY id");
  auto add_metric = into_.prepare(
      "INSERT INTO metrics(result_id, name, value, unit, samples, labels) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  const std::string cluster = sweep ? sweep_cluster_ : default_cluster_;
  while (results.step()) {
    const std::string hash = results.text(5);
    known.reset();
    known.bind(1, hash);
    if (known.step()) {
      ++counts_.results_known;
      continue;
    }
    // The document is read back and held to its SHA-256 before it is stored here: a damaged
    // one is not carried into another store.
    std::string document;
    try {
      document = unpack_document(results.blob(21));
    } catch (const StoreError& e) {
      throw StoreError("cannot merge '" + counts_.from + "': its result " +
                       std::to_string(results.int64(0)) + ": " + e.what() +
                       "; nothing was written ('pbench store verify --db " + counts_.from +
                       "' says what)");
    }
    if (sha256_hex(document) != hash) {
      throw StoreError("cannot merge '" + counts_.from + "': its result " +
                       std::to_string(results.int64(0)) +
                       " holds a document whose SHA-256 is "
                       "not its document_hash " +
                       hash +
                       "; nothing was written ('pbench store "
                       "verify --db " +
                       counts_.from + "' says what)");
    }
    insert.reset();
    if (results.is_null(1)) {
      insert.bind(1, std::nullopt);
    } else {
      insert.bind(1, points_.at(results.int64(1)));
    }
    const auto attempt = results.is_null(2) ? attempts_.end() : attempts_.find(results.int64(2));
    if (attempt == attempts_.end()) {
      insert.bind(2, std::nullopt);
    } else {
      insert.bind(2, attempt->second);
    }
    const auto run = runs_.find(results.int64(3));
    insert.bind(3, run == runs_.end() ? results.int64(3) : run->second);
    insert.bind(4, row_origin(results, 4, cluster));
    for (int c = 0; c < kResultColumnCount; ++c) copy_value(results, 5 + c, insert, 5 + c);
    insert.run();
    const std::int64_t id = into_.last_insert_rowid();
    ++counts_.results;
    metrics.reset();
    metrics.bind(1, results.int64(0));
    while (metrics.step()) {
      add_metric.reset();
      add_metric.bind(1, id);
      for (int c = 0; c < 5; ++c) copy_value(metrics, c, add_metric, c + 2);
      add_metric.run();
      ++counts_.metrics;
    }
  }
}

void SourceMerge::number_runs_by_start(std::int64_t sweep_id) {
  std::vector<std::int64_t> order;
  {
    auto s =
        into_.prepare("SELECT run_no FROM runs WHERE sweep_id = ?1 ORDER BY started_at, run_no");
    s.bind(1, sweep_id);
    while (s.step()) order.push_back(s.int64(0));
  }
  // Two steps, so that no number is held twice on the way: every run moved past the last
  // first, then to its place.
  constexpr std::int64_t kAside = 1000000000;
  const char* tables[][2] = {
      {"runs", "sweep_id = ?1"},
      {"attempts", "point_id IN (SELECT id FROM points WHERE sweep_id = ?1)"},
      {"results", "point_id IN (SELECT id FROM points WHERE sweep_id = ?1)"}};
  for (const auto& [table, where] : tables) {
    into_.prepare(std::string("UPDATE ") + table + " SET run_no = run_no + ?2 WHERE " + where)
        .bind(1, sweep_id)
        .bind(2, kAside)
        .run();
    auto move = into_.prepare(std::string("UPDATE ") + table +
                              " SET run_no = ?3 WHERE run_no = ?2 AND " + where);
    for (std::size_t i = 0; i < order.size(); ++i) {
      move.reset();
      move.bind(1, sweep_id).bind(2, order[i] + kAside);
      move.bind(3, static_cast<std::int64_t>(i + 1)).run();
    }
  }
  into_.prepare("DELETE FROM headline_answered WHERE sweep_id = ?1").bind(1, sweep_id).run();
}

}  // namespace

std::vector<MergeCounts> StoreMerge::merge(const std::vector<std::string>& from) {
  if (from.empty()) throw UsageError("store merge: name at least one store file to merge");
  Database& into = into_.db();
  std::vector<Database> sources;
  for (const auto& path : from) sources.push_back(open_source(path, into.path()));
  std::vector<MergeCounts> out;
  {
    Transaction txn(into);
    for (std::size_t i = 0; i < from.size(); ++i) {
      out.push_back(SourceMerge(into, sources[i], from[i], options_).run());
    }
    txn.commit();
  }
  into_.answer_headlines();
  return out;
}

}  // namespace pbench::store
