#include "report/WorkerReport.hpp"

#include "query/LinksQuery.hpp"
#include "report/WorkerFigures.hpp"

namespace pbench::report {
namespace {

/// `first`, then `rest`.
std::vector<Figure> joined(Figure first, std::vector<Figure> rest) {
  rest.insert(rest.begin(), std::move(first));
  return rest;
}

}  // namespace

const std::vector<WorkerReport>& worker_reports() {
  static const std::vector<WorkerReport> reports = {
      {"logp",
       "logp",
       "logp: LogP parameters",
       "",
       {},
       [](const WorkerSectionInput& in) {
         return joined(logp_gap_figure(in.table, in.envs), logp_size_figures(in.results, in.envs));
       }},
      {"comm",
       "comm",
       "comm: b_eff",
       "",
       {},
       [](const WorkerSectionInput& in) {
         return joined(comm_scaling_figure(in.table, in.envs), comm_figures(in.results, in.envs));
       }},
      {"io", "io", "io: b_eff_io", "b_eff_io",
       [](const StoredResult& r) { return !is_consortium(r); },
       [](const WorkerSectionInput& in) {
         return joined(io_partition_figure(in.table, in.envs),
                       io_pattern_figures(in.results, in.envs));
       }},
      {"consortium", "io", "io: Parallel I/O Consortium suite", "consortium", is_consortium,
       [](const WorkerSectionInput& in) {
         return std::vector<Figure>{consortium_figure(in.results, in.envs)};
       }},
      {"bcast",
       "bcast",
       "bcast: broadcast latency",
       "",
       {},
       [](const WorkerSectionInput& in) { return bcast_figures(in.table, in.envs); }},
      {"links",
       "links",
       "links: the link matrix",
       "",
       {},
       [](const WorkerSectionInput& in) {
         return links_figures(query::link_matrices(in.store, in.sweep), in.envs);
       }},
  };
  return reports;
}

}  // namespace pbench::report
