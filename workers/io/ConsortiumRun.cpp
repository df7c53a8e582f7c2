#include "io/ConsortiumRun.hpp"
#include "io/MpiIoSupport.hpp"

#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/MpiCost.hpp"
#include "common/PhysicalLimits.hpp"
#include "common/Stats.hpp"
#include "common/WorkerMain.hpp"
#include "io/ConsortiumSmallFiles.hpp"
#include "io/ConsortiumTests.hpp"
#include "io/IoBuffer.hpp"
#include "io/SharedDirectory.hpp"

namespace pbench::io {

ConsortiumRun::ConsortiumRun(const worker::MpiSession& mpi, const IoConfig& io,
                             const ConsortiumConfig& config)
    : mpi_(mpi), io_(io), config_(config) {}

void ConsortiumRun::measure(worker::ResultDocument& result, std::ostream& protocol,
                            worker::DeadlineWatch* deadline) {
  const MPI_Comm comm = mpi_.world();
  const int n = mpi_.size();
  const bool root = mpi_.is_root();
  const bool fpp = config_.file_per_process;

  ConsortiumLayout layout = config_.layout;
  layout.clients = fpp ? 1 : n;
  if (const auto problem = layout.problem()) throw worker::UsageError(*problem);
  if (layout.seed == 0) {
    std::uint64_t seed = 0;
    if (root)
      seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32) | std::random_device{}();
    if (seed == 0) seed = 1;
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, comm);
    layout.seed = seed;
  }
  result.add_seed("transfer_sizes", layout.seed);
  if (root) {
    protocol << "consortium suite: " << pattern_name(layout.pattern) << ", "
             << (fpp ? "file per process" : "one shared file") << ", "
             << (config_.posix        ? "POSIX I/O"
                 : config_.collective ? "collective MPI-IO"
                                      : "independent MPI-IO")
             << ", " << n << " processes, transfer " << layout.transfer_size << " B, block "
             << layout.block_size << " B, " << layout.segment_count << " segments, header "
             << layout.header_bytes << " B, padding " << layout.padding << " B, seed "
             << layout.seed << (config_.preallocate ? ", write files preallocated" : "") << "\n";
  }

  // The run's own new directory for the files, checked (untimed).
  const RunDirectory run_directory = make_run_directory(mpi_, io_.dir, io_.hints.for_type(-1));
  const std::string& directory = run_directory.path;
  if (root) run_directory.read_back.report(result);

  ConsortiumTests tests(mpi_, io_, config_, layout, directory);
  const std::int64_t bytes = tests.bytes();
  const std::int64_t total_bytes = bytes * n;
  ConsortiumRuns runs;
  bool deadline_stop = false;
  for (int iteration = 0;
       iteration < config_.iterations && runs.stopped_at.empty() && !deadline_stop; ++iteration) {
    for (ConsortiumTest test : kConsortiumTests) {
      if (deadline && deadline->reached(comm, "iteration " + std::to_string(iteration) + ", " +
                                                  test_name(test))) {
        deadline_stop = true;
        break;
      }
      TestOutcome measured = tests.run(test, iteration);
      if (agree_on_failure(comm, tests.local_failure(), runs.failure)) {
        runs.stopped_at = "iteration " + std::to_string(iteration) + ", " + test_name(test);
        break;
      }
      runs.done.push_back({test, iteration, std::move(measured)});
    }
  }
  tests.finish();
  if (config_.small_files && runs.stopped_at.empty() && !deadline_stop &&
      !(deadline && deadline->reached(comm, "the small-files test"))) {
    const SmallFilesStop stop = measure_small_files(
        mpi_, {directory, config_.files_per_process, config_.small_file_size, config_.iterations},
        result, protocol);
    if (stop.stopped()) {
      runs.stopped_at = stop.where;
      runs.failure = stop.failure;
    }
  }
  if (!io_.keep || !runs.stopped_at.empty() || (deadline && deadline->stopped())) {
    tests.remove_files();
  }
  if (!root) {
    if (!runs.stopped_at.empty()) throw worker::PartialResult("the run stopped on an error");
    return;
  }
  write_tests(result, layout, runs, bytes);
  write_buffers(result, tests);
  write_rates(result, protocol, layout, runs, total_bytes, tests.caches_dropped());
  judge(result, tests, runs, total_bytes);
  if (!runs.stopped_at.empty()) {
    protocol << "  stopped at " << runs.stopped_at << ": " << runs.failure << "\n";
    result.invalidate("partial result: the run stopped at " + runs.stopped_at + ": " +
                      runs.failure);
    throw worker::PartialResult(runs.failure);
  }
}

