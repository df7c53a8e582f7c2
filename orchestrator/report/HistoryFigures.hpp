#pragma once
// The report's history: a figure per headline metric over the runs of a sweep.
#include <vector>

#include "query/QueryTable.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/Figure.hpp"

namespace pbench::report {

/// One figure per headline figure (and partition, for per-partition figures) of
/// query::history_table(): value against run number, valid and not valid results apart, a pair
/// of series per environment when the table has a column "env".
std::vector<Figure> history_figures(const query::QueryTable& history,
                                    const EnvironmentLabels& envs = {});

}  // namespace pbench::report
