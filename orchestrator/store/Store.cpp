#include "store/Store.hpp"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "common/EnumName.hpp"
#include "common/MetricCatalogue.hpp"
#include "pbench_schema.hpp"
#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
#include "store/PointLabel.hpp"
#include "store/ResultLayout.hpp"
#include "store/StoreMigration.hpp"
#include "store/StoreViews.hpp"
#include "store/WritableStore.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::store {
namespace {

std::string catalogue_text();
void insert_catalogue(Database& db, const std::string& table);

/// The SHA-256 of this pbench's catalogue text, computed once per process (a store's open asks
/// for it up to three times).
const std::string& catalogue_fingerprint() {
  static const std::string fingerprint = sha256_hex(catalogue_text());
  return fingerprint;
}

/// Whether the store's metric catalogue is this pbench's (its fingerprint in meta).
bool catalogue_current(Database& db) {
  auto held = db.prepare("SELECT value FROM meta WHERE key = 'metric_catalogue'");
  return held.step() && held.text(0) == catalogue_fingerprint();
}

/// The free space of the file system holding `path` when it is full (less than a page free for
/// an unprivileged writer): "0 bytes free in /srv"; nothing when it is not, or cannot be told.
std::optional<std::string> full_file_system(const std::string& path) {
  const auto parent = std::filesystem::absolute(path).parent_path();
  struct statvfs fs {};
  if (::statvfs(parent.c_str(), &fs) != 0) return std::nullopt;
  const auto free_bytes = static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
  if (free_bytes >= 4096) return std::nullopt;
  return std::to_string(free_bytes) + " bytes free in " + parent.string();
}

constexpr const char* kApplication = "pbench";

const char* kAttemptColumns =
    "id, point_id, attempt_no, job_id, native_state, state, submitted_at, started_at, ended_at, "
    "exit_status, signal, job_dir, stdout_path, stderr_path, result_path, stderr_tail, run_no";

AttemptRecord read_attempt(Statement& s) {
  AttemptRecord a;
  a.id = s.int64(0);
  a.point_id = s.int64(1);
  a.attempt_no = static_cast<int>(s.int64(2));
  a.job_id = s.optional_text(3);
  a.native_state = s.optional_text(4);
  a.state = point_state_from(s.text(5));
  a.submitted_at = s.optional_text(6);
  a.started_at = s.optional_text(7);
  a.ended_at = s.optional_text(8);
  a.exit_status = s.optional_int64(9);
  a.signal = s.optional_text(10);
  a.job_dir = s.text(11);
  a.stdout_path = s.text(12);
  a.stderr_path = s.text(13);
  a.result_path = s.text(14);
  a.stderr_tail = s.optional_text(15);
  a.run_no = static_cast<int>(s.int64(16));
  return a;
}

bool file_is_empty_or_missing(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;
  return st.st_size == 0;
}

constexpr EnumName<PointState> kPointStateNames[] = {
    {PointState::planned, "planned"}, {PointState::queued, "queued"},
    {PointState::running, "running"}, {PointState::done, "done"},
    {PointState::failed, "failed"},   {PointState::cancelled, "cancelled"},
    {PointState::timeout, "timeout"}};

}  // namespace

std::string to_string(PointState state) {
  return name_of(kPointStateNames, state, "planned");
}

PointState point_state_from(const std::string& name) {
  if (const auto state = value_named(kPointStateNames, name)) return *state;
  throw StoreError("unknown point state '" + name + "' in the store");
}

bool is_terminal(PointState state) {
  return state == PointState::done || state == PointState::failed ||
         state == PointState::cancelled || state == PointState::timeout;
}

std::string describe_point(const PointRecord& point) {
  return point_label(point.worker, point.partition, point.params_json, point.key);
}

