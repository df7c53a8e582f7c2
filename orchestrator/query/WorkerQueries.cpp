#include "query/WorkerQueries.hpp"

#include "query/BcastQuery.hpp"
#include "query/CommQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/LogpQuery.hpp"

namespace pbench::query {

const std::vector<WorkerQuery>& worker_queries() {
  static const std::vector<WorkerQuery> queries = {
      {"logp", "LogP parameters (EEL, o_s, o_r, g, G, L, M) by partition and queue depth",
       &logp_table},
      {"comm", "b_eff by partition as the paper's Table 1, and the maximum over partitions",
       &comm_table},
      {"io", "b_eff_io by partition, T and hint set, and the system maximum with its partition",
       &io_table},
      {"bcast", "Broadcast latency OL beside the classic methods by partition, impl and size",
       &bcast_table},
  };
  return queries;
}

const WorkerQuery* find_worker_query(const std::string& worker) {
  for (const auto& q : worker_queries()) {
    if (worker == q.worker) return &q;
  }
  return nullptr;
}

}  // namespace pbench::query
