#include "sweep/WorkerCatalog.hpp"

#include "util/Error.hpp"

namespace pbench::sweep {

const std::vector<WorkerInfo>& worker_catalog() {
  static const std::vector<WorkerInfo> catalog = {
      {"logp", "pbench-logp", "LogP/LogGP parameters (Bell et al.)", {"queue_depth"}, ""},
      {"io",
       "pbench-io",
       "effective I/O bandwidth b_eff_io (Rabenseifner & Koniges)",
       {"schedule_time", "hints"},
       "--partitions"},
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