Store Store::open(const std::string& path, Access access) {
  const bool fresh = file_is_empty_or_missing(path);
  if (fresh && access != Access::create) {
    throw StoreError("no pbench store at '" + path + "' (create one with 'pbench sweep')");
  }
  if (access != Access::read_only) require_writable_store(path);
  Database::Mode mode = access == Access::read_only ? Database::Mode::read_only
                        : access == Access::create  ? Database::Mode::read_write_create
                                                    : Database::Mode::read_write;
  if (access == Access::read_only) {
    // An older store is migrated once, through a connection that may write, before it is read:
    // the queries need the runs of version 3; and so are views older than this pbench's.
    int version = 0;
    bool old_views = false;
    {
      Database probe(path, Database::Mode::read_only);
      try {
        auto v = probe.prepare("PRAGMA user_version");
        if (v.step()) version = static_cast<int>(v.int64(0));
        old_views = version == kStoreSchemaVersion &&
                    (!views_current(probe) || !catalogue_current(probe));
      } catch (const StoreError&) {
        version = 0;
      }
    }
    const bool old_version = version > 0 && version < kStoreSchemaVersion;
    // A user who may not write it reads an older version's views through this pbench's own
    // (made for the connection, initialise_or_check); an older version it cannot read at all.
    if (old_version && !store_writable(path)) {
      throw StoreError("store '" + path + "' has schema version " + std::to_string(version) +
                       " and this pbench reads version " +
                       std::to_string(kStoreSchemaVersion) +
                       ": it migrates a store the first time it opens it for writing, which this "
                       "user may not (read-only directory or file); its owner migrates it by "
                       "opening it once with this pbench (e.g. 'pbench --db " +
                       path + " list')");
    }
    if (old_version || (old_views && store_writable(path))) {
      Store writer(Database(path, Database::Mode::read_write));
      writer.initialise_or_check();
    }
  }
  Store store(Database(path, mode));
  store.initialise_or_check();
  if (access != Access::read_only) {
    store.db_.exec("PRAGMA journal_mode=WAL");
    // In WAL mode NORMAL cannot corrupt the store; a power cut may roll back the last commits,
    // which `pbench collect` (idempotent: a document is stored once) brings back. It saves an
    // fsync per ingested document (bench/README.md: 1,800 -> 3,000 documents/s).
    store.db_.exec("PRAGMA synchronous=NORMAL");
  }
  return store;
}

Store Store::open_in_memory() {
  Store store(Database(":memory:", Database::Mode::read_write_create));
  store.initialise_or_check();
  return store;
}

void Store::initialise_or_check() {
  const std::string& path = db_.path();
  int user_version = 0;
  bool has_tables = false;
  try {
    auto version = db_.prepare("PRAGMA user_version");
    if (version.step()) user_version = static_cast<int>(version.int64(0));
    auto tables = db_.prepare("SELECT count(*) FROM sqlite_master");
    if (tables.step()) has_tables = tables.int64(0) > 0;
  } catch (const StoreDamagedError&) {
    throw;  // named with the way to recover
  } catch (const StoreError& e) {
    // Only a file that is not a database is "not an SQLite database"; any other failure
    // (permissions, a locked or unreadable file) is passed on with SQLite's own words.
    if ((sqlite3_extended_errcode(db_.handle()) & 0xff) == SQLITE_NOTADB) {
      throw StoreError("'" + path + "' is not a pbench store (not an SQLite database)");
    }
    if ((sqlite3_extended_errcode(db_.handle()) & 0xff) == SQLITE_READONLY) throw;  // said so
    // SQLite says "disk I/O error" when it cannot make its journal beside a store whose file
    // system is full: say what the user can act on.
    if (const auto full = full_file_system(path)) {
      throw StoreError("cannot read store '" + path + "': its file system is full (" + *full +
                       "): free space there, or choose another store with --db");
    }
    throw StoreError("cannot read store '" + path + "': " + e.what());
  }
  if (!has_tables && user_version == 0) {
    Transaction txn(db_);
    db_.exec(std::string(schema::store_sql()));
    install_views(db_);
    auto meta = db_.prepare("INSERT INTO meta(key, value) VALUES ('application', ?1)");
    meta.bind(1, kApplication).run();
    db_.exec("PRAGMA user_version = " + std::to_string(kStoreSchemaVersion));
    txn.commit();
    // A new file is checked (a few pages) and its identity recorded now, so that the next
    // command's first check writes nothing (store/Integrity.hpp).
    require_intact_for_writing(db_, true);
    db_.exec("PRAGMA foreign_keys = ON");
    refresh_catalogue();
    choose_run(RunChoice::latest());
    return;
  }
  std::string application;
  try {
    auto meta = db_.prepare("SELECT value FROM meta WHERE key = 'application'");
    if (meta.step()) application = meta.text(0);
  } catch (const StoreError&) {
    application.clear();
  }
  if (application != kApplication) {
    throw StoreError("'" + path + "' is an SQLite database but not a pbench store");
  }
  const bool read_only = sqlite3_db_readonly(db_.handle(), "main") == 1;
  // Nothing is written into a damaged store (a migration, the catalogue, a collect): SQLite's
  // quick check first, bounded once this file was checked whole (store/Integrity.hpp).
  if (!read_only) require_intact_for_writing(db_, user_version <= kStoreSchemaVersion);
  const bool migrating = !read_only && user_version >= 1 && user_version < kStoreSchemaVersion;
  if (migrating) {
    StoreMigration(db_).run(user_version);
    user_version = kStoreSchemaVersion;
  }
  if (user_version != kStoreSchemaVersion) {
    throw StoreError("'" + path + "' has store schema version " + std::to_string(user_version) +
                     "; this pbench reads version " + std::to_string(kStoreSchemaVersion));
  }
  db_.exec("PRAGMA foreign_keys = ON");
  if (read_only && (!views_current(db_) || !catalogue_current(db_))) read_through_own_views();
  if (!read_only) compact_if_pending(db_);
  // A migration, views made again (store/StoreViews.hpp) or a new catalogue leave every run
  // unanswered: answer them now, once, rather than at every query (an open that changes none
  // writes nothing).
  const bool new_views = !read_only && refresh_views(db_);
  if (!read_only && (refresh_catalogue() || migrating || new_views)) answer_headlines();
  choose_run(RunChoice::latest());
}








