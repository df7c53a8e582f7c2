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
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "common/WorkerMain.hpp"
#include "io/ConsortiumSmallFiles.hpp"

namespace pbench::io {

namespace {

enum class Test { sustained_write, cached_write, sustained_read };

const char* test_name(Test test) {
  switch (test) {
    case Test::sustained_write:
      return "sustained_write";
    case Test::cached_write:
      return "cached_write";
    case Test::sustained_read:
      return "sustained_read";
  }
  return "";
}

/// The times of one process in one test [s].
struct ProcessTimes {
  double open = 0;
  double transfer = 0;  ///< write (with sync in sustained write) or read
  double close = 0;
  double total = 0;  ///< from before the open to after the close
};

void check(int code, const std::string& what, const std::string& path) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error("cannot " + what + " '" + path + "': " + std::string(text, length));
}

}  // namespace

ConsortiumRun::ConsortiumRun(const worker::MpiSession& mpi, const IoConfig& io,
                             const ConsortiumConfig& config)
    : mpi_(mpi), io_(io), config_(config) {}

void ConsortiumRun::measure(worker::ResultDocument& result, std::ostream& protocol) {
  const MPI_Comm comm = mpi_.world();
  const int n = mpi_.size();
  const int rank = mpi_.rank();
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
             << layout.seed << "\n";
  }

  // The run's own new directory for the files.
  const std::string parent = io_.dir.empty() ? "." : io_.dir;
  std::string directory;
  std::string problem;
  if (root) {
    std::string pattern = parent + "/pbench-io.XXXXXX";
    std::vector<char> text(pattern.begin(), pattern.end());
    text.push_back('\0');
    if (mkdtemp(text.data()) == nullptr) {
      problem = "--dir: cannot create a directory in '" + parent + "': " + std::strerror(errno);
    } else {
      char resolved[PATH_MAX];
      directory = realpath(text.data(), resolved) ? resolved : text.data();
    }
  }
  problem = broadcast_string(problem, comm);
  if (!problem.empty()) throw worker::UsageError(problem);
  directory = broadcast_string(directory, comm);

  // Sustained read: process r reads the data of process r+1 (mod n), never its own.
  const int source = (rank + 1) % n;
  const int my_client = fpp ? 0 : rank;
  const int source_client = fpp ? 0 : source;
  const std::vector<Transfer> mine = layout.transfers(my_client);
  const std::vector<Transfer> theirs = layout.transfers(source_client);
  // Collective calls: every process makes as many calls as the process with the most transfers.
  long long local_calls = static_cast<long long>(std::max(mine.size(), theirs.size()));
  long long calls = 0;
  MPI_Allreduce(&local_calls, &calls, 1, MPI_LONG_LONG, MPI_MAX, comm);

  // One buffer byte per byte moved: no buffer byte is used twice in a test.
  const std::int64_t bytes = layout.bytes_per_client();
  std::vector<unsigned char> out(static_cast<std::size_t>(bytes));
  {
    std::size_t at = 0;
    for (const Transfer& t : mine) {
      for (std::int64_t i = 0; i < t.size; ++i) out[at++] = stamp_byte(rank, t.offset + i);
    }
  }
  std::vector<unsigned char> in(static_cast<std::size_t>(bytes));
  const HintList hints = io_.hints.for_type(-1);
  const std::int64_t total_bytes = bytes * n;

  auto path_of = [&](Test test, int iteration, int process) {
    std::string path = directory + "/" + config_.filename + "." + test_name(test) + "." +
                       std::to_string(iteration);
    if (fpp) path += "." + std::to_string(process);
    return path;
  };

  auto run_test = [&](Test test, int iteration) {
    const bool writing = test != Test::sustained_read;
    const int owner = writing ? rank : source;
    const std::string path = path_of(
        test == Test::cached_write ? Test::cached_write : Test::sustained_write, iteration, owner);
    const std::vector<Transfer>& plan = writing ? mine : theirs;
    std::vector<unsigned char>& buffer = writing ? out : in;
    const MPI_Comm fcomm = fpp ? MPI_COMM_SELF : comm;
    const int amode = writing ? MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    ProcessTimes times;
    double start = 0;
    double opened = 0;
    double transferred = 0;
    double closed = 0;
    if (config_.posix) {
      // POSIX: the run directory is new, so a shared file is created by whoever opens first.
      const int flags = writing ? O_CREAT | O_WRONLY | (fpp ? O_EXCL : 0) : O_RDONLY;
      MPI_Barrier(comm);
      start = worker::now();
      const int fd = ::open(path.c_str(), flags, 0644);
      if (fd < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
      opened = worker::now();
      std::size_t at = 0;
      for (const Transfer& t : plan) {
        unsigned char* data = buffer.data() + at;
        std::int64_t done = 0;
        while (done < t.size) {  // a POSIX call may move fewer bytes than asked
          const ssize_t moved =
              writing ? ::pwrite(fd, data + done, static_cast<std::size_t>(t.size - done),
                                 static_cast<off_t>(t.offset + done))
                      : ::pread(fd, data + done, static_cast<std::size_t>(t.size - done),
                                static_cast<off_t>(t.offset + done));
          if (moved <= 0) {
            throw std::runtime_error(
                std::string("cannot ") + (writing ? "write to" : "read from") + " '" + path +
                "': " + (moved == 0 ? "unexpected end of file" : std::strerror(errno)));
          }
          done += moved;
        }
        at += static_cast<std::size_t>(t.size);
      }
      if (test == Test::sustained_write && ::fsync(fd) != 0) {
        throw std::runtime_error("cannot sync '" + path + "': " + std::strerror(errno));
      }
      transferred = worker::now();
      if (::close(fd) != 0) {
        throw std::runtime_error("cannot close '" + path + "': " + std::strerror(errno));
      }
      closed = worker::now();
    } else {
      MPI_Info info = make_info(hints);
      MPI_File fh = MPI_FILE_NULL;
      MPI_Barrier(comm);
      start = worker::now();
      check(MPI_File_open(fcomm, path.c_str(), amode, info, &fh), "open", path);
      opened = worker::now();
      MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
      std::size_t at = 0;
      for (long long c = 0; c < calls; ++c) {
        const bool real = c < static_cast<long long>(plan.size());
        const MPI_Offset offset = real ? plan[c].offset : 0;
        const int count = real ? static_cast<int>(plan[c].size) : 0;
        if (!real && !config_.collective) break;
        unsigned char* data = buffer.data() + at;
        int code = MPI_SUCCESS;
        if (writing) {
          code = config_.collective
                     ? MPI_File_write_at_all(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE)
                     : MPI_File_write_at(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
        } else {
          code = config_.collective
                     ? MPI_File_read_at_all(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE)
                     : MPI_File_read_at(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
        }
        check(code, writing ? "write to" : "read from", path);
        at += static_cast<std::size_t>(count);
      }
      if (test == Test::sustained_write) check(MPI_File_sync(fh), "sync", path);
      transferred = worker::now();
      check(MPI_File_close(&fh), "close", path);
      closed = worker::now();
      if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    }
    times.open = opened - start;
    times.transfer = transferred - opened;
    times.close = closed - transferred;
    times.total = closed - start;

    // The read check (outside the timing): every byte must be the source process's stamp.
    long long errors = 0;
    if (!writing) {
      std::size_t k = 0;
      for (const Transfer& t : plan) {
        for (std::int64_t i = 0; i < t.size; ++i) {
          if (in[k++] != stamp_byte(source, t.offset + i)) ++errors;
        }
      }
    }
    long long all_errors = 0;
    MPI_Reduce(&errors, &all_errors, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
    double mine_times[4] = {times.open, times.transfer, times.close, times.total};
    std::vector<double> gathered(root ? static_cast<std::size_t>(4 * n) : 0);
    MPI_Gather(mine_times, 4, MPI_DOUBLE, gathered.data(), 4, MPI_DOUBLE, 0, comm);
    std::vector<ProcessTimes> per_process;
    for (int p = 0; root && p < n; ++p) {
      per_process.push_back(
          {gathered[4 * p], gathered[4 * p + 1], gathered[4 * p + 2], gathered[4 * p + 3]});
    }
    return std::make_pair(per_process, all_errors);
  };

  const std::vector<Test> tests = {Test::sustained_write, Test::cached_write, Test::sustained_read};
  std::vector<std::pair<Test, std::pair<int, std::pair<std::vector<ProcessTimes>, long long>>>>
      runs;
  for (int iteration = 0; iteration < config_.iterations; ++iteration) {
    for (Test test : tests) runs.push_back({test, {iteration, run_test(test, iteration)}});
  }
  if (config_.small_files) {
    measure_small_files(
        mpi_, {directory, config_.files_per_process, config_.small_file_size, config_.iterations},
        result, protocol);
  }
  if (!io_.keep) {
    MPI_Barrier(comm);
    for (int iteration = 0; iteration < config_.iterations; ++iteration) {
      for (Test test : {Test::sustained_write, Test::cached_write}) {
        if (fpp) {
          MPI_File_delete(path_of(test, iteration, rank).c_str(), MPI_INFO_NULL);
        } else if (root) {
          MPI_File_delete(path_of(test, iteration, 0).c_str(), MPI_INFO_NULL);
        }
      }
    }
    MPI_Barrier(comm);
    if (root) rmdir(directory.c_str());
  }
  if (!root) return;

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
  long long total_errors = 0;
  for (const auto& [test, rest] : runs) {
    const auto& [iteration, measured] = rest;
    const auto& [per_process, errors] = measured;
    total_errors += errors;
    double aggregate = 0;
    std::vector<double> opens, moves, closes;
    for (int p = 0; p < n; ++p) {
      const ProcessTimes& t = per_process[static_cast<std::size_t>(p)];
      processes.add_row(
          {test_name(test), iteration, p,
           test == Test::sustained_read ? nlohmann::json((p + 1) % n) : nlohmann::json(p), bytes,
           t.open, t.transfer, t.close, t.total});
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

  for (Test test : tests) {
    double best = 0;
    for (const auto& [t, rest] : runs) {
      if (t != test) continue;
      double aggregate = 0;
      for (const ProcessTimes& p : rest.second.first) aggregate = std::max(aggregate, p.total);
      if (aggregate > 0) best = std::max(best, total_bytes / aggregate);
    }
    result.add_metric(std::string(test_name(test)) + "_transfer_rate",
                      best > 0 ? std::optional<double>(best) : std::nullopt, "B/s",
                      static_cast<std::size_t>(config_.iterations),
                      {{"pattern", pattern_name(layout.pattern)},
                       {"collective", config_.collective ? 1 : 0},
                       {"file_per_process", fpp ? 1 : 0},
                       {"api", config_.posix ? "posix" : "mpiio"},
                       {"transfer_size", layout.transfer_size},
                       {"statistic", "maximum over iterations"}});
    protocol << "  " << test_name(test) << ": maximum transfer rate " << best / 1e6 << " MB/s over "
             << config_.iterations << " iteration(s), " << total_bytes << " B per iteration\n";
  }
  if (config_.posix && !hints.empty()) {
    result.add_warning("MPI-IO hints were given but --api posix does not use them");
  }
  if (n == 1) {
    result.add_warning(
        "sustained_read: with one process the reader reads its own data (no other process)");
  }
  const std::int64_t cache = io_.cache_bytes ? *io_.cache_bytes : physical_memory();
  if (static_cast<double>(total_bytes) < kCacheFactor * static_cast<double>(cache)) {
    result.add_warning("the data set (" + std::to_string(total_bytes) +
                       " B per test) is not large against the cache (" + std::to_string(cache) +
                       " B): the reads and the cached write may measure memory, not storage");
  }
  if (total_errors > 0) {
    result.invalidate("sustained_read: " + std::to_string(total_errors) +
                      " bytes differed from what the other process wrote");
  }
}

}  // namespace pbench::io
