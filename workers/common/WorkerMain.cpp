#include "common/WorkerMain.hpp"

#include <cstdlib>
#include <iostream>

#include "common/LaunchCheck.hpp"
#include "common/MpiCost.hpp"
#include "common/RunParameters.hpp"

namespace pbench::worker {

int run_worker(const WorkerSpec& spec, int argc, char** argv) {
  Parameters parameters(spec.name, spec.description);
  spec.declare(parameters);
  RunParameters run;
  run.declare(parameters);
  if (auto code = parameters.parse(argc, argv)) return *code;
  // The one path of a problem found before MPI starts: rank 0 of the launch says it, every
  // process exits 2, nothing is written.
  Deadline deadline;
  try {
    deadline = run.deadline(epoch_now());
    if (deadline.set()) run.deadline_margin = deadline.margin();
    if (spec.before_mpi) {
      if (int code = spec.before_mpi(); code >= 0) return code;
    }
  } catch (const UsageError& e) {
    if (is_reporting_process()) {
      std::cerr << "pbench-" << spec.name << ": error: " << e.what() << "\n"
                << "Run with --help for the parameters.\n";
    }
    return 2;
  }

  MpiSession mpi(spec.name, argc, argv);
  const double started = MPI_Wtime();
  // Started as the processes the job launched? Singletons of a PMI mismatch are each rank 0 of
  // a world of 1: every one says so and exits, before measuring anything.
  if (const auto mismatch = launch_mismatch(std::getenv("PBENCH_PARTITION"), mpi.size())) {
    if (mpi.is_root()) std::cerr << "pbench-" << spec.name << ": error: " << *mismatch << "\n";
    return 2;
  }
  ResultDocument result(spec.name);
  result.set_parameters(parameters.echo());
  result.set_arguments(parameters.arguments());
  result.set_origin(job_origin());
  const std::string& output = run.output;
  std::ostream& protocol = (output == "-") ? std::cerr : std::cout;
  DeadlineWatch watch(deadline);
  WorkerContext context{mpi, result, protocol, watch, {}};
  try {
    result.set_environment(mpi);
    spec.body(context);
    result.set_cost(run_cost(mpi, started));
    if (watch.stopped()) result.mark_partial(watch.reason(), epoch_text(watch.deadline().end()));
    result.finish();
    if (mpi.is_root()) {
      result.write(output);
      // The protocol (stdout, block-buffered) goes out before the notice on stderr: a launcher
      // that forwards the two streams apart (Open MPI's mpirun) otherwise put the notice where
      // a 4 KiB block of the protocol ended, in the middle of one of its lines.
      protocol.flush();
      if (watch.stopped()) std::cerr << "pbench-" << spec.name << ": " << watch.reason() << "\n";
      if (const auto oversubscribed = result.oversubscription())
        std::cerr << "pbench-" << spec.name << ": not valid: " << *oversubscribed << "\n";
    }
    if (context.after_result) context.after_result();
  } catch (const UsageError& e) {
    if (mpi.is_root()) std::cerr << "pbench-" << spec.name << ": error: " << e.what() << "\n";
    return 2;
  } catch (const PartialResult& e) {
    result.set_cost(run_cost(mpi, started));  // every rank stopped on the same error
    if (watch.stopped()) result.mark_partial(watch.reason(), epoch_text(watch.deadline().end()));
    result.finish();
    if (mpi.is_root()) {
      protocol.flush();
      std::cerr << "pbench-" << spec.name << ": error: " << e.what() << "\n";
      try {
        result.write(output);
      } catch (const std::exception& write_error) {
        std::cerr << "pbench-" << spec.name << ": error: " << write_error.what() << "\n";
      }
    }
    return 3;
  } catch (const std::exception& e) {
    mpi.fatal(e.what());
  }
  return 0;
}

}  // namespace pbench::worker
