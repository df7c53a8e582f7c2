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
#include "io/IoBuffer.hpp"
#include "io/SharedDirectory.hpp"

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

constexpr const char* kDropCachesPath = "/proc/sys/vm/drop_caches";

/// Syncs and drops the page cache, dentries and inodes of this node; "" on success, else why not.
std::string drop_caches() {
  ::sync();
  const int fd = ::open(kDropCachesPath, O_WRONLY);
  std::string problem;
  if (fd < 0) {
    problem = std::string("cannot open ") + kDropCachesPath + ": " + std::strerror(errno);
  } else {
    if (::write(fd, "3\n", 2) != 2) {
      problem = std::string("cannot write ") + kDropCachesPath + ": " + std::strerror(errno);
    }
    ::close(fd);
  }
  if (!problem.empty() && ::geteuid() != 0) problem += " (not running as root)";
  return problem;
}

/// Every rank's text gathered at rank 0 of `comm` (collective); empty elsewhere.
std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> starts(lengths.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    starts[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(), MPI_CHAR, 0,
              comm);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(
        all.substr(static_cast<std::size_t>(starts[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}

}  // namespace

ConsortiumRun::ConsortiumRun(const worker::MpiSession& mpi, const IoConfig& io,
                             const ConsortiumConfig& config)
    : mpi_(mpi), io_(io), config_(config) {}

void ConsortiumRun::measure(worker::ResultDocument& result, std::ostream& protocol,
                            worker::DeadlineWatch* deadline) {
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
             << layout.seed << (config_.preallocate ? ", write files preallocated" : "") << "\n";
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
  // Untimed: the directory is seen from every node, and data written on one node reads back on
  // another.
  const ReadBackCheck read_back = check_shared_directory(mpi_, directory, io_.hints.for_type(-1));
  if (root) read_back.report(result);

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

  // The buffers, page-aligned (reading cached pages into a buffer 16 bytes past a page boundary,
  // b_eff_io rev 2.1's placement, ran at a third of the aligned speed here): the writes from one
  // buffer byte per byte moved (no buffer reuse, the suite's rule for the sustained write), the
  // reads into one buffer of the largest transfer, reused for every transfer as IOR does. The
  // result's table consortium_buffers says so.
  const std::int64_t bytes = layout.bytes_per_client();
  IoBuffer out_buffer(static_cast<std::size_t>(std::max<std::int64_t>(bytes, 1)), 0, std::byte{0});
  unsigned char* const out = reinterpret_cast<unsigned char*>(out_buffer.data());
  {
    std::size_t at = 0;
    for (const Transfer& t : mine) {
      for (std::int64_t i = 0; i < t.size; ++i) out[at++] = stamp_byte(rank, t.offset + i);
    }
  }
  std::int64_t largest_read = 1;
  for (const Transfer& t : theirs) largest_read = std::max(largest_read, t.size);
  IoBuffer in_buffer(static_cast<std::size_t>(largest_read), 0, std::byte{0});
  unsigned char* const in = reinterpret_cast<unsigned char*>(in_buffer.data());
  const HintList hints = io_.hints.for_type(-1);
  const std::int64_t total_bytes = bytes * n;

  auto path_of = [&](Test test, int iteration, int process) {
    std::string path = directory + "/" + config_.filename + "." + test_name(test) + "." +
                       std::to_string(iteration);
    if (fpp) path += "." + std::to_string(process);
    return path;
  };

  // A failed call (a full file system, say) is recorded on its rank and the test goes on to its
  // collective end, so every rank can agree to stop with a partial result.
  std::optional<std::string> local_failure;
  const auto fail_mpi = [&](int code, const std::string& what, const std::string& path) {
    if (code == MPI_SUCCESS) return false;
    const int saved = errno;
    if (!local_failure) {
      local_failure = what + " '" + path + "' failed: " + mpi_error_text(code, saved);
    }
    return true;
  };
  const auto fail_posix = [&](const std::string& what, const std::string& path,
                              const std::string& why) {
    if (!local_failure) local_failure = what + " '" + path + "' failed: " + why;
  };

  // --drop-caches: one rank per node drops the node's caches before each sustained read.
  MPI_Comm node = MPI_COMM_NULL;
  int node_rank = 0;
  if (config_.drop_caches) {
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
  }
  std::vector<std::string> drop_problems;  // at rank 0: distinct reasons, in order
  bool caches_dropped = config_.drop_caches;
  const auto drop_node_caches = [&] {
    std::string problem;
    if (node_rank == 0) {
      problem = drop_caches();
      if (!problem.empty()) {
        char host[MPI_MAX_PROCESSOR_NAME] = {};
        int length = 0;
        MPI_Get_processor_name(host, &length);
        problem = std::string(host, static_cast<std::size_t>(length)) + ": " + problem;
      }
    }
    int failed = problem.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
    if (failed) caches_dropped = false;
    for (const std::string& p : gather_strings(problem, comm)) {
      if (!p.empty() &&
          std::find(drop_problems.begin(), drop_problems.end(), p) == drop_problems.end()) {
        drop_problems.push_back(p);
      }
    }
  };

  // --preallocate: the extent of the file a write test makes (of this process's file with
  // --file-per-process), reserved before the timing.
  std::int64_t local_end = 0;
  for (const Transfer& t : mine) local_end = std::max(local_end, t.offset + t.size);
  std::int64_t file_extent = local_end;
  if (!fpp) MPI_Allreduce(&local_end, &file_extent, 1, MPI_INT64_T, MPI_MAX, comm);
  const auto preallocate = [&](const std::string& path, MPI_Comm fcomm) {
    if (config_.posix) {
      if (fpp || root) {
        const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0) {
          fail_posix("preallocate (open)", path, std::strerror(errno));
          return;
        }
        if (const int code = ::posix_fallocate(fd, 0, static_cast<off_t>(file_extent))) {
          fail_posix("preallocate", path, std::strerror(code));
        }
        if (::fsync(fd) != 0) fail_posix("preallocate (sync)", path, std::strerror(errno));
        if (::close(fd) != 0) fail_posix("preallocate (close)", path, std::strerror(errno));
      }
      return;
    }
    MPI_Info info = make_info(hints);
    MPI_File fh = MPI_FILE_NULL;
    const bool open_failed =
        fail_mpi(MPI_File_open(fcomm, path.c_str(),
                               MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, info, &fh),
                 "preallocate (open)", path);
    if (!open_failed) {
      MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
      fail_mpi(MPI_File_preallocate(fh, static_cast<MPI_Offset>(file_extent)), "preallocate", path);
      fail_mpi(MPI_File_sync(fh), "preallocate (sync)", path);
      fail_mpi(MPI_File_close(&fh), "preallocate (close)", path);
    }
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  };

  // Test only (--inject-corruption): before each sustained read every process overwrites two
  // bytes of the data it wrote, the middle byte of its first transfer (only the full read check
  // sees it) and the first byte of its last (the timed spot check sees it too).
  const auto corrupt = [&](int iteration) {
    const std::string path = path_of(Test::sustained_write, iteration, rank);
    const int fd = mine.empty() ? -1 : ::open(path.c_str(), O_WRONLY);
    if (!mine.empty() && fd < 0)
      fail_posix("--inject-corruption: open", path, std::strerror(errno));
    if (fd >= 0) {
      for (const std::int64_t at :
           {mine.front().offset + mine.front().size / 2, mine.back().offset}) {
        const unsigned char wrong = static_cast<unsigned char>(stamp_byte(rank, at) ^ 0xff);
        if (::pwrite(fd, &wrong, 1, static_cast<off_t>(at)) != 1) {
          fail_posix("--inject-corruption: write", path, std::strerror(errno));
        }
      }
      if (::fsync(fd) != 0) fail_posix("--inject-corruption: sync", path, std::strerror(errno));
      ::close(fd);
    }
    MPI_Barrier(comm);
  };

  auto run_test = [&](Test test, int iteration) {
    const bool writing = test != Test::sustained_read;
    const int owner = writing ? rank : source;
    const std::string path = path_of(
        test == Test::cached_write ? Test::cached_write : Test::sustained_write, iteration, owner);
    const std::vector<Transfer>& plan = writing ? mine : theirs;
    // The buffer of a transfer: the writes' own bytes, the reads' one reused buffer.
    const auto buffer_at = [&](std::size_t at) { return writing ? out + at : in; };
    // Reads: the first and last byte of every timed transfer are checked as it ends (two
    // compares a call); every byte is checked after the timing, by a second, untimed read.
    long long spot_errors = 0;
    const auto spot_check = [&](const unsigned char* data, const Transfer& t) {
      if (writing || t.size <= 0) return;
      if (data[0] != stamp_byte(source, t.offset)) ++spot_errors;
      if (t.size > 1 && data[t.size - 1] != stamp_byte(source, t.offset + t.size - 1)) {
        ++spot_errors;
      }
    };
    const MPI_Comm fcomm = fpp ? MPI_COMM_SELF : comm;
    // With --preallocate the write tests open the file made (and its space reserved) before.
    const int amode = !writing              ? MPI_MODE_RDONLY
                      : config_.preallocate ? MPI_MODE_WRONLY
                                            : MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY;
    if (writing && config_.preallocate) preallocate(path, fcomm);
    const char* verb = writing ? "write to" : "read from";
    if (test == Test::sustained_read && io_.inject_corruption) corrupt(iteration);
    if (test == Test::sustained_read && config_.drop_caches) drop_node_caches();
    ProcessTimes times;
    double start = 0;
    double opened = 0;
    double transferred = 0;
    double closed = 0;
    if (config_.posix) {
      // POSIX: the run directory is new, so a shared file is created by whoever opens first.
      const int flags = !writing              ? O_RDONLY
                        : config_.preallocate ? O_WRONLY
                                              : O_CREAT | O_WRONLY | (fpp ? O_EXCL : 0);
      MPI_Barrier(comm);
      start = worker::now();
      const int fd = ::open(path.c_str(), flags, 0644);
      if (fd < 0) fail_posix("open", path, std::strerror(errno));
      opened = worker::now();
      std::size_t at = 0;
      for (const Transfer& t : plan) {
        if (fd < 0 || local_failure) break;
        unsigned char* data = buffer_at(at);
        std::int64_t done = 0;
        while (done < t.size) {  // a POSIX call may move fewer bytes than asked
          const ssize_t moved =
              writing ? ::pwrite(fd, data + done, static_cast<std::size_t>(t.size - done),
                                 static_cast<off_t>(t.offset + done))
                      : ::pread(fd, data + done, static_cast<std::size_t>(t.size - done),
                                static_cast<off_t>(t.offset + done));
          if (moved <= 0) {
            fail_posix(verb, path, moved == 0 ? "unexpected end of file" : std::strerror(errno));
            break;
          }
          done += moved;
        }
        if (done == t.size) spot_check(data, t);
        at += static_cast<std::size_t>(t.size);
      }
      if (fd >= 0 && test == Test::sustained_write && ::fsync(fd) != 0) {
        fail_posix("sync", path, std::strerror(errno));
      }
      transferred = worker::now();
      if (fd >= 0 && ::close(fd) != 0) fail_posix("close", path, std::strerror(errno));
      closed = worker::now();
    } else {
      MPI_Info info = make_info(hints);
      MPI_File fh = MPI_FILE_NULL;
      MPI_Barrier(comm);
      start = worker::now();
      // ROMIO agrees on the outcome of a collective open, so every rank of fcomm sees a failure.
      const bool open_failed =
          fail_mpi(MPI_File_open(fcomm, path.c_str(), amode, info, &fh), "open", path);
      opened = worker::now();
      if (!open_failed) {
        MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
        std::size_t at = 0;
        for (long long c = 0; c < calls; ++c) {
          // After a failure: independent calls stop, collective ones go on empty to the end.
          const bool real = c < static_cast<long long>(plan.size()) && !local_failure;
          if (!real && !config_.collective) break;
          const MPI_Offset offset = real ? plan[c].offset : 0;
          const int count = real ? static_cast<int>(plan[c].size) : 0;
          unsigned char* data = buffer_at(at);
          worker::count_loops(1);  // one transfer
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
          if (!fail_mpi(code, verb, path) && real) spot_check(data, plan[c]);
          at += static_cast<std::size_t>(count);
        }
        if (test == Test::sustained_write) fail_mpi(MPI_File_sync(fh), "sync", path);
        transferred = worker::now();
        fail_mpi(MPI_File_close(&fh), "close", path);
      } else {
        transferred = worker::now();
      }
      closed = worker::now();
      if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    }
    times.open = opened - start;
    times.transfer = transferred - opened;
    times.close = closed - transferred;
    times.total = closed - start;

    // The read check (outside the timing): every byte must be the source process's stamp, read
    // again transfer by transfer into the reused buffer (independently, whatever the test's API).
    long long errors = spot_errors;
    if (!writing && !local_failure) {
      MPI_File fh = MPI_FILE_NULL;
      if (!fail_mpi(MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                    "open (read check)", path)) {
        MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
        for (const Transfer& t : plan) {
          MPI_Status status;
          if (fail_mpi(
                  MPI_File_read_at(fh, t.offset, in, static_cast<int>(t.size), MPI_BYTE, &status),
                  "read (read check)", path)) {
            break;
          }
          int got = 0;
          MPI_Get_count(&status, MPI_BYTE, &got);
          errors += t.size - got;
          for (std::int64_t i = 0; i < got; ++i) {
            if (in[i] != stamp_byte(source, t.offset + i)) ++errors;
          }
        }
        fail_mpi(MPI_File_close(&fh), "close (read check)", path);
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
  std::string failure;     // at rank 0: the first failing rank's error
  std::string stopped_at;  // where the run stopped: "iteration 0, sustained_write"
  bool deadline_stop = false;
  for (int iteration = 0; iteration < config_.iterations && stopped_at.empty() && !deadline_stop;
       ++iteration) {
    for (Test test : tests) {
      if (deadline && deadline->reached(comm, "iteration " + std::to_string(iteration) + ", " +
                                                  test_name(test))) {
        deadline_stop = true;
        break;
      }
      auto measured = run_test(test, iteration);
      if (agree_on_failure(comm, local_failure, failure)) {
        stopped_at = "iteration " + std::to_string(iteration) + ", " + test_name(test);
        break;
      }
      runs.push_back({test, {iteration, std::move(measured)}});
    }
  }
  if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  if (config_.small_files && stopped_at.empty() && !deadline_stop &&
      !(deadline && deadline->reached(comm, "the small-files test"))) {
    const SmallFilesStop stop = measure_small_files(
        mpi_, {directory, config_.files_per_process, config_.small_file_size, config_.iterations},
        result, protocol);
    if (stop.stopped()) {
      stopped_at = stop.where;
      failure = stop.failure;
    }
  }
  if (!io_.keep || !stopped_at.empty() || (deadline && deadline->stopped())) {
    // Every file this run may have made, also those of a test that stopped half way.
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
  if (!root) {
    if (!stopped_at.empty()) throw worker::PartialResult("the run stopped on an error");
    return;
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
  worker::Table& buffers = result.add_table("consortium_buffers", {{"access", ""},
                                                                   {"placement", ""},
                                                                   {"page_offset", "B"},
                                                                   {"bytes", "B"},
                                                                   {"reuse", ""},
                                                                   {"check", ""}});
  buffers.add_row({"write", "page-aligned", static_cast<std::int64_t>(out_buffer.page_offset()),
                   bytes, "none: one buffer byte per byte moved (the suite's sustained-write rule)",
                   "-"});
  buffers.add_row({"read", "page-aligned", static_cast<std::int64_t>(in_buffer.page_offset()),
                   largest_read,
                   "one buffer of the largest transfer, reused for every transfer "
                   "(as IOR)",
                   "the first and last byte of every timed transfer; every byte by an "
                   "untimed second read"});

  for (Test test : tests) {
    double best = 0;
    std::size_t samples = 0;  // the iterations that completed (fewer in a partial result)
    for (const auto& [t, rest] : runs) {
      if (t != test) continue;
      ++samples;
      double aggregate = 0;
      for (const ProcessTimes& p : rest.second.first) aggregate = std::max(aggregate, p.total);
      if (aggregate > 0) best = std::max(best, total_bytes / aggregate);
    }
    nlohmann::json labels = {
        {"pattern", pattern_name(layout.pattern)}, {"collective", config_.collective ? 1 : 0},
        {"file_per_process", fpp ? 1 : 0},         {"api", config_.posix ? "posix" : "mpiio"},
        {"transfer_size", layout.transfer_size},   {"statistic", "maximum over iterations"}};
    if (test == Test::sustained_read) labels["caches_dropped"] = caches_dropped ? 1 : 0;
    result.add_metric(std::string(test_name(test)) + "_transfer_rate",
                      best > 0 ? std::optional<double>(best) : std::nullopt, "B/s", samples,
                      labels);
    protocol << "  " << test_name(test) << ": maximum transfer rate " << best / 1e6 << " MB/s over "
             << samples << " iteration(s), " << total_bytes << " B per iteration\n";
  }
  if (config_.posix && !hints.empty()) {
    result.add_warning("MPI-IO hints were given but --api posix does not use them");
  }
  if (n == 1) {
    result.add_warning(
        "sustained_read: with one process the reader reads its own data (no other process)");
  }
  for (const std::string& problem : drop_problems) {
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
  for (const auto& [test, rest] : runs) {
    double aggregate = 0;
    for (const ProcessTimes& p : rest.second.first) aggregate = std::max(aggregate, p.total);
    aggregates.push_back(
        {std::string(test_name(test)) + " iteration " + std::to_string(rest.first), aggregate});
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
  if (!stopped_at.empty()) {
    protocol << "  stopped at " << stopped_at << ": " << failure << "\n";
    result.invalidate("partial result: the run stopped at " + stopped_at + ": " + failure);
    throw worker::PartialResult(failure);
  }
}

}  // namespace pbench::io
