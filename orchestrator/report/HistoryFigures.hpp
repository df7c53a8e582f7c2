#pragma once
// The report's history: a figure per headline metric over the runs of a sweep.
#include <vector>

#include "query/QueryTable.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/Figure.hpp"

namespace pbench::report {

/// One figure per headline figure (and partition, for per-partition figures) of
/// query::history_table(): value against run number in the unit the tables use (MB/s, us), a
/// series per environment (when the table has a column "env") with its not valid results'
/// points hollow, a tic at each run. `by_cluster`: the table of history --by cluster (a
/// series per cluster, from its column "cluster", `envs` labelling the clusters), figures named
/// clusters-*.svg.
std::vector<Figure> history_figures(const query::QueryTable& history,
                                    const EnvironmentLabels& envs = {}, bool by_cluster = false);

}  // namespace pbench::report
