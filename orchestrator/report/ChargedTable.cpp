#include "report/ChargedTable.hpp"

#include <map>

#include "plan/ChargedTime.hpp"
#include "plan/SweepCost.hpp"
#include "plan/WorkerSettings.hpp"
#include "util/Error.hpp"

namespace pbench::report {

query::QueryTable charged_table(store::Store& store, const std::string& name,
                                process::ProcessRunner& runner) {
  const auto sweep = store.find_sweep(name);
  if (!sweep) throw UsageError("no sweep named '" + name + "' in the store");
  const auto describe = run::describe_worker_with(runner);
  query::QueryTable table;
  table.columns = {query::label_column("run"),
                   query::label_column("worker"),
                   query::label_column("partition"),
                   query::label_column("points"),
                   {"planned_node_hours", "", "planned node-hours", "", 1, 4},
                   {"charged_node_hours", "", "charged node-hours", "", 1, 4},
                   query::label_column("charged_points", "charged points"),
                   query::label_column("charged_from", "charged from")};
  for (const auto& stored_run : store.runs(sweep->id)) {
    const auto plan = run::plan_stored_sweep(store, *sweep, describe, stored_run.started_at);
    const auto accounting =
        sweep->scheduler == "slurm"
            ? run::sacct_charges(runner, run::run_job_ids(store, *sweep, stored_run.run_no))
            : std::map<std::string, run::JobCharge>{};
    for (const auto& row : run::charged_rows(store, *sweep, stored_run.run_no, plan, accounting)) {
      query::Cell charged, from;
      if (row.charged_points > 0) {
        charged = row.charged_node_hours;
        from = row.charged_from;
      }
      table.rows.push_back({std::int64_t{stored_run.run_no}, row.worker, row.partition,
                            std::int64_t{row.points}, row.planned_node_hours, charged,
                            std::int64_t{row.charged_points}, from});
    }
  }
  table.notes.push_back(
      "charged: nodes x elapsed of each job, from sacct where it answers, else from the job's "
      "own start and end (its exit marker) x the nodes it held; planned: as each run was "
      "planned when it started");
  return table;
}

}  // namespace pbench::report
