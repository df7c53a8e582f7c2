#pragma once
// One partition of a sweep: P processes that the scheduler places (written "8"), or a shape of
// N nodes with P processes each (written "4x2"; Slurm --nodes=4 --ntasks-per-node=2, PBS
// nodes=4:ppn=2). 4x1 and 2x2 are different partitions of 4 processes: between nodes LogP is
// the network, between cores of one node it is memory.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pbench::sweep {

struct Partition {
  int processes = 1;       ///< MPI processes; nodes x procs_per_node for a shape
  int nodes = 0;           ///< 0: the scheduler places the processes
  int procs_per_node = 0;  ///< 0: the scheduler places the processes

  Partition() = default;
  /// P processes placed by the scheduler.
  Partition(int processes) : processes(processes) {}  // NOLINT(google-explicit-constructor)
  /// N nodes x P processes per node.
  static Partition shape(int nodes, int procs_per_node);

  /// True for NxP, false for plain P.
  bool has_shape() const { return nodes > 0; }
  /// "8" or "4x2", as --partitions reads it.
  std::string text() const;
  /// 8 or "4x2": a plain partition stays the number it always was in stored specifications.
  nlohmann::json to_json() const;
  /// The inverse of to_json(); throws UsageError for anything else.
  static Partition from_json(const nlohmann::json& j);
  /// The partition of a planned point: its processes and, for a shape, the point's parameters
  /// "nodes" and "procs_per_node".
  static Partition of_point(int processes, const nlohmann::json& params);

  bool operator==(const Partition&) const = default;
};

/// Parses one partition, "8" or "4x2", into a Partition; throws UsageError starting with
/// `where` for an empty item, a non-number, zero, "4x", "x2", "2x2x2" or a value that is too
/// large.
Partition parse_partition(const std::string& item, const std::string& where);
/// Parses "2x1,4x1,2x2,8" (from --partitions); throws UsageError naming `option` and the item.
std::vector<Partition> parse_partition_list(const std::string& text, const std::string& option);

}  // namespace pbench::sweep
