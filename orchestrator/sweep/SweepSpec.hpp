#pragma once
// A sweep: the grid of worker runs to make (workers x partitions x the workers' own dimensions)
// and how to run them. It expands into points, each with a stable key.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pbench::sweep {

struct SweepSpec {
  std::string name;
  std::vector<std::string> workers{"logp"};
  std::vector<int> partitions{1, 2};
  std::vector<int> queue_depths{1, 8, 64};
  /// io: scheduled times T per partition [s], a dimension; empty: the worker's default.
  std::vector<double> schedule_times;
  /// io: MPI-IO hint sets, each "key=value,key=value", a dimension; empty: no hints.
  std::vector<std::string> hint_sets;
  /// io consortium suite (settings io.suite): transfer sizes [B], a dimension; empty: default.
  std::vector<std::int64_t> transfer_sizes;
  /// io consortium suite: access patterns (segmented, strided, ...), a dimension.
  std::vector<std::string> patterns;
  /// io consortium suite: collective MPI-IO calls on or off, a dimension.
  std::vector<bool> collective;
  std::string scheduler = "local";
  std::string launcher = "mpiexec";
  /// Worker parameters fixed for the whole sweep: worker -> parameter -> value.
  std::map<std::string, std::map<std::string, std::string>> settings;
  // What a batch job asks for (slurm, pbs); 0 or empty: the default.
  int nodes = 0;               ///< nodes per job; default 1, or what procs_per_node needs
  int procs_per_node = 0;      ///< processes per node; default: as the scheduler places them
  int time_limit_seconds = 0;  ///< default kDefaultTimeLimitSeconds
  std::string account;
  std::string queue;                    ///< a Slurm partition or a PBS queue
  std::vector<std::string> directives;  ///< extra directive lines, e.g. "--constraint=ib"

  /// Checks names, lists and settings; throws UsageError naming the problem.
  void validate() const;
  /// Canonical JSON (keys sorted), stored with the sweep and compared on re-creation.
  nlohmann::json to_json() const;
  /// The inverse of to_json(); throws UsageError for a malformed specification.
  static SweepSpec from_json(const nlohmann::json& j);
};

/// A batch job's time limit when the sweep gives none.
inline constexpr int kDefaultTimeLimitSeconds = 3600;

/// Nodes and processes per node (0: the scheduler places them) of a job running `partition`
/// processes under `spec`.
struct NodeShape {
  int nodes = 1;
  int procs_per_node = 0;
};
NodeShape node_shape(const SweepSpec& spec, int partition);

/// Parses a time limit as Slurm writes them: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS or
/// DAYS-HOURS:MINUTES:SECONDS, into seconds; throws UsageError naming `option`.
int parse_time_limit(const std::string& text, const std::string& option);

struct Point {
  std::string key;  ///< first 16 hex digits of the SHA-256 of `params`
  std::string worker;
  int partition = 0;
  nlohmann::json params;  ///< {"worker", "partition", dimension values..., "settings"}
};

/// The cartesian product of the specification, in a deterministic order.
std::vector<Point> expand(const SweepSpec& spec);

/// Checks a sweep name: letters, digits, '.', '_', '-', at most 64, starting alphanumeric.
void validate_sweep_name(const std::string& name);
/// Parses "worker.parameter=value" (from --set) into `settings`; throws UsageError.
void add_setting(std::map<std::string, std::map<std::string, std::string>>& settings,
                 const std::string& assignment);
/// Parses "60,300,900" into positive numbers of seconds; throws UsageError naming `option`.
std::vector<double> parse_seconds_list(const std::string& text, const std::string& option);
/// Checks one hint set "key=value,key=value"; throws UsageError naming the bad item.
void validate_hint_set(const std::string& hints);
/// The worker's command-line arguments for a point (without the launcher and binary).
std::vector<std::string> worker_arguments(const Point& point);

}  // namespace pbench::sweep