int Store::answer_headlines(std::optional<std::int64_t> sweep_id) {
  std::vector<std::pair<std::int64_t, std::int64_t>> runs;
  {
    auto open = db_.prepare(
        "SELECT sr.sweep_id, sr.run FROM sweep_runs sr "
        "WHERE (?1 IS NULL OR sr.sweep_id = ?1) AND NOT EXISTS (SELECT 1 FROM headline_answered a "
        "WHERE a.sweep_id = sr.sweep_id AND a.run = sr.run) ORDER BY sr.sweep_id, sr.run");
    open.bind(1, sweep_id);
    while (open.step()) runs.emplace_back(open.int64(0), open.int64(1));
  }
  if (runs.empty()) return 0;
  Transaction txn(db_);
  auto clear = db_.prepare("DELETE FROM headline_answers WHERE sweep_id = ?1 AND run = ?2");
  auto answer =
      db_.prepare(std::string("INSERT INTO headline_answers (sweep_id, run, ") +
                  kHeadlineAnswerColumns + ") SELECT sweep_id, run, " + kHeadlineAnswerColumns +
                  " FROM headlines WHERE sweep_id = ?1 AND run = ?2");
  auto mark = db_.prepare(
      "INSERT OR REPLACE INTO headline_answered (sweep_id, run, answered_at) "
      "VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
  for (const auto& [sweep, run] : runs) {
    for (auto* s : {&clear, &answer, &mark}) {
      s->reset();
      s->bind(1, sweep).bind(2, run).run();
    }
  }
  txn.commit();
  return static_cast<int>(runs.size());
}

bool Store::headline_answered(std::int64_t sweep_id, int run) {
  auto s = db_.prepare("SELECT 1 FROM headline_answered WHERE sweep_id = ?1 AND run = ?2");
  s.bind(1, sweep_id).bind(2, static_cast<std::int64_t>(run));
  return s.step();
}

namespace {
/// The catalogue as the store's table holds it, one text (to see whether it changed).
std::string catalogue_text() {
  std::string out;
  for (const auto& m : metrics::catalogue()) {
    for (const std::string_view field :
         {m.worker, m.name, m.unit, metrics::to_string(m.better), metrics::to_string(m.headline),
          m.figure, m.label_keys, m.meaning, m.companion_of}) {
      out.append(field).push_back('\t');
    }
    out += metrics::bound_text(m);
    out.push_back('\n');
  }
  return out;
}

void insert_catalogue(Database& db, const std::string& table) {
  auto insert = db.prepare(
      "INSERT INTO " + table + "(worker, name, unit, better, headline, headline_rule, figure, "
      "figure_order, label_keys, meaning, companion_of, bound) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
      "?7, ?8, ?9, ?10, ?11, ?12)");
  const auto all = metrics::catalogue();
  for (const auto& m : all) {
    const bool headline = m.headline != metrics::Headline::no &&
                          m.headline != metrics::Headline::legacy &&
                          m.headline != metrics::Headline::per_label;
    insert.reset();
    insert.bind(1, m.worker).bind(2, m.name).bind(3, m.unit).bind(4, metrics::to_string(m.better));
    insert.bind(5, headline ? "yes" : "no").bind(6, metrics::to_string(m.headline));
    if (m.figure.empty()) {
      insert.bind(7, std::nullopt).bind(8, std::nullopt);
    } else {
      // A legacy name takes the place of the figure it stands for.
      const auto order = metrics::find_figure(m.figure) - all.data() + 1;
      insert.bind(7, m.figure).bind(8, static_cast<std::int64_t>(order));
    }
    insert.bind(9, m.label_keys).bind(10, m.meaning);
    if (m.companion_of.empty()) {
      insert.bind(11, std::nullopt);
    } else {
      insert.bind(11, m.companion_of);
    }
    insert.bind(12, metrics::bound_text(m));
    insert.run();
  }
}

}  // namespace

void Store::read_through_own_views() {
  install_temporary_views(db_);
  insert_catalogue(db_, "temp.metric_catalogue");
  std::cerr << "pbench: note: store '" << db_.path()
            << "' keeps the views of another pbench version; this user may not write it, so "
               "this command reads it through this pbench's own (its owner's next command that "
               "writes to it makes them in the store)\n";
}

bool Store::refresh_catalogue() {
  if (catalogue_current(db_)) return false;
  const std::string& fingerprint = catalogue_fingerprint();
  Transaction txn(db_);
  db_.exec("DELETE FROM metric_catalogue");
  insert_catalogue(db_, "main.metric_catalogue");
  db_.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('metric_catalogue', ?1)")
      .bind(1, fingerprint)
      .run();
  txn.commit();
  return true;
}





void bind_layout(Statement& s, const ResultLayout& layout, int first) {
  auto optional = [](const std::optional<int>& v) -> std::optional<std::int64_t> {
    if (v) return *v;
    return std::nullopt;
  };
  auto text = [](const std::string& v) -> std::optional<std::string> {
    if (v.empty()) return std::nullopt;
    return v;
  };
  s.reset();
  s.bind(first, optional(layout.nodes)).bind(first + 1, optional(layout.procs_per_node));
  s.bind(first + 2, text(layout.node_list)).bind(first + 3, text(layout.placement));
}

void Store::set_result_allocation(std::int64_t result_id, const std::string& allocated_nodes) {
  db_.prepare("UPDATE results SET allocated_nodes = ?1 WHERE id = ?2")
      .bind(1, allocated_nodes)
      .bind(2, result_id)
      .run();
}

void Store::choose_run(const RunChoice& choice) {
  // A temporary view (this connection only, never written to the file): the run of each sweep
  // that kChosenResult reads.
  db_.exec("DROP VIEW IF EXISTS temp.chosen_run");
  if (choice.run_no) {
    db_.exec("CREATE TEMP VIEW chosen_run AS SELECT id AS sweep_id, " +
             std::to_string(*choice.run_no) + " AS run_no FROM main.sweeps");
  } else {
    // The latest run as the store's view sweep_runs defines it.
    db_.exec(
        "CREATE TEMP VIEW chosen_run AS SELECT sweep_id, run AS run_no FROM sweep_runs "
        "WHERE latest");
  }
}

std::vector<RunRecord> Store::runs(std::int64_t sweep_id) {
  auto s = db_.prepare(
      "SELECT id, sweep_id, run_no, started_at, envelope FROM runs WHERE sweep_id = ?1 "
      "ORDER BY run_no");
  s.bind(1, sweep_id);
  std::vector<RunRecord> out;
  while (s.step()) {
    out.push_back({s.int64(0), s.int64(1), static_cast<int>(s.int64(2)), s.text(3), s.text(4)});
  }
  return out;
}

RunRecord Store::start_run(std::int64_t sweep_id, const std::string& started_at,
                           const std::string& envelope_json) {
  Transaction txn(db_);
  auto next = db_.prepare("SELECT coalesce(max(run_no), 0) + 1 FROM runs WHERE sweep_id = ?1");
  next.bind(1, sweep_id);
  next.step();
  RunRecord run{0, sweep_id, static_cast<int>(next.int64(0)), started_at, envelope_json};
  auto s = db_.prepare(
      "INSERT INTO runs(sweep_id, run_no, started_at, envelope) VALUES (?1, ?2, ?3, ?4)");
  s.bind(1, sweep_id).bind(2, run.run_no).bind(3, started_at).bind(4, envelope_json).run();
  run.id = db_.last_insert_rowid();
  db_.prepare("UPDATE points SET state = 'planned' WHERE sweep_id = ?1").bind(1, sweep_id).run();
  txn.commit();
  return run;
}

void Store::set_run_envelope(std::int64_t run_id, const std::string& envelope_json) {
  db_.prepare("UPDATE runs SET envelope = ?1 WHERE id = ?2")
      .bind(1, envelope_json)
      .bind(2, run_id)
      .run();
}

std::optional<SweepRecord> Store::find_sweep(const std::string& name) {
  auto s = db_.prepare(
      "SELECT id, name, spec_json, scheduler, directory, created_at FROM sweeps WHERE name = ?1");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return SweepRecord{s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)};
}

