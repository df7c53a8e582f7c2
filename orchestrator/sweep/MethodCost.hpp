#pragma once
// What a point's measurement costs by its method's own rules: the messages, bytes and loops a
// worker makes with the point's settings (METHODS.md), times a machine's latency and bandwidth.
// The planner (plan/SweepCost.hpp) scales it by this machine's earlier runs where there are any.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pbench::sweep {

/// A machine's figures the cost of a method needs. The defaults are stated in every plan that
/// uses them (a plan scaled by this machine's runs says so instead).
struct MachineConstants {
  double latency = 5e-6;             ///< s per small message (a cluster interconnect's MPI)
  double bandwidth = 1e9;            ///< B/s between two processes
  double io_bandwidth = 500e6;       ///< B/s of the file system, all processes together
  double metadata_seconds = 1e-3;    ///< s per file create, stat, open or remove
  std::int64_t memory_per_node = 0;  ///< B; 0: this machine's physical memory
  double launch_seconds = 2.0;       ///< s to start a job's MPI processes, and more per ...
  double launch_per_process = 0.01;  ///< ... process
  /// B/s a node's processes share through its network port; 0: not stated (each process its
  /// own `bandwidth`).
  double node_bandwidth = 0;
  /// The cores of the machine the local scheduler runs every rank on; 0: this machine's.
  int local_cores = 0;
  /// Where a figure came from, by its name in text() ("latency", "bandwidth", "node bandwidth",
  /// "file system", "file operation", "start-up"); one not named is a stated default.
  std::map<std::string, std::string> sources;
  /// "latency 5 us (stated default), bandwidth 1 GB/s (stated default), ...": every figure with
  /// where it came from.
  std::string text() const;
  /// True when every figure is pbench's stated default (none from a profile or a calibration).
  bool all_defaults() const { return sources.empty(); }
  /// A process's bandwidth with `ranks_per_node` processes of a node streaming at once.
  double process_bandwidth(int ranks_per_node) const;
};

/// The job's start-up (launching P processes, MPI_Init, the untimed checks) in seconds.
double launch_seconds(const MachineConstants& machine, int processes);

/// A worker's parameter values as a point's run reads them: the worker's defaults (its
/// --describe-parameters answer), then the sweep's --set values, then the point's own
/// dimensions (queue_depth, schedule_time, transfer_size, pattern, collective).
class WorkerValues {
 public:
  WorkerValues() = default;
  /// From a --describe-parameters answer and a point's parameters ({"settings", dimensions}).
  WorkerValues(const nlohmann::json& description, const nlohmann::json& params);
  /// The value's text, or `fallback` when the worker has no such parameter.
  std::string text(const std::string& name, const std::string& fallback = "") const;
  /// A number (sizes with units as the workers read them: "64KiB"); `fallback` when absent or
  /// unreadable.
  double number(const std::string& name, double fallback) const;
  /// A list "1,8,64" or "[1,8,64]" of numbers (sizes with units); `fallback` when absent.
  std::vector<double> numbers(const std::string& name, const std::vector<double>& fallback) const;
  void set(const std::string& name, const std::string& value) { values_[name] = value; }

 private:
  std::map<std::string, std::string> values_;
};

/// Where a point's processes run: P processes on `nodes` nodes (at least 1).
struct Placement {
  int processes = 1;
  int nodes = 1;
  int ranks_per_node() const { return (processes + nodes - 1) / nodes; }
};

/// A method's cost of one point: its expected measurement time (without the job's start-up),
/// the rule it was counted by, in words, and the most it may take where the worker keeps to one.
struct MethodCost {
  double seconds = 0;  ///< the expected time: what the plan and the node-hours count
  std::string rule;
  /// > 0 when the worker itself keeps to a bound (io's scheduled time T with its time guard:
  /// T x k): the time limit derives from it, not from the expected time.
  double bound_seconds = 0;
  bool bounded() const { return bound_seconds > 0; }
};

/// The cost of one point of `worker` (logp, comm, io, bcast, links) with `values` placed as
/// `placement` on a machine with `machine`'s figures. Throws UsageError for an unknown worker.
MethodCost method_cost(const std::string& worker, const WorkerValues& values,
                       const Placement& placement, const MachineConstants& machine);

}  // namespace pbench::sweep
