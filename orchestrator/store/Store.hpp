#pragma once
// The pbench store: sweeps, their points, every job attempt, and ingested results with their
// metrics, in one SQLite file (schema/store.sql, version checked at open, WAL).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/Database.hpp"

namespace pbench::store {

inline constexpr int kStoreSchemaVersion = 12;

/// The id of the chosen result of point `p` in the run the queries read (Store::choose_run), as
/// the store's view run_results defines it: `JOIN results r ON r.id = <this>`. Needs the
/// point's table to be called `p`.
inline constexpr const char* kChosenResult =
    "(SELECT c.result_id FROM main.run_results c WHERE c.sweep_id = p.sweep_id "
    "AND c.point_id = p.id AND c.run = "
    "(SELECT run_no FROM temp.chosen_run WHERE sweep_id = p.sweep_id))";

/// The reason a deadline cut the result of point `p` that kChosenResult names short (its
/// document's validity.partial.reason), NULL for a complete result or none: a column
/// expression; the one reading of "partial" for status, query points and the collector.
inline const std::string kChosenPartialReason =
    std::string(
        "(SELECT json_extract(r.head, '$.validity.partial.reason') FROM results r "
        "WHERE r.id = ") +
    kChosenResult + ")";

/// The columns of a kept headline answer (headline_answers) beside sweep_id and run, as the view
/// headlines gives them: what answer_headlines copies and `pbench store verify` compares.
inline constexpr const char* kHeadlineAnswerColumns =
    "env, figure, value, unit, partition, at, point, job, valid, reason, nodes, ppn, better, "
    "shape, won, group_order, group_partition, group_nodes, group_ppn, row_order";

/// The canonical point states; a scheduler's native state is kept beside them in attempts.
enum class PointState { planned, queued, running, done, failed, cancelled, timeout };
std::string to_string(PointState state);
/// Parses a canonical state name; throws StoreError for anything else.
PointState point_state_from(const std::string& name);
/// done, failed, cancelled and timeout are final for an attempt.
bool is_terminal(PointState state);

struct SweepRecord {
  std::int64_t id = 0;
  std::string name;
  std::string spec_json;  ///< canonical JSON of the sweep specification
  std::string scheduler;
  std::string directory;  ///< absolute path of the sweep's job directory
  std::string created_at;
};

struct PointRecord {
  std::int64_t id = 0;
  std::int64_t sweep_id = 0;
  std::string key;  ///< stable hash of the point's parameters
  std::string worker;
  int partition = 0;
  std::string params_json;
  std::string script_path;
  PointState state = PointState::planned;
};

/// "logp p=2 q=8 [3f2a...]": how messages name a point (its worker, partition, shape, queue
/// depth and key).
std::string describe_point(const PointRecord& point);

struct AttemptRecord {
  std::int64_t id = 0;
  std::int64_t point_id = 0;
  int attempt_no = 0;
  std::optional<std::string> job_id;
  std::optional<std::string> native_state;
  PointState state = PointState::queued;
  std::optional<std::string> submitted_at;
  std::optional<std::string> started_at;
  std::optional<std::string> ended_at;
  std::optional<std::int64_t> exit_status;
  std::optional<std::string> signal;
  std::string job_dir;
  std::string stdout_path;
  std::string stderr_path;
  std::string result_path;
  std::optional<std::string> stderr_tail;
  int run_no = 1;  ///< the run of the sweep this attempt belongs to
};

/// One run of a sweep: every point run once more (`pbench run/submit NAME --again`).
struct RunRecord {
  std::int64_t id = 0;
  std::int64_t sweep_id = 0;
  int run_no = 0;
  std::string started_at;
  std::string envelope_json;  ///< pbench_version, git_describe, hosts, mpi_versions
};

/// Which run of each sweep the queries read: the latest (default) or run `number`.
struct RunChoice {
  static RunChoice latest() { return {}; }
  static RunChoice number(int n) { return {n}; }
  std::optional<int> run_no;  ///< empty: the latest run of each sweep
};

struct ResultLayout;
/// Binds a layout's nodes, procs_per_node, node_list and placement to parameters first ..
/// first + 3 of `s` (after resetting it); empty texts as NULL.
void bind_layout(Statement& s, const ResultLayout& layout, int first);

class Store {
 public:
  enum class Access { create, existing, read_only };
  /// Opens the store at `path`. `create` makes a new file when none exists; `existing` and
  /// `read_only` require one. Throws StoreError when the file is not a pbench store or has
  /// another schema version; such a file is never modified.
  static Store open(const std::string& path, Access access);
  /// A fresh in-memory store (tests).
  static Store open_in_memory();

