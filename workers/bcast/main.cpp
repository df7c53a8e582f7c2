// pbench-bcast: broadcast latency by de Supinski & Karonis's OL_i method, with the classic
// methods beside it (METHODS.md §5).
#include "bcast/BcastParameters.hpp"
#include "bcast/BcastReport.hpp"
#include "bcast/BcastRun.hpp"
#include "common/WorkerMain.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  bcast::BcastParameters parameters;
  worker::WorkerSpec spec;
  spec.name = "bcast";
  spec.description =
      "pbench-bcast: broadcast latency OL = max_i OL_i (de Supinski & Karonis) beside the "
      "classic methods (send latency, broadcast rounds, broadcast-barrier, "
      "broadcast-acknowledge)";
  spec.declare = [&](worker::Parameters& p) { parameters.declare(p); };
  spec.before_mpi = [&]() -> int {
    parameters.check();  // throws UsageError: run_worker says it
    return -1;
  };
  spec.body = [&](worker::WorkerContext& context) {
    parameters.check_for(context.mpi.size());
    bcast::BcastRun run(context.mpi, parameters, &context.deadline);
    auto measurements = run.measure();
    if (!measurements) return;  // not rank 0
    const bcast::BcastReport report(std::move(*measurements));
    report.write(context.result);
    report.print(context.protocol);
  };
  return worker::run_worker(spec, argc, argv);
}
