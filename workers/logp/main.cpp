// pbench-logp: LogP/LogGP parameters after Bell et al. (METHODS.md §4).
#include "common/WorkerMain.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/LogpReport.hpp"
#include "logp/LogpRun.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  logp::LogpParameters parameters;
  worker::WorkerSpec spec;
  spec.name = "logp";
  spec.description =
      "pbench-logp: LogP/LogGP parameters (EEL, o_s, o_r, g and G by queue depth) after Bell et "
      "al., on pairs of ranks (2k sends, 2k+1 receives)";
  spec.declare = [&](worker::Parameters& p) { parameters.declare(p); };
  spec.before_mpi = [&]() -> int {
    parameters.check();  // throws UsageError: run_worker says it
    return -1;
  };
  spec.body = [&](worker::WorkerContext& context) {
    logp::LogpRun run(context.mpi, parameters, &context.deadline);
    auto measurements = run.measure();
    if (!measurements) return;  // not rank 0
    const logp::LogpReport report(std::move(*measurements));
    report.write(context.result);
    report.print(context.protocol);
  };
  return worker::run_worker(spec, argc, argv);
}
