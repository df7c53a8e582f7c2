#include "sweep/WorkerCatalog.hpp"

#include "util/Error.hpp"

namespace pbench::sweep {

const std::vector<WorkerInfo>& worker_catalog() {
  static const std::vector<WorkerInfo> catalog = {
      {"logp", "pbench-logp", "LogP/LogGP parameters (Bell et al.)", {"queue_depth"}, 1, ""},
      {"comm", "pbench-comm", "effective bandwidth b_eff (Rabenseifner & Koniges)", {}, 2, ""},
      {"io",
       "pbench-io",
       "effective I/O bandwidth b_eff_io (Rabenseifner & Koniges)",
       {"schedule_time", "hints", "pattern", "transfer_size", "collective"},
       1,
       "--partitions"},
      {"bcast", "pbench-bcast", "Broadcast latency OL_i (de Supinski & Karonis)", {}, 1, ""},
      {"links",
       "pbench-links",
       "link matrix: latency and bandwidth of every pair of nodes (mpiGraph's shift schedule)",
       {},
       2,
       ""},
  };
  return catalog;
}

const WorkerInfo& find_worker(const std::string& name) {
  std::string known;
  for (const auto& w : worker_catalog()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw UsageError("unknown worker '" + name + "' (known: " + known + ")");
}

}  // namespace pbench::sweep
