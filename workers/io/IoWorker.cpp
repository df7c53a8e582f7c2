#include "io/IoWorker.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>

#include "io/ConsortiumRun.hpp"
#include "io/IoParameters.hpp"
#include "io/IoReport.hpp"
#include "io/IoRun.hpp"

extern char** environ;

namespace pbench::io {

namespace {

struct State {
  IoOptions options;
  IoConfig config;
  ConsortiumOptions consortium_options;
  ConsortiumConfig consortium;
};

void run(worker::WorkerContext& context, const IoConfig& config) {
  worker::MpiSession& mpi = context.mpi;
  const std::vector<int> partitions = config.partitions_for(mpi.size());
  if (mpi.is_root()) {
    const Schedule schedule{config.schedule_time, static_cast<int>(partitions.size()),
                            config.rewrite_all};
    IoReport::print_header(context.protocol, mpi.size(), partitions, schedule,
                           termination_name(config.termination), config.guard_factor,
                           config.buffer_offset);
  }
  IoRun run(
      mpi, config,
      [&](const PatternMeasurement& m) { IoReport::print_pattern(context.protocol, m); },
      &context.deadline);
  IoMeasurements measurements = run.measure();
  const std::optional<std::string> failure = measurements.failure;
  if (measurements.deadline_stop && !config.keep) {
    context.after_result = [&mpi, &protocol = context.protocol, directory = measurements.directory,
                            partitions] {
      if (mpi.is_root()) {
        protocol << "removing the benchmark files in " << directory
                 << " after the partial result was written" << std::endl;
      }
      remove_benchmark_files(mpi, directory, partitions);
    };
  }
  if (mpi.is_root()) worker::write_report(IoReport(std::move(measurements)), context);
  if (failure) throw worker::PartialResult(*failure);
}

}  // namespace

worker::WorkerSpec io_worker_spec() {
  auto state = std::make_shared<State>();
  worker::WorkerSpec spec;
  spec.name = "io";
  spec.description =
      "pbench-io: the effective I/O bandwidth b_eff_io (Rabenseifner & Koniges): five MPI-IO "
      "pattern types, 43 patterns, write, rewrite and read on one or more partitions; or "
      "(--suite consortium) the Parallel I/O Benchmarking Consortium's sustained write, cached "
      "write and sustained read on segmented, strided, random and general access patterns";
  spec.declare = [state](worker::Parameters& parameters) {
    state->options.declare(parameters);
    state->consortium_options.declare(parameters);
  };
  spec.before_mpi = [state]() {
    // A problem throws UsageError, which run_worker says before every process exits 2.
    state->config = IoConfig::check(state->options, environ);
    state->consortium = ConsortiumConfig::check(state->consortium_options);
    return -1;
  };
  spec.body = [state](worker::WorkerContext& context) {
    if (state->consortium.suite == IoSuite::consortium) {
      ConsortiumRun(context.mpi, state->config, state->consortium)
          .measure(context.result, context.protocol, &context.deadline);
    } else {
      run(context, state->config);
    }
  };
  return spec;
}

}  // namespace pbench::io
