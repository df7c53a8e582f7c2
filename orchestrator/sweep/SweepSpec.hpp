#pragma once
// A sweep: the grid of worker runs to make (workers x partitions x the workers' own dimensions)
// and how to run them. It expands into points, each with a stable key.
#include <nlohmann/json.hpp>

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
  std::string scheduler = "local";
  std::string launcher = "mpiexec";
  /// Worker parameters fixed for the whole sweep: worker -> parameter -> value.
  std::map<std::string, std::map<std::string, std::string>> settings;

  /// Checks names, lists and settings; throws UsageError naming the problem.
  void validate() const;
  /// Canonical JSON (keys sorted), stored with the sweep and compared on re-creation.
  nlohmann::json to_json() const;
  /// The inverse of to_json(); throws UsageError for a malformed specification.
  static SweepSpec from_json(const nlohmann::json& j);
};

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