std::vector<SweepRecord> Store::sweeps() {
  auto s = db_.prepare(
      "SELECT id, name, spec_json, scheduler, directory, created_at FROM sweeps ORDER BY id");
  std::vector<SweepRecord> out;
  while (s.step())
    out.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)});
  return out;
}

SweepRecord Store::insert_sweep(SweepRecord sweep, std::vector<PointRecord>& points) {
  Transaction txn(db_);
  sweep = insert_sweep_rows(std::move(sweep), points);
  txn.commit();
  return sweep;
}

SweepRecord Store::replace_sweep(SweepRecord sweep, std::vector<PointRecord>& points) {
  Transaction txn(db_);
  db_.prepare("DELETE FROM sweeps WHERE name = ?1").bind(1, sweep.name).run();
  sweep = insert_sweep_rows(std::move(sweep), points);
  txn.commit();
  return sweep;
}

SweepRecord Store::insert_sweep_rows(SweepRecord sweep, std::vector<PointRecord>& points) {
  auto s = db_.prepare(
      "INSERT INTO sweeps(name, spec_json, scheduler, directory, created_at, cluster, base_name) "
      "VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN json_valid(?2) THEN json_extract(?2, "
      "'$.machine.cluster') END, ?1)");
  s.bind(1, sweep.name).bind(2, sweep.spec_json).bind(3, sweep.scheduler).bind(4, sweep.directory);
  s.bind(5, sweep.created_at).run();
  sweep.id = db_.last_insert_rowid();
  auto run = db_.prepare(
      "INSERT INTO runs(sweep_id, run_no, started_at, envelope) VALUES (?1, 1, ?2, ?3)");
  run.bind(1, sweep.id).bind(2, sweep.created_at).bind(3, std::string("{}")).run();
  auto p = db_.prepare(
      "INSERT INTO points(sweep_id, point_key, worker, partition, params_json, script_path, "
      "state, nodes, procs_per_node) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  for (auto& point : points) {
    p.reset();
    p.bind(1, sweep.id).bind(2, point.key).bind(3, point.worker).bind(4, point.partition);
    p.bind(5, point.params_json).bind(6, point.script_path).bind(7, to_string(point.state));
    const auto shape = asked_shape(nlohmann::json::parse(point.params_json, nullptr, false));
    std::optional<std::int64_t> nodes, per_node;
    if (shape.exact()) {
      nodes = shape.nodes;
      per_node = shape.procs_per_node;
    }
    p.bind(8, nodes).bind(9, per_node).run();
    point.id = db_.last_insert_rowid();
    point.sweep_id = sweep.id;
  }
  return sweep;
}

