#pragma once
// The workers pbench can run, in one explicit table looked up by name: each worker's
// description, with its sweep dimensions (sweep/Dimension.hpp) and its own options.
#include <string>
#include <vector>

#include "sweep/Dimension.hpp"

namespace pbench::sweep {

struct SweepSpec;

/// A command-line option of `pbench sweep` that sets one of a worker's parameters for the whole
/// sweep, as --set WORKER.PARAMETER=VALUE does (io's --suite).
struct WorkerOption {
  std::string flag;  ///< "--suite"
  std::string help;
  std::string parameter;  ///< "suite"
};

struct WorkerInfo {
  std::string name;    ///< "logp"
  std::string binary;  ///< "pbench-logp"
  std::string summary;
  /// Sweep dimensions besides the partition that this worker varies over (queue_depth), in the
  /// order a point's values are crossed and passed to the worker.
  std::vector<Dimension> dimensions;
  /// The fewest processes the worker measures with; smaller partitions are not planned for it.
  int min_procs = 1;
  /// The worker option that restricts a run to the point's partition ("--partitions" for io,
  /// which otherwise measures several partitions in one run); empty when there is none.
  std::string partition_option;
  /// Options of `pbench sweep` that set one of its parameters.
  std::vector<WorkerOption> options;
  /// Checks what its dimensions and settings must satisfy together (io: the suite, and every
  /// consortium point's layout); throws UsageError. Null: nothing beyond each dimension's check.
  void (*check)(const SweepSpec& spec) = nullptr;

  /// True when the worker varies over the dimension called `dimension`.
  bool varies(const std::string& dimension) const;
};

/// Every worker, in the order tables list them.
const std::vector<WorkerInfo>& worker_catalog();
/// The worker called `name`; throws UsageError listing the known names otherwise.
const WorkerInfo& find_worker(const std::string& name);

}  // namespace pbench::sweep
