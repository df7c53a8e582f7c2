#pragma once
// What a sweep's runs cost against their plan, as a table: per run, worker and partition the
// node-hours planned when the run started against those charged (plan/ChargedTime.hpp), for
// `pbench history --times` and the report's section "Cost".
#include <string>

#include "process/ProcessRunner.hpp"
#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::report {

/// Per run, worker and partition of the sweep named `name`: the node-hours planned when the run
/// started against those charged (sacct through `runner` for a Slurm sweep, where it answers;
/// else the jobs' own times), saying which per row; `history --times` and the report show it.
/// Throws UsageError for an unknown sweep.
query::QueryTable charged_table(store::Store& store, const std::string& name,
                                process::ProcessRunner& runner);

}  // namespace pbench::report
