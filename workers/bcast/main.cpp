// pbench-bcast: broadcast latency by de Supinski & Karonis's OL_i method, with the classic
// methods beside it (METHODS.md §5).
#include "bcast/BcastParameters.hpp"
#include "bcast/BcastReport.hpp"
#include "bcast/BcastRun.hpp"
#include "common/WorkerMain.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  bcast::BcastParameters parameters;
  const auto measure = [&](worker::WorkerContext& context) {
    parameters.check_for(context.mpi.size());
    bcast::BcastRun run(context.mpi, parameters, &context.deadline);
    worker::write_measured<bcast::BcastReport>(run.measure(), context);
  };
  return worker::run_checked_worker(
      "bcast",
      "pbench-bcast: broadcast latency OL = max_i OL_i (de Supinski & Karonis) beside the "
      "classic methods (send latency, broadcast rounds, broadcast-barrier, "
      "broadcast-acknowledge)",
      parameters, measure, argc, argv);
}
