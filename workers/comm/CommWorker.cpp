#include "comm/CommWorker.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <random>

#include "comm/BeffFigures.hpp"
#include "comm/Benchmark.hpp"
#include "comm/CartesianGrid.hpp"
#include "comm/CommOptions.hpp"
#include "comm/CommReport.hpp"
#include "comm/GridCommunicator.hpp"
#include "comm/MessageSizes.hpp"
#include "comm/PatternSet.hpp"
#include "common/MethodRules.hpp"
#include "common/ProcessMemory.hpp"

namespace pbench::comm {
namespace {

using worker::UsageError;

struct State {
  CommOptions options;
  CommConfig config;
};

/// Processes on this node (collective).
int ranks_on_node(MPI_Comm world) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  return local;
}

std::vector<int> mpi_dims(int nnodes, int ndims) {
  std::vector<int> dims(static_cast<std::size_t>(ndims), 0);
  MPI_Dims_create(nnodes, ndims, dims.data());
  return dims;
}

int print_description(const CommConfig& config) {
  std::optional<MessageSizes> sizes;
  if (config.memory_per_process) sizes = MessageSizes::for_memory(*config.memory_per_process);
  const PatternSet set =
      PatternSet::build(config.nprocs, config.random_patterns, config.seed.value_or(0));
  if (config.json) {
    std::cout << CommReport::describe_json(config, set, sizes).dump(1) << "\n";
  } else {
    std::cout << CommReport::describe_text(config, set, sizes);
  }
  return 0;
}

void run(worker::WorkerContext& context, const CommConfig& config) {
  worker::MpiSession& mpi = context.mpi;
  const MPI_Comm world = mpi.world();
  const int n = mpi.size();
  if (n < 2) {
    throw UsageError("b_eff needs at least 2 processes; this run has " + std::to_string(n) +
                     " (start it with mpiexec -n 2 or more)");
  }
  std::vector<std::string> warnings;
  std::vector<std::string> reasons;

  // Memory per process: the parameter, or the allocation (Slurm, cgroup) or else the node's
  // physical memory divided by the processes on the node, the smallest over the nodes (one L_max
  // for every process).
  const int local_ranks = ranks_on_node(world);
  std::uint64_t memory = config.memory_per_process.value_or(0);
  std::string memory_source = "--memory-per-proc";
  if (memory == 0) {
    const worker::ProcessMemory least = worker::least_process_memory(world);
    memory = static_cast<std::uint64_t>(least.bytes);
    memory_source = least.source;
  }
  const MessageSizes sizes = MessageSizes::for_memory(memory);  // every rank alike
  if (sizes.clamped) {
    warnings.push_back("L_max clamped to " + std::to_string(sizes.l_max) +
                       " B (128 MiB, the paper's limit for a 32-bit int); memory per process / "
                       "128 would give " +
                       std::to_string(sizes.l_max_from_memory) + " B");
  }

  std::uint32_t seed = config.seed.value_or(0);
  if (!config.seed) {
    if (mpi.is_root()) seed = std::random_device{}();
    MPI_Bcast(&seed, 1, MPI_UINT32_T, 0, world);
  }
  warnings.insert(warnings.begin(), CommReport::seed_note(seed, !config.seed));

  // The Cartesian grids come from MPI_Dims_create and MPI_Cart_create; --describe computes the
  // same dims without MPI and assumes grid rank = world rank.
  CartesianGrid grid2 = CartesianGrid::for_size(n, 2, mpi_dims);
  CartesianGrid grid3 = CartesianGrid::for_size(n, 3, mpi_dims);
  for (const CartesianGrid* g : {&grid2, &grid3}) {
    if (g->dims != CartesianGrid::for_size(n, g->ndims()).dims) {
      warnings.push_back("MPI_Dims_create gives the " + std::to_string(g->ndims()) + "-D grid " +
                         g->shape() + ", --describe shows another");
    }
  }
  const GridCommunicator comm2(world, grid2.dims);
  const GridCommunicator comm3(world, grid3.dims);
  grid2.world_rank = comm2.world_rank();
  grid3.world_rank = comm3.world_rank();
  const PatternSet set = PatternSet::build(n, config.random_patterns, seed, grid2, grid3);

  int crowded = local_ranks > sysconf(_SC_NPROCESSORS_ONLN) ? local_ranks : 0;
  MPI_Allreduce(MPI_IN_PLACE, &crowded, 1, MPI_INT, MPI_MAX, world);
  if (crowded > 0) {
    warnings.push_back(std::to_string(crowded) +
                       " processes share a node with fewer cores: they "
                       "wait for a core, so the timings say little about the network");
  }

  const CommReport report(config, set, sizes, memory_source, !config.seed,
                          worker::NodeLayout(mpi.rank_hosts()));
  if (mpi.is_root()) report.header(context.protocol);

  Benchmark benchmark(world, set, {&comm2, &comm3}, sizes.l_max);
  BenchmarkPlan plan;
  plan.sizes = sizes.sizes;
  plan.positions = config.positions;
  plan.methods = config.methods;
  plan.repetitions = config.repetitions;
  plan.loop = LoopLengthPolicy(config.start_looplength, config.window_min, config.window_max);
  plan.max_time = config.max_time;
  plan.deadline = &context.deadline;
  const BenchmarkOutcome outcome =
      benchmark.run(plan, [&](int repetition, int position, double elapsed) {
        report.progress(context.protocol, repetition, position, elapsed);
      });
  if (!mpi.is_root()) return;

  const BeffFigures figures = BeffFigures::reduce(report.reduction_input(), outcome.rows);
  // First among the reasons: figures that cannot be (a bandwidth or time of zero or less).
  const auto impossible = figures.physical_limits(outcome.rows).reasons();
  reasons.insert(reasons.begin(), impossible.begin(), impossible.end());
  if (!config.departures.empty()) {
    reasons.push_back(worker::MethodRules::comm_reason(config.departures));
  }
  if (outcome.stopped && !outcome.deadline) {
    char limit[32];
    std::snprintf(limit, sizeof(limit), "%g", config.max_time);
    reasons.push_back("stopped by --max-time " + std::string(limit) +
                      " s: " + std::to_string(outcome.rows.size()) + " of " +
                      std::to_string(outcome.planned) +
                      " measurements done; figures whose measurements are missing are null");
  }
  std::int64_t errors = 0;
  std::size_t failed = 0;
  for (const Measurement& m : outcome.rows) {
    errors += m.check_errors;
    failed += m.check_errors > 0 ? 1 : 0;
  }
  if (errors > 0) {
    reasons.push_back("byte check failed: " + std::to_string(errors) + " received messages in " +
                      std::to_string(failed) + " measurements had a wrong first or last byte");
  }
  report.results(context.protocol, outcome, figures, reasons, warnings);
  report.fill(context.result, outcome, figures);
  for (auto& w : warnings) context.result.add_warning(w);
  for (auto& r : reasons) context.result.invalidate(r);
}

}  // namespace

worker::WorkerSpec comm_worker_spec() {
  auto state = std::make_shared<State>();
  worker::WorkerSpec spec;
  spec.name = "comm";
  spec.description =
      "pbench-comm: the effective bandwidth b_eff (Rabenseifner & Koniges): rings, random rings "
      "and additional patterns, 21 message sizes, three MPI methods";
  spec.declare = [state](worker::Parameters& parameters) { state->options.declare(parameters); };
  spec.before_mpi = [state]() {
    state->config = CommConfig::check(state->options);  // throws UsageError: run_worker says it
    if (state->config.describe) {
      return worker::is_reporting_process() ? print_description(state->config) : 0;
    }
    return -1;
  };
  spec.body = [state](worker::WorkerContext& context) { run(context, state->config); };
  return spec;
}

}  // namespace pbench::comm
