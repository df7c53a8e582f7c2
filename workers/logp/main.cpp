// pbench-logp: LogP/LogGP parameters after Bell et al. (METHODS.md §4).
#include "common/WorkerMain.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/LogpReport.hpp"
#include "logp/LogpRun.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  logp::LogpParameters parameters;
  const auto measure = [&](worker::WorkerContext& context) {
    logp::LogpRun run(context.mpi, parameters, &context.deadline);
    worker::write_measured<logp::LogpReport>(run.measure(), context);
  };
  return worker::run_checked_worker(
      "logp",
      "pbench-logp: LogP/LogGP parameters (EEL, o_s, o_r, g and G by queue depth) after Bell et "
      "al., on pairs of ranks (2k sends, 2k+1 receives)",
      parameters, measure, argc, argv);
}
