#pragma once
// Shared by the planner's tests (orchestrator_plan_test, orchestrator_plan_rule_test): a sweep
// of given workers on given partitions, and a describe that knows no worker.
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "sweep/Partition.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::testing {

/// A describe that knows no worker: the cost rules' own copies of the defaults apply.
inline nlohmann::json no_description(const std::string&, const std::vector<std::string>&) {
  return nlohmann::json::object();
}

/// Sweep "p" of `workers` on `partitions` at queue depth 1 on `scheduler` (srun unless local).
inline sweep::SweepSpec spec_of(const std::string& scheduler, std::vector<std::string> workers,
                                std::vector<sweep::Partition> partitions) {
  sweep::SweepSpec spec;
  spec.name = "p";
  spec.scheduler = scheduler;
  spec.workers = std::move(workers);
  spec.partitions = std::move(partitions);
  spec.set_values("queue_depth", nlohmann::json::array({1}));
  if (scheduler != "local") spec.launcher = "srun";
  return spec;
}

}  // namespace pbench::testing
