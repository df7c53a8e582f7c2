// pbench-bcast: broadcast latency by de Supinski & Karonis's OL_i method, with the classic
// methods beside it (METHODS.md §5).
#include <iostream>

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
    if (auto problem = parameters.problem()) {
      if (worker::is_reporting_process()) {
        std::cerr << "pbench-bcast: error: " << *problem << "\n"
                  << "Run with --help for the parameters.\n";
      }
      return 2;
    }
    return -1;
  };
  spec.body = [&](worker::WorkerContext& context) {
    if (auto problem = parameters.problem_for(context.mpi.size())) {
      throw worker::UsageError(*problem);
    }
    bcast::BcastRun run(context.mpi, parameters, &context.deadline);
    auto measurements = run.measure();
    if (!measurements) return;  // not rank 0
    const bcast::BcastReport report(std::move(*measurements));
    report.write(context.result);
    report.print(context.protocol);
  };
  return worker::run_worker(spec, argc, argv);
}
