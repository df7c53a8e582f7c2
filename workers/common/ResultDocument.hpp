#pragma once
// The result document every worker writes (schema/result.schema.json, schema_version 1):
// the run's environment, every parameter, the seeds, measurement tables with units, summary
// metrics with units and sample counts, validity with reasons, and warnings.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "common/NodeCores.hpp"

namespace pbench::worker {

class MpiSession;

inline constexpr int kResultSchemaVersion = 1;

struct Column {
  std::string name;  ///< snake_case
  std::string unit;  ///< base unit ("s", "B", "B/s", "count") or "" for labels
};

/// One measurement table: named columns with units and one row per measured point.
class Table {
 public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
  /// Appends a row; throws std::logic_error when it does not have one value per column.
  void add_row(std::vector<nlohmann::json> row);
  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<nlohmann::json>>& rows() const { return rows_; }
  nlohmann::json to_json() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<nlohmann::json>> rows_;
};

class ResultDocument {
 public:
  explicit ResultDocument(std::string worker);

  /// The parameter echo (Parameters::echo()).
  void set_parameters(nlohmann::json parameters) { parameters_ = std::move(parameters); }
  /// The command-line arguments the worker was given ("arguments" in the document).
  void set_arguments(std::vector<std::string> arguments) { arguments_ = std::move(arguments); }
  /// The job's identity of this run ("origin": sweep, point, attempt, nonce), or null outside
  /// a pbench job (job_origin()).
  void set_origin(nlohmann::json origin) { origin_ = std::move(origin); }
  /// The run's cost as MpiCost.hpp's run_cost() gives it ("cost" in the document).
  void set_cost(nlohmann::json cost) { cost_ = std::move(cost); }
  /// Records the seed of a random choice.
  void add_seed(const std::string& name, std::uint64_t seed) { seeds_[name] = seed; }
  /// Adds (or replaces) measurement table `name` and returns it for rows to be added. The
  /// reference stays valid while further tables are added (a report fills several at once).
  Table& add_table(const std::string& name, std::vector<Column> columns);
  /// Adds a summary metric; an absent value is written as null (not measurable in this run).
  void add_metric(const std::string& name, std::optional<double> value, const std::string& unit,
                  std::size_t samples, nlohmann::json labels = nlohmann::json::object());
  void add_warning(std::string warning) { warnings_.push_back(std::move(warning)); }
  /// Marks the result as not valid by the method's rules, with the reason.
  void invalidate(std::string reason) { reasons_.push_back(std::move(reason)); }
  bool valid() const { return reasons_.empty(); }
  /// Marks the result as partial: a deadline cut the run short (not valid, with `reason`); the
  /// validity gets {"partial": {"reason", "deadline"}}, the marker the orchestrator records.
  void mark_partial(const std::string& reason, const std::string& deadline);
  bool partial() const { return partial_.has_value(); }
  const std::vector<std::string>& warnings() const { return warnings_; }

  /// Records hosts (distinct, and the host of every rank), MPI version, process counts and each
  /// node's ranks and cores; a node with more ranks than cores makes the result not valid, with
  /// oversubscription_reason() first among its reasons (collective over the session's world).
  void set_environment(const MpiSession& session);
  /// Each node's ranks and cores (set_environment()); empty before it.
  const std::vector<NodeCores>& node_cores() const { return node_cores_; }
  /// Why the run is oversubscribed (oversubscription_reason()), or nothing.
  std::optional<std::string> oversubscription() const {
    return oversubscription_reason(node_cores_);
  }
  /// Stamps the end time.
  void finish();

  nlohmann::json to_json() const;
  /// {"valid", "reasons"} and, for a partial result, "partial".
  nlohmann::json validity() const;
  /// Writes the document to `path` ("-" for stdout) atomically (temporary file, then rename);
  /// throws std::runtime_error naming the path on failure.
  void write(const std::string& path) const;

 private:
  std::string worker_;
  std::string started_at_;
  std::string ended_at_;
  std::vector<std::string> hosts_;
  std::vector<std::string> rank_hosts_;
  std::string mpi_version_ = "unknown MPI library";
  nlohmann::json mpi_;  ///< MpiLibrary::to_json() of the run; null before set_environment
  int nprocs_ = 1;
  int procs_per_node_ = 1;
  std::vector<NodeCores> node_cores_;
  nlohmann::json parameters_ = nlohmann::json::object();
  std::optional<std::vector<std::string>> arguments_;
  nlohmann::json origin_;  ///< null outside a pbench job
  nlohmann::json cost_;    ///< null until set_cost()
  nlohmann::json seeds_ = nlohmann::json::object();
  // A deque: adding a table must not move the ones whose references callers still hold.
  std::deque<std::pair<std::string, Table>> tables_;
  nlohmann::json summary_ = nlohmann::json::array();
  std::vector<std::string> reasons_;
  std::optional<nlohmann::json> partial_;
  std::vector<std::string> warnings_;
};

/// The identity a pbench job exported for its worker (PBENCH_SWEEP, PBENCH_POINT, PBENCH_ATTEMPT,
/// PBENCH_NONCE: jobtemplates/job.sh) as {"sweep", "point", "attempt", "nonce"}, the ones set;
/// null when PBENCH_SWEEP is not set (a worker run by hand).
nlohmann::json job_origin();

/// The version of this build (git describe at configure time).
std::string build_version();

}  // namespace pbench::worker