void ConsortiumRun::write_tests(worker::ResultDocument& result, const ConsortiumLayout& layout,
                                const ConsortiumRuns& runs, std::int64_t bytes) const {
  const int n = mpi_.size();
  const bool fpp = config_.file_per_process;
  const std::int64_t total_bytes = bytes * n;
  // The result: per-process times, statistics over processes, transfer rates.
  const std::string transfer_column = "transfer_time";
  worker::Table processes({{"test", ""},
                           {"iteration", "count"},
                           {"process", "count"},
                           {"read_process", "count"},
                           {"bytes", "B"},
                           {"open_time", "s"},
                           {transfer_column, "s"},
                           {"close_time", "s"},
                           {"total_time", "s"}});
  std::vector<worker::Column> columns = {{"test", ""},
                                         {"iteration", "count"},
                                         {"processes", "count"},
                                         {"bytes", "B"},
                                         {"transfers", "count"},
                                         {"aggregate_time", "s"},
                                         {"transfer_rate", "B/s"},
                                         {"read_errors", "count"}};
  for (const char* what : {"open_time", "transfer_time", "close_time"}) {
    for (const char* stat : {"min", "mean", "max", "deviation"}) {
      columns.push_back({std::string(what) + "_" + stat, "s"});
    }
  }
  worker::Table& table = result.add_table("consortium_tests", columns);
  long long transfers = 0;
  for (int p = 0; p < n; ++p) {
    transfers += static_cast<long long>(layout.transfers(fpp ? 0 : p).size());
  }
  for (const ConsortiumRuns::Done& done : runs.done) {
    const ConsortiumTest test = done.test;
    const int iteration = done.iteration;
    const std::vector<ProcessTimes>& per_process = done.outcome.per_process;
    const long long errors = done.outcome.errors;
    double aggregate = 0;
    std::vector<double> opens, moves, closes;
    for (int p = 0; p < n; ++p) {
      const ProcessTimes& t = per_process[static_cast<std::size_t>(p)];
      processes.add_row(
          {test_name(test), iteration, p,
           test == ConsortiumTest::sustained_read ? nlohmann::json((p + 1) % n) : nlohmann::json(p),
           bytes, t.open, t.transfer, t.close, t.total});
      aggregate = std::max(aggregate, t.total);
      opens.push_back(t.open);
      moves.push_back(t.transfer);
      closes.push_back(t.close);
    }
    std::vector<nlohmann::json> row = {
        test_name(test),
        iteration,
        n,
        total_bytes,
        transfers,
        aggregate,
        aggregate > 0 ? nlohmann::json(total_bytes / aggregate) : nlohmann::json(nullptr),
        errors};
    for (const auto* values : {&opens, &moves, &closes}) {
      row.push_back(*std::min_element(values->begin(), values->end()));
      double mean = 0;
      for (double v : *values) mean += v;
      row.push_back(mean / n);
      row.push_back(*std::max_element(values->begin(), values->end()));
      row.push_back(consortium_deviation(*values));
    }
    table.add_row(row);
  }

  // Added last: adding a table may move the tables added before.
  result.add_table("consortium_processes", processes.columns()) = processes;
}

void ConsortiumRun::write_buffers(worker::ResultDocument& result,
                                  const ConsortiumTests& tests) const {
  worker::Table& buffers = result.add_table("consortium_buffers", {{"access", ""},
                                                                   {"placement", ""},
                                                                   {"page_offset", "B"},
                                                                   {"bytes", "B"},
                                                                   {"reuse", ""},
                                                                   {"check", ""}});
  buffers.add_row({"write", "page-aligned",
                   static_cast<std::int64_t>(tests.out_buffer().page_offset()), tests.bytes(),
                   "none: one buffer byte per byte moved (the suite's sustained-write rule)", "-"});
  buffers.add_row({"read", "page-aligned",
                   static_cast<std::int64_t>(tests.in_buffer().page_offset()), tests.largest_read(),
                   "one buffer of the largest transfer, reused for every transfer "
                   "(as IOR)",
                   "the first and last byte of every timed transfer; every byte by an "
                   "untimed second read"});
}