void Store::delete_sweep(std::int64_t sweep_id) {
  Transaction txn(db_);
  db_.prepare("DELETE FROM sweeps WHERE id = ?1").bind(1, sweep_id).run();
  txn.commit();
}

std::vector<PointRecord> Store::points(std::int64_t sweep_id) {
  auto s = db_.prepare(
      "SELECT id, sweep_id, point_key, worker, partition, params_json, script_path, state "
      "FROM points WHERE sweep_id = ?1 ORDER BY id");
  s.bind(1, sweep_id);
  std::vector<PointRecord> out;
  while (s.step()) {
    out.push_back({s.int64(0), s.int64(1), s.text(2), s.text(3), static_cast<int>(s.int64(4)),
                   s.text(5), s.text(6), point_state_from(s.text(7))});
  }
  return out;
}

void Store::set_point_state(std::int64_t point_id, PointState state) {
  db_.prepare("UPDATE points SET state = ?1 WHERE id = ?2")
      .bind(1, to_string(state))
      .bind(2, point_id)
      .run();
}

AttemptRecord Store::add_attempt(AttemptRecord a) {
  Transaction txn(db_);
  auto next =
      db_.prepare("SELECT coalesce(max(attempt_no), 0) + 1 FROM attempts WHERE point_id = ?1");
  next.bind(1, a.point_id);
  next.step();
  a.attempt_no = static_cast<int>(next.int64(0));
  // The attempt belongs to the sweep's latest run.
  auto run = db_.prepare(
      "SELECT coalesce(max(r.run_no), 1) FROM runs r JOIN points p ON p.sweep_id = r.sweep_id "
      "WHERE p.id = ?1");
  run.bind(1, a.point_id);
  run.step();
  a.run_no = static_cast<int>(run.int64(0));
  a.id = insert_attempt_row(a);
  txn.commit();
  update_attempt(a);
  return a;
}

