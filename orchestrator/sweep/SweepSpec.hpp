#pragma once
// A sweep: the grid of worker runs to make (workers x partitions x the workers' own dimensions)
// and how to run them. It expands into points, each with a stable key.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "schedulers/Launcher.hpp"
#include "sweep/Dimension.hpp"
#include "sweep/Environment.hpp"
#include "sweep/Partition.hpp"

namespace pbench::sweep {

struct SweepSpec {
  std::string name;
  std::vector<std::string> workers{"logp"};
  /// Plain partitions (P processes, placed by the scheduler) and shapes (N nodes x P per node).
  std::vector<Partition> partitions{1, 2};
  /// The workers' own dimensions (each described in its worker's description,
  /// sweep/WorkerCatalog.cpp): dimension name -> its values, a JSON array of the dimension's
  /// kind (sweep/Dimension.hpp). A dimension absent or empty is not varied; one with defaults
  /// (logp's queue depths) starts with them.
  std::map<std::string, nlohmann::json> dimensions = default_dimensions();
  std::string scheduler = "local";
  /// How a job launches the workers (a launcher of the table, its program and arguments).
  schedulers::LaunchSpec launcher;
  /// pbs: the directives' dialect, "torque" (default, also when empty) or "pbspro".
  std::string dialect;
  /// Lines every job runs before the worker (a site profile's `lines`, e.g. module loads), and
  /// variables it exports.
  std::vector<std::string> lines;
  Variables variables;
  /// The environment dimension (--envs): each point runs in one of these, its own worker
  /// directory, launcher, lines and variables (copied from the site profile, so the sweep is
  /// reproducible when the profile changes). Empty: no such dimension.
  std::vector<Environment> environments;
  /// The site profile it was made with: {"path", "sha256"}; null when none.
  nlohmann::json site;
  /// The machine's figures the profile states (its [machine] table: site/MachineFigures.hpp,
  /// with the cluster's name), which the plan uses before any run; null when none.
  nlohmann::json machine;
  /// The longest batch time limit the site allows (the profile's scheduler.max_time_limit); 0:
  /// none stated (the scheduler may still tell its partition's, site/PartitionMaxTime.hpp).
  int max_time_limit_seconds = 0;
  /// Worker parameters fixed for the whole sweep: worker -> parameter -> value.
  std::map<std::string, std::map<std::string, std::string>> settings;
  // What a batch job asks for (slurm, pbs); 0 or empty: the default.
  int nodes = 0;           ///< nodes per job of a plain partition; default: the scheduler's choice
  int procs_per_node = 0;  ///< processes per node of a plain partition; default: the scheduler's
  /// Jobs share their nodes with other jobs; by default a job gets whole nodes (Slurm
  /// --exclusive, PBS naccesspolicy=singlejob), so that no other job disturbs the measurement.
  bool share_nodes = false;
  int time_limit_seconds = 0;  ///< default kDefaultTimeLimitSeconds
  std::string account;
  std::string queue;                    ///< a Slurm partition or a PBS queue
  std::vector<std::string> directives;  ///< extra directive lines, e.g. "--constraint=ib"

  /// The values of the dimension called `dimension` (an empty array when not given).
  const nlohmann::json& values(const std::string& dimension) const;
  /// The same, typed as the dimension's kind: values_as<int>("queue_depth").
  template <class T>
  std::vector<T> values_as(const std::string& dimension) const {
    return values(dimension).template get<std::vector<T>>();
  }
  /// Sets the values of the dimension called `dimension` (a JSON array, stored as its kind:
  /// set_values("schedule_time", {60}) holds 60.0); throws for a value not of the kind.
  void set_values(const std::string& dimension, const nlohmann::json& values);

  /// Checks names, lists and settings; throws UsageError naming the problem.
  void validate() const;
  /// Canonical JSON (keys sorted), stored with the sweep and compared on re-creation.
  nlohmann::json to_json() const;
  /// The inverse of to_json(); throws UsageError for a malformed specification.
  static SweepSpec from_json(const nlohmann::json& j);
};

/// A batch job's time limit when the sweep gives none.
inline constexpr int kDefaultTimeLimitSeconds = 3600;

/// Nodes and processes per node of a job (0: the scheduler decides), and whether they are
/// exactly what the placement must be (a partition NxP) or bounds from --nodes and
/// --procs-per-node (a plain partition).
struct NodeShape {
  int nodes = 0;
  int procs_per_node = 0;
  bool exact = false;
};
/// The shape a job running `partition` under `spec` asks for: NxP as it is; a plain partition
/// with the sweep's --nodes (or as many nodes as --procs-per-node needs) and --procs-per-node.
NodeShape node_shape(const SweepSpec& spec, const Partition& partition);

/// Parses a time limit as Slurm writes them: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS or
/// DAYS-HOURS:MINUTES:SECONDS, into seconds; throws UsageError naming `option`.
int parse_time_limit(const std::string& text, const std::string& option);

struct Point {
  std::string key;  ///< first 16 hex digits of the SHA-256 of `params`
  std::string worker;
  Partition partition;
  /// {"worker", "partition", dimension values..., "settings"}, and for a partition NxP its
  /// "nodes" and "procs_per_node" (so 4x1 and 2x2 are two points; a plain P keeps the key it
  /// always had).
  nlohmann::json params;
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