void ConsortiumRun::write_rates(worker::ResultDocument& result, std::ostream& protocol,
                                const ConsortiumLayout& layout, const ConsortiumRuns& runs,
                                std::int64_t total_bytes, bool caches_dropped) const {
  const bool fpp = config_.file_per_process;
  for (ConsortiumTest test : kConsortiumTests) {
    double best = 0;
    std::size_t samples = 0;  // the iterations that completed (fewer in a partial result)
    for (const ConsortiumRuns::Done& done : runs.done) {
      if (done.test != test) continue;
      ++samples;
      const double aggregate = done.aggregate();
      if (aggregate > 0) best = std::max(best, total_bytes / aggregate);
    }
    nlohmann::json labels = {
        {"pattern", pattern_name(layout.pattern)}, {"collective", config_.collective ? 1 : 0},
        {"file_per_process", fpp ? 1 : 0},         {"api", config_.posix ? "posix" : "mpiio"},
        {"transfer_size", layout.transfer_size},   {"statistic", "maximum over iterations"}};
    if (test == ConsortiumTest::sustained_read) labels["caches_dropped"] = caches_dropped ? 1 : 0;
    result.add_metric(std::string(test_name(test)) + "_transfer_rate",
                      best > 0 ? std::optional<double>(best) : std::nullopt, "B/s", samples,
                      labels);
    protocol << "  " << test_name(test) << ": maximum transfer rate " << best / 1e6 << " MB/s over "
             << samples << " iteration(s), " << total_bytes << " B per iteration\n";
  }
}

void ConsortiumRun::judge(worker::ResultDocument& result, const ConsortiumTests& tests,
                          const ConsortiumRuns& runs, std::int64_t total_bytes) const {
  const int n = mpi_.size();
  const bool caches_dropped = tests.caches_dropped();
  if (config_.posix && !io_.hints.for_type(-1).empty()) {
    result.add_warning("MPI-IO hints were given but --api posix does not use them");
  }
  if (n == 1) {
    result.add_warning(
        "sustained_read: with one process the reader reads its own data (no other process)");
  }
  for (const std::string& problem : tests.drop_problems()) {
    result.add_warning("--drop-caches: " + problem +
                       ": the caches were not dropped, so the sustained read may read cached "
                       "data, not storage");
  }
  const std::int64_t cache = io_.cache_bytes ? *io_.cache_bytes : physical_memory();
  if (static_cast<double>(total_bytes) < kCacheFactor * static_cast<double>(cache)) {
    result.add_warning(
        "the data set (" + std::to_string(total_bytes) + " B per test) is not large against the " +
        "cache (" + std::to_string(cache) + " B): " +
        (caches_dropped ? "the cached write may measure memory, not storage (the caches were "
                          "dropped before each sustained read)"
                        : "the reads and the cached write may measure memory, not storage"));
  }
  // First among the reasons: a test that took no time (its transfer rate is left out as null).
  std::vector<worker::LabelledValue> aggregates;
  long long total_errors = 0;
  for (const ConsortiumRuns::Done& done : runs.done) {
    total_errors += done.outcome.errors;
    aggregates.push_back(
        {std::string(test_name(done.test)) + " iteration " + std::to_string(done.iteration),
         done.aggregate()});
  }
  worker::PhysicalLimits limits;
  limits.positive_each("aggregate time (open to close, the largest over processes)", aggregates,
                       "s", "its transfer rate is left out");
  for (auto& reason : limits.reasons()) result.invalidate(std::move(reason));
  if (io_.inject_corruption) {
    result.invalidate(
        "test fault --inject-corruption overwrote two bytes of every process's data before each "
        "sustained read");
  }
  if (total_errors > 0) {
    result.invalidate("sustained_read: " + std::to_string(total_errors) +
                      " bytes differed from what the other process wrote (the first and last "
                      "byte of every timed transfer, and every byte read again untimed)");
  }
}

}  // namespace pbench::io
