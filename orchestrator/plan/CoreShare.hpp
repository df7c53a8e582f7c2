#pragma once
// How a run's ranks shared the cores they ran on (its result's node_cores), so that a plan
// scaled from that run to another partition knows how much more the ranks will wait for a core.
// Ranks that outnumber their cores take about ranks/cores times as long as with a core each: the
// plan multiplies by the new partition's ranks per core over the old one's (each at least 1).
#include <nlohmann/json.hpp>

namespace pbench::run {

struct CoreShare {
  /// The worst machine's ranks per core (the nodes of one kernel together); 0: unknown.
  double ranks_per_core = 0;
  /// Every node of the run on one machine (one kernel: the lab's namespaces, containers): a
  /// partition of any size there shares the same cores.
  bool one_machine = false;
  /// That machine's cores (one_machine); else the fewest cores a node's ranks may use.
  int cores = 0;

  /// From a result document's node_cores (workers' "host", "ranks", "cores", "machine",
  /// "machine_cpus"); unknown (ranks_per_core 0) when absent or malformed.
  static CoreShare of_node_cores(const nlohmann::json& node_cores);
  bool known() const { return ranks_per_core > 0 && cores > 0; }
  /// The ranks per core of `processes` ranks on `nodes` nodes like these (all on the one
  /// machine where the run was; else spread evenly over nodes of `cores` each).
  double ranks_per_core_at(int processes, int nodes) const;
};

/// How much longer ranks take that share cores: the ranks per core, at least 1.
double sharing_factor(double ranks_per_core);

}  // namespace pbench::run
