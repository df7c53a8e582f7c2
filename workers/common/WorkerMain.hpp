#pragma once
// The shape every worker's main() shares: declare parameters, parse them before MPI starts,
// start MPI, measure, and have rank 0 write the result document. Errors end every rank with a
// clear message and a non-zero exit.
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"
#include "common/Parameters.hpp"
#include "common/ResultDocument.hpp"

namespace pbench::worker {

/// The measurement stopped on an error that every rank knows of (for example a full file
/// system) after the body recorded what it measured and marked the result invalid: rank 0
/// writes the partial result, prints the message, and every rank exits with status 3.
class PartialResult : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WorkerContext {
  MpiSession& mpi;
  ResultDocument& result;
  /// Where rank 0 prints the readable protocol: stdout, or stderr when the JSON goes to stdout.
  std::ostream& protocol;
  /// The run's deadline (--deadline, --time-left): the body calls deadline.reached() at clean
  /// points of its loops and stops when it says so; what it measured is then written as a
  /// partial result (not valid, validity.partial), and the worker exits 0.
  DeadlineWatch& deadline;
  /// Collective work the body leaves for after rank 0 has written the result (every rank runs
  /// it): io removes its files there after a deadline stop, so that a slow delete cannot push
  /// the result past the deadline. Empty: nothing.
  std::function<void()> after_result;
};

struct WorkerSpec {
  std::string name;         ///< "logp", "comm", "io", "bcast"
  std::string description;  ///< first line of --help
  /// Declares the worker's own parameters (bound to variables the body reads).
  std::function<void(Parameters&)> declare;
  /// Runs before MPI starts, after parsing: checks the parameters (throwing UsageError naming
  /// the first problem, which run_worker prints on rank 0 of the launch before every process
  /// exits 2), and returns an exit code to stop early (for example after printing a
  /// description), or -1 to go on. Optional.
  std::function<int()> before_mpi;
  /// The measurement; runs on every rank.
  std::function<void(WorkerContext&)> body;
};

/// The spec of a worker whose parameters are `parameters` (a class with declare(Parameters&)
/// and check(), bound for the whole run): it declares them, and checks them before MPI starts.
/// The caller sets the body.
template <class WorkerParameters>
WorkerSpec checked_parameters_spec(std::string name, std::string description,
                                   WorkerParameters& parameters) {
  WorkerSpec spec;
  spec.name = std::move(name);
  spec.description = std::move(description);
  spec.declare = [&parameters](Parameters& p) { parameters.declare(p); };
  spec.before_mpi = [&parameters]() -> int {
    parameters.check();  // throws UsageError: run_worker says it
    return -1;
  };
  return spec;
}

/// Rank 0's end of a run: `report` (with write(ResultDocument&) and print(std::ostream&))
/// fills the result document and prints the readable protocol.
template <class Report>
void write_report(const Report& report, WorkerContext& context) {
  report.write(context.result);
  report.print(context.protocol);
}

/// The end of a run whose measurement gives rank 0 its `measured` values and the other ranks
/// none: rank 0 writes the Report made of them (and of `more`, the report's other arguments).
template <class Report, class Measured, class... More>
void write_measured(std::optional<Measured> measured, WorkerContext& context, More&&... more) {
  if (measured) write_report(Report(std::move(*measured), std::forward<More>(more)...), context);
}

/// Runs a worker; returns the process exit code.
int run_worker(const WorkerSpec& spec, int argc, char** argv);

/// Runs the worker `name` whose parameters are `parameters` (checked before MPI starts, see
/// checked_parameters_spec) and whose measurement is `body`; returns the process exit code.
template <class WorkerParameters>
int run_checked_worker(std::string name, std::string description, WorkerParameters& parameters,
                       std::function<void(WorkerContext&)> body, int argc, char** argv) {
  WorkerSpec spec = checked_parameters_spec(std::move(name), std::move(description), parameters);
  spec.body = std::move(body);
  return run_worker(spec, argc, argv);
}

}  // namespace pbench::worker
