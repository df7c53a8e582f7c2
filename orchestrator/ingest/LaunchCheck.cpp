#include "ingest/LaunchCheck.hpp"

namespace pbench::ingest {

AskedLaunch asked_launch(const std::string& worker, int partition, const std::string& params_json) {
  return {worker, partition,
          store::asked_shape(nlohmann::json::parse(params_json, nullptr, false))};
}

std::string worker_mismatch(const nlohmann::json& document, const AskedLaunch& asked) {
  const auto named = document.value("worker", std::string());
  if (asked.worker.empty() || named == asked.worker) return "";
  return "names worker '" + named + "', but its point is a " + asked.worker +
         " point: another worker's result, not stored";
}

std::string launch_problem(const nlohmann::json& document, const AskedLaunch& asked,
                           const store::ResultLayout& layout) {
  std::string problem;
  if (asked.partition > 0 && document.contains("nprocs") && document["nprocs"].is_number()) {
    const auto processes = document["nprocs"].get<double>();
    if (processes != asked.partition) {
      const std::string what = asked.shape.exact()
                                   ? std::to_string(asked.shape.nodes) + "x" +
                                         std::to_string(asked.shape.procs_per_node) + " asked (" +
                                         std::to_string(asked.partition) + " processes)"
                                   : "partition " + std::to_string(asked.partition) + " asked";
      const auto count = static_cast<long long>(processes);
      problem = "launch: " + what + ", the result is from " + std::to_string(count) +
                (count == 1 ? " process" : " processes");
    }
  }
  if (!layout.placement.empty()) problem += (problem.empty() ? "" : "; ") + layout.placement;
  return problem;
}

}  // namespace pbench::ingest
