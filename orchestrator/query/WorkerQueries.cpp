#include "query/WorkerQueries.hpp"

#include "query/BcastQuery.hpp"
#include "query/CommQuery.hpp"
#include "query/IoConsortiumQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/LinksQuery.hpp"
#include "query/LogpQuery.hpp"
#include "util/Error.hpp"

namespace pbench::query {

const std::vector<WorkerQuery>& worker_queries() {
  static const std::vector<WorkerQuery> queries = {
      {"logp", "LogP parameters (EEL, o_s, o_r, g, G, L, M) by partition and queue depth",
       &logp_table},
      {"comm", "b_eff by partition as the paper's Table 1, and the maximum over partitions",
       &comm_table},
      {"io",
       "b_eff_io by partition, T and hint set, and the system maximum with its partition; "
       "--suite consortium: the consortium suite's tests by point",
       &io_table,
       {{"b_eff_io", &io_table}, {"consortium", &io_consortium_table}}},
      {"bcast", "Broadcast latency OL beside the classic methods by partition, impl and size",
       &bcast_table},
      {"links",
       "The link matrix per node and per link (latency, bandwidth), the weak nodes and links "
       "named",
       &links_table},
  };
  return queries;
}

const WorkerQuery* find_worker_query(const std::string& worker) {
  for (const auto& q : worker_queries()) {
    if (worker == q.worker) return &q;
  }
  return nullptr;
}

TableFunction suite_table(const WorkerQuery& query, const std::string& suite) {
  if (suite.empty()) return query.table;
  std::string known;
  for (const auto& s : query.suites) {
    if (suite == s.name) return s.table;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  throw UsageError("--suite: '" + suite + "' is not a suite of " + query.worker +
                   (known.empty() ? std::string(" (it has one)") : " (" + known + ")"));
}

}  // namespace pbench::query
