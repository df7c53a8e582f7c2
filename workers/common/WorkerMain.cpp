#include "common/WorkerMain.hpp"

#include <cstdlib>
#include <iostream>

#include "common/LaunchCheck.hpp"
#include "common/MpiCost.hpp"

namespace pbench::worker {

int run_worker(const WorkerSpec& spec, int argc, char** argv) {
  Parameters parameters(spec.name, spec.description);
  spec.declare(parameters);
  std::string output = "-";
  parameters.add("output", output, "path",
                 "Where rank 0 writes the JSON result document; '-' is stdout (the readable "
                 "protocol then goes to stderr)");
  double deadline_at = 0;
  double time_left = 0;
  double deadline_margin = -1;
  CLI::Option* deadline_option = parameters.add(
      "deadline", deadline_at, "s since the epoch",
      "Stop before this time at a clean point and write what was measured as a partial result "
      "(not valid, exit 0); a job script sets it as PBENCH_DEADLINE");
  CLI::Option* time_left_option = parameters.add(
      "time_left", time_left, "s",
      "Like --deadline, as seconds from the start (the earlier end wins when both are given)");
  parameters.add("deadline_margin", deadline_margin, "s",
                 "Time kept free before the deadline to write the result (io removes its files "
                 "after writing it); "
                 "-1: a tenth of the time left, 1 to 60 s");
  if (auto code = parameters.parse(argc, argv)) return *code;
  std::string problem;
  const auto given = [](CLI::Option* option, double value) -> std::optional<double> {
    if (option->count() == 0) return std::nullopt;
    return value;
  };
  const auto deadline =
      Deadline::from(given(deadline_option, deadline_at), given(time_left_option, time_left),
                     deadline_margin, epoch_now(), problem);
  if (!deadline) {
    if (is_reporting_process()) {
      std::cerr << "pbench-" << spec.name << ": error: " << problem << "\n"
                << "Run with --help for the parameters.\n";
    }
    return 2;
  }
  if (deadline->set()) deadline_margin = deadline->margin();
  if (spec.before_mpi) {
    if (int code = spec.before_mpi(); code >= 0) return code;
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
  std::ostream& protocol = (output == "-") ? std::cerr : std::cout;
  DeadlineWatch watch(*deadline);
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