AttemptRecord Store::restore_attempt(AttemptRecord a) {
  a.id = insert_attempt_row(a);
  update_attempt(a);
  return a;
}

std::int64_t Store::insert_attempt_row(const AttemptRecord& a) {
  auto s = db_.prepare(
      "INSERT INTO attempts(point_id, attempt_no, state, job_dir, stdout_path, stderr_path, "
      "result_path, run_no) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  s.bind(1, a.point_id).bind(2, a.attempt_no).bind(3, to_string(a.state)).bind(4, a.job_dir);
  s.bind(5, a.stdout_path).bind(6, a.stderr_path).bind(7, a.result_path).bind(8, a.run_no).run();
  return db_.last_insert_rowid();
}

void Store::update_attempt(const AttemptRecord& a) {
  auto s = db_.prepare(
      "UPDATE attempts SET job_id = ?1, native_state = ?2, state = ?3, submitted_at = ?4, "
      "started_at = ?5, ended_at = ?6, exit_status = ?7, signal = ?8, job_dir = ?9, "
      "stdout_path = ?10, stderr_path = ?11, result_path = ?12, stderr_tail = ?13 WHERE id = ?14");
  s.bind(1, a.job_id).bind(2, a.native_state).bind(3, to_string(a.state)).bind(4, a.submitted_at);
  s.bind(5, a.started_at).bind(6, a.ended_at).bind(7, a.exit_status).bind(8, a.signal);
  s.bind(9, a.job_dir).bind(10, a.stdout_path).bind(11, a.stderr_path).bind(12, a.result_path);
  s.bind(13, a.stderr_tail).bind(14, a.id).run();
}

std::optional<AttemptRecord> Store::latest_attempt(std::int64_t point_id) {
  auto s = db_.prepare(std::string("SELECT ") + kAttemptColumns +
                       " FROM attempts WHERE point_id = ?1 ORDER BY attempt_no DESC LIMIT 1");
  s.bind(1, point_id);
  if (!s.step()) return std::nullopt;
  return read_attempt(s);
}

std::vector<AttemptRecord> Store::attempts(std::int64_t point_id) {
  auto s = db_.prepare(std::string("SELECT ") + kAttemptColumns +
                       " FROM attempts WHERE point_id = ?1 ORDER BY attempt_no");
  s.bind(1, point_id);
  std::vector<AttemptRecord> out;
  while (s.step()) out.push_back(read_attempt(s));
  return out;
}

std::int64_t Store::result_count(std::int64_t sweep_id) {
  auto s = db_.prepare(
      "SELECT count(*) FROM results r JOIN points p ON p.id = r.point_id WHERE p.sweep_id = ?1");
  s.bind(1, sweep_id);
  s.step();
  return s.int64(0);
}

std::optional<std::string> Store::partial_reason(std::int64_t result_id) {
  auto s = db_.prepare(
      "SELECT json_extract(head, '$.validity.partial.reason') FROM results WHERE id = ?1");
  s.bind(1, result_id);
  if (!s.step()) return std::nullopt;
  return s.optional_text(0);
}

std::string Store::document(std::int64_t result_id) {
  auto s = db_.prepare("SELECT packed FROM results WHERE id = ?1");
  s.bind(1, result_id);
  if (!s.step()) throw StoreError("no result " + std::to_string(result_id) + " in the store");
  try {
    return unpack_document(s.blob(0));
  } catch (const StoreError& e) {
    throw StoreError("result " + std::to_string(result_id) + ": " + e.what());
  }
}

bool Store::has_result_for_attempt(std::int64_t attempt_id) {
  auto s = db_.prepare("SELECT 1 FROM results WHERE attempt_id = ?1 LIMIT 1");
  s.bind(1, attempt_id);
  return s.step();
}

std::optional<std::string> Store::result_node_cores(std::int64_t attempt_id) {
  auto s = db_.prepare(
      "SELECT json_extract(head, '$.node_cores') FROM results WHERE attempt_id = ?1 "
      "ORDER BY id DESC LIMIT 1");
  s.bind(1, attempt_id);
  if (!s.step() || s.is_null(0)) return std::nullopt;
  return s.text(0);
}

}  // namespace pbench::store
