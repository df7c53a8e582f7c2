// pbench-logp: LogP/LogGP parameters after Bell et al. (METHODS.md §4).
#include "common/WorkerMain.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/LogpReport.hpp"
#include "logp/LogpRun.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  logp::LogpParameters parameters;
  auto spec = worker::checked_parameters_spec(
      "logp",
      "pbench-logp: LogP/LogGP parameters (EEL, o_s, o_r, g and G by queue depth) after Bell et "
      "al., on pairs of ranks (2k sends, 2k+1 receives)",
      parameters);
  spec.body = [&](worker::WorkerContext& context) {
    logp::LogpRun run(context.mpi, parameters, &context.deadline);
    auto measurements = run.measure();
    if (!measurements) return;  // not rank 0
    worker::write_report(logp::LogpReport(std::move(*measurements)), context);
  };
  return worker::run_worker(spec, argc, argv);
}
