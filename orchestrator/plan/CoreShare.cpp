#include "plan/CoreShare.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace pbench::run {

CoreShare CoreShare::of_node_cores(const nlohmann::json& node_cores) {
  CoreShare share;
  if (!node_cores.is_array() || node_cores.empty()) return share;
  struct Machine {
    long long ranks = 0;
    long long cores = 0;
    long long cpus = 0;
  };
  std::map<std::string, Machine> machines;
  int fewest_cores = 0;
  int index = 0;
  for (const auto& node : node_cores) {
    const auto ranks = node.find("ranks");
    const auto cores = node.find("cores");
    if (!node.is_object() || ranks == node.end() || cores == node.end() ||
        !ranks->is_number() || !cores->is_number() || ranks->get<double>() < 1 ||
        cores->get<double>() < 1) {
      return {};
    }
    // A node without a machine is a machine of its own.
    const auto machine = node.find("machine");
    const std::string id = machine != node.end() && machine->is_string()
                               ? "m:" + machine->get<std::string>()
                               : "n:" + std::to_string(index);
    auto& m = machines[id];
    m.ranks += ranks->get<long long>();
    m.cores += cores->get<long long>();
    if (const auto cpus = node.find("machine_cpus"); cpus != node.end() && cpus->is_number()) {
      m.cpus = cpus->get<long long>();
    }
    const int c = cores->get<int>();
    fewest_cores = fewest_cores == 0 ? c : std::min(fewest_cores, c);
    ++index;
  }
  for (auto& [id, m] : machines) {
    if (m.cpus > 0) m.cores = std::min(m.cores, m.cpus);
    share.ranks_per_core =
        std::max(share.ranks_per_core, static_cast<double>(m.ranks) / std::max(1LL, m.cores));
  }
  share.one_machine = machines.size() == 1 && node_cores.size() > 1;
  share.cores = share.one_machine ? static_cast<int>(machines.begin()->second.cores)
                                  : fewest_cores;
  return share;
}

double CoreShare::ranks_per_core_at(int processes, int nodes) const {
  if (!known()) return 0;
  if (one_machine) return static_cast<double>(processes) / cores;
  const double per_node = static_cast<double>(processes) / std::max(1, nodes);
  return per_node / cores;
}

double sharing_factor(double ranks_per_core) {
  return std::max(1.0, ranks_per_core);
}

}  // namespace pbench::run