  /// The sweep called `name`, if stored.
  std::optional<SweepRecord> find_sweep(const std::string& name);
  /// All sweeps, oldest first.
  std::vector<SweepRecord> sweeps();
  /// Stores a new sweep with its points (one transaction); the records get their ids.
  SweepRecord insert_sweep(SweepRecord sweep, std::vector<PointRecord>& points);
  /// Replaces the sweep of the same name, with its points, attempts and results, by a new one
  /// (one transaction).
  SweepRecord replace_sweep(SweepRecord sweep, std::vector<PointRecord>& points);
  /// Deletes a sweep with its points, attempts and results (one transaction).
  void delete_sweep(std::int64_t sweep_id);

  /// The points of a sweep in insertion order.
  std::vector<PointRecord> points(std::int64_t sweep_id);
  void set_point_state(std::int64_t point_id, PointState state);

  /// Adds the next attempt of a point (attempt_no = previous + 1); returns it with its id.
  AttemptRecord add_attempt(AttemptRecord attempt);
  /// Stores an attempt as it was recorded elsewhere (its attempt_no and run_no kept; `pbench
  /// store rebuild` from the runs directory); returns it with its id.
  AttemptRecord restore_attempt(AttemptRecord attempt);
  /// Writes every field of an attempt back.
  void update_attempt(const AttemptRecord& attempt);
  /// The newest attempt of a point.
  std::optional<AttemptRecord> latest_attempt(std::int64_t point_id);
  /// Every attempt of a point, oldest first.
  std::vector<AttemptRecord> attempts(std::int64_t point_id);
  /// The runs of a sweep, oldest first (run 1 is made with the sweep).
  std::vector<RunRecord> runs(std::int64_t sweep_id);
  /// Adds the next run of a sweep and plans every point again (one transaction). The caller
  /// makes sure that no point is queued or running.
  RunRecord start_run(std::int64_t sweep_id, const std::string& started_at,
                      const std::string& envelope_json);
  void set_run_envelope(std::int64_t run_id, const std::string& envelope_json);
  /// Makes kChosenResult read `choice` from now on (the latest run when never called).
  void choose_run(const RunChoice& choice);

  /// Answers the headline of every run (of `sweep_id`, or of every sweep) that has no answer
  /// kept: the rows of the view headlines into the table headline_answers, marked in
  /// headline_answered (schema/store_views.sql; one transaction). Returns how many runs it
  /// answered. collect calls it, and opening a store for writing after a migration or a new
  /// catalogue.
  int answer_headlines(std::optional<std::int64_t> sweep_id = std::nullopt);
  /// Whether the headline of a run is kept answered (headline_answered).
  bool headline_answered(std::int64_t sweep_id, int run);

  /// The number of results stored for the points of a sweep (every run).
  std::int64_t result_count(std::int64_t sweep_id);

  /// The document of a stored result, its canonical text byte for byte (what its document_hash
  /// is the SHA-256 of), unpacked (store/PackedDocument.hpp: the one reading of a document;
  /// SQL reads it as document(packed)). Throws StoreError for no such result or a damaged one.
  std::string document(std::int64_t result_id);

  /// The reason a deadline cut a stored result short (validity.partial.reason), or nothing.
  std::optional<std::string> partial_reason(std::int64_t result_id);

  /// Records the nodes the scheduler gave the job of a result (comma-separated host names).
  void set_result_allocation(std::int64_t result_id, const std::string& allocated_nodes);

  /// True when a result document is stored for this attempt.
  bool has_result_for_attempt(std::int64_t attempt_id);
  /// The node_cores of the latest result stored for this attempt, as JSON text (nothing when
  /// no result, or its document has none).
  std::optional<std::string> result_node_cores(std::int64_t attempt_id);

  Database& db() { return db_; }

 private:
  explicit Store(Database db) : db_(std::move(db)) {}
  void initialise_or_check();
  /// Writes the metric catalogue (workers/common/MetricCatalogue.hpp) into the store's table
  /// metric_catalogue when it differs from what the store holds (one transaction); true when
  /// it did.
  bool refresh_catalogue();
  /// A connection that may not write a store made by another pbench version (its views or
  /// catalogue not this pbench's) reads it through this pbench's, made for the connection only
  /// (install_temporary_views, the catalogue in temp), and says so on stderr.
  void read_through_own_views();
  SweepRecord insert_sweep_rows(SweepRecord sweep, std::vector<PointRecord>& points);
  /// Inserts an attempt's row with its attempt_no, run_no, state and paths; returns its id.
  std::int64_t insert_attempt_row(const AttemptRecord& attempt);

  Database db_;
};

}  // namespace pbench::store
