#pragma once
// The workers pbench can run, in one explicit table looked up by name.
#include <string>
#include <vector>

namespace pbench::sweep {

struct WorkerInfo {
  std::string name;    ///< "logp"
  std::string binary;  ///< "pbench-logp"
  std::string summary;
  /// Sweep dimensions besides the partition that this worker varies over ("queue_depth").
  std::vector<std::string> dimensions;
  /// The fewest processes the worker measures with; smaller partitions are not planned for it.
  int min_procs = 1;
  /// The worker option that restricts a run to the point's partition ("--partitions" for io,
  /// which otherwise measures several partitions in one run); empty when there is none.
  std::string partition_option;
};

/// Every worker, in the order tables list them.
const std::vector<WorkerInfo>& worker_catalog();
/// The worker called `name`; throws UsageError listing the known names otherwise.
const WorkerInfo& find_worker(const std::string& name);

}  // namespace pbench::sweep
