#include "io/IoRun.hpp"
#include "common/Deadline.hpp"
#include "io/MpiIoSupport.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/EnumName.hpp"
#include "common/MpiCost.hpp"
#include "common/ProcessMemory.hpp"
#include "common/WorkerMain.hpp"
#include "io/ChunkStamp.hpp"
#include "io/DeletionProbe.hpp"
#include "io/IoBuffer.hpp"
#include "io/RunState.hpp"
#include "io/Schedule.hpp"
#include "io/TypeRun.hpp"

namespace pbench::io {

const char* access_name(Access access) {
  constexpr EnumName<Access> kNames[] = {
      {Access::write, "write"}, {Access::rewrite, "rewrite"}, {Access::read, "read"}};
  return name_of(kNames, access);
}

const char* drive_name(Drive drive) {
  constexpr EnumName<Drive> kNames[] = {{Drive::single, "single"},
                                        {Drive::time, "time"},
                                        {Drive::size, "size"},
                                        {Drive::replay, "replay"}};
  return name_of(kNames, drive);
}

namespace {

class Runner {
 public:
  Runner(const worker::MpiSession& mpi, const IoConfig& config, IoRun::PatternCallback callback,
         worker::DeadlineWatch* deadline)
      : s_(mpi, config, std::move(callback), deadline) {}

  IoMeasurements run();

 private:
  /// The run's set-up: memory and chunk sizes, the cache, the directory, the buffer, the plan.
  void prepare();
  /// Release 2: all partitions write, then all rewrite, then all read; false when it stopped.
  bool run_accesses();
  void corrupt_files();
  void remove_files();
  /// The untimed deletion probe of a guarded run (DeletionProbe.hpp), on rank 0, shared.
  void probe_deletion();

  RunState s_;
  std::vector<Partition> partitions_;
};

void Runner::corrupt_files() {
  if (s_.mpi.is_root()) {
    const std::uint64_t garbage = 0x0badc0dedeadbeefULL;
    for (const Partition& p : partitions_) {
      for (int type = 0; type < kPatternTypes; ++type) {
        const std::string path = s_.path_of(p.n, type, 0);
        const int fd = ::open(path.c_str(), O_WRONLY);
        if (fd < 0 || ::pwrite(fd, &garbage, sizeof(garbage), 0) != sizeof(garbage)) {
          if (fd >= 0) ::close(fd);
          throw std::runtime_error("--inject-corruption: cannot write '" + path +
                                   "': " + std::strerror(errno));
        }
        ::fsync(fd);
        ::close(fd);
      }
    }
    s_.m.corruption_injected = true;
  }
  MPI_Barrier(s_.mpi.world());
}

void Runner::remove_files() {
  remove_benchmark_files(s_.mpi, s_.m.directory, s_.m.partitions);
}

void Runner::probe_deletion() {
  if (s_.mpi.is_root()) {
    const DeletionProbe probe =
        io::probe_deletion(s_.m.directory, s_.buffer, s_.config.deletion_delay);
    if (probe.problem.empty()) {
      s_.m.probe_time = probe.seconds;
      s_.m.probe_bytes = probe.bytes;
      s_.plan->probed_read(probe.write_seconds, probe.read_seconds);
    } else {
      s_.m.probe_problem = probe.problem;
    }
  }
  MPI_Bcast(&s_.m.probe_time, 1, MPI_DOUBLE, 0, s_.mpi.world());
  MPI_Bcast(&s_.m.probe_bytes, 1, MPI_DOUBLE, 0, s_.mpi.world());
  s_.plan->probed_deletion(s_.m.probe_bytes, s_.m.probe_time);
  // Rank 0's read over write, so that every rank plans alike.
  double read_ratio = s_.mpi.is_root() ? s_.plan->cost_ratio(RowCost::read) : 0;
  MPI_Bcast(&read_ratio, 1, MPI_DOUBLE, 0, s_.mpi.world());
  if (!s_.mpi.is_root()) s_.plan->probed_read(1, read_ratio);
}

void Runner::prepare() {
  const MPI_Comm world = s_.mpi.world();
  const int size = s_.mpi.size();
  s_.m.nprocs = size;
  s_.m.schedule_time = s_.config.schedule_time;
  s_.m.termination = s_.config.termination;
  s_.m.rewrite_all = s_.config.rewrite_all;
  s_.m.kept = s_.config.keep;
  s_.m.guard_factor = s_.config.guard_factor;
  s_.m.collective_write_delay = s_.config.collective_write_delay;
  s_.m.call_delays = s_.config.call_delays;
  s_.m.deletion_delay = s_.config.deletion_delay;
  s_.m.buffer_offset = s_.config.buffer_offset;
  s_.m.partitions = s_.config.partitions_for(size);
  s_.schedule = {s_.config.schedule_time, static_cast<int>(s_.m.partitions.size()),
                 s_.config.rewrite_all};
  s_.m.schedule = s_.schedule;
  s_.m.unique_open = s_.config.unique_open;
  s_.m.hints = s_.config.hints.hints();

  // Memory per process: the parameter, or the allocation (Slurm, cgroup) or else the node's
  // memory / processes on the node (the smallest over the nodes, so every process has the same
  // M_PART).
  std::int64_t memory = s_.config.memory_per_process.value_or(0);
  s_.m.memory_source = "--memory-per-proc";
  if (memory == 0) {
    const worker::ProcessMemory least = worker::least_process_memory(world);
    memory = least.bytes;
    s_.m.memory_source = least.source;
  }
  s_.m.chunks = ChunkSizes::for_memory(memory);
  s_.table = PatternTable(s_.m.chunks.m_part);
  if (s_.config.cache_bytes) {
    s_.m.cache_bytes = *s_.config.cache_bytes;
    s_.m.cache_source = "--cache-bytes";
  } else {
    long long mine = physical_memory();
    long long most = mine;
    MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, world);
    s_.m.cache_bytes = most;
    s_.m.cache_source = "physical memory of the node";
  }

  // The run's own new directory for the files, checked (untimed).
  RunDirectory run_directory =
      make_run_directory(s_.mpi, s_.config.dir, s_.config.hints.for_type(-1));
  s_.m.directory = run_directory.path;
  if (s_.mpi.is_root()) s_.m.read_back = std::move(run_directory.read_back);
  // Placed as b_eff_io rev 2.1's buffers by default (IoBuffer.hpp): where it starts changes
  // what a read from the page cache costs on some processors.
  s_.buffer = IoBuffer(static_cast<std::size_t>(s_.table.largest_memory_chunk()),
                       static_cast<std::size_t>(s_.config.buffer_offset),
                       static_cast<std::byte>(0x5a + s_.mpi.rank()));

  // A guarded run plans what it cannot cut (TimePlan.hpp): every pattern's units, the opens and
  // closes of every type's file per access method, and the read's deletion, whose rate an
  // untimed probe gives first.
  if (s_.config.guard_factor) {
    const int partitions = static_cast<int>(s_.m.partitions.size());
    const int rewritten = s_.config.rewrite_all ? kPatternTypes : 1;
    const int type0_rows = static_cast<int>(s_.table.rows_of_type(0).size());
    const int rows =
        partitions * (2 * kPatternCount + (s_.config.rewrite_all ? kPatternCount : type0_rows));
    PlanUnits units;
    for (int type = 0; type < kPatternTypes; ++type) {
      for (const PatternRow& row : s_.table.rows_of_type(type)) {
        (type <= 2 ? units.timed : units.sized) += partitions * row.time_units;
        if (type < rewritten) units.rewrite += partitions * row.time_units;
        units.read += partitions * row.time_units;
      }
    }
    s_.plan.emplace(s_.schedule, rows, units, partitions * (2 * kPatternTypes + rewritten),
                    !s_.config.keep);
    if (!s_.config.keep) {
      s_.account.mark(TimePart::setup, worker::now());
      probe_deletion();
      s_.account.mark(TimePart::deletion_probe, worker::now());
    }
  }

  for (int n : s_.m.partitions) {
    Partition p;
    p.n = n;
    p.index = static_cast<int>(partitions_.size());
    MPI_Comm_split(world, s_.mpi.rank() < n ? 0 : MPI_UNDEFINED, s_.mpi.rank(), &p.comm);
    if (p.comm != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(p.comm, MPI_ERRORS_RETURN);
      MPI_Comm_rank(p.comm, &p.rank);
    }
    partitions_.push_back(std::move(p));
  }
}

bool Runner::run_accesses() {
  const MPI_Comm world = s_.mpi.world();
  bool running = true;
  for (Access access : kAccesses) {
    if (!running) break;
    if (access == Access::read && s_.config.inject_corruption) corrupt_files();
    for (Partition& p : partitions_) {
      const double started = worker::now();
      // 1: stopped at the deadline, 2: stopped on an error.
      int stopped = 0;
      if (p.comm != MPI_COMM_NULL) {
        for (int type = 0; type < kPatternTypes; ++type) {
          if (access == Access::rewrite && type != 0 && !s_.config.rewrite_all) continue;
          if (!run_type(s_, p, access, type)) {
            stopped = s_.deadline && s_.deadline->stopped() ? 1 : 2;
            break;
          }
        }
      }
      p.elapsed += worker::now() - started;
      if (access == Access::write) p.write_elapsed = worker::now() - started;
      MPI_Allreduce(MPI_IN_PLACE, &stopped, 1, MPI_INT, MPI_MAX, world);
      if (stopped) {
        running = false;
        // An error wins over the deadline; ranks outside the partition learn of the deadline here.
        if (stopped == 1 && s_.deadline) {
          s_.deadline->stop(s_.m.stopped_at);
          s_.m.deadline_stop = true;
        }
        break;
      }
    }
  }
  return running;
}

IoMeasurements Runner::run() {
  const double run_started = worker::now();
  s_.run_started = run_started;
  s_.account = TimeAccount(run_started);
  prepare();
  s_.account.mark(TimePart::setup, worker::now());
  const bool running = run_accesses();
  if (!running && !s_.m.deadline_stop) {
    s_.m.failure = s_.mpi.is_root() ? s_.failure_text : std::string("the run stopped on an error");
  }

  for (Partition& p : partitions_) {
    s_.m.timings.push_back({p.n, s_.schedule.partition_time(), p.elapsed, p.write_elapsed, p.plan});
  }
  s_.account.mark(TimePart::bookkeeping, worker::now());
  // After a deadline stop the files stay until the result is written (IoWorker): removing a
  // few GB can take seconds on a file system that discards freed blocks, past the deadline.
  if (!s_.config.keep && !s_.m.deadline_stop) remove_files();
  for (Partition& p : partitions_) {
    if (p.comm != MPI_COMM_NULL) MPI_Comm_free(&p.comm);
  }
  s_.account.mark(TimePart::removal, worker::now());
  if (s_.plan) {
    s_.m.sync_per_byte = s_.plan->sync_per_byte();
    s_.m.deletion_per_byte = s_.plan->deletion_per_byte();
  }
  s_.m.account = s_.account;
  s_.m.elapsed = s_.account.total();
  return s_.m;
}

}  // namespace

std::string benchmark_file(const std::string& directory, int partition, int type, int rank) {
  std::string name = directory + "/p" + std::to_string(partition) + "_type" + std::to_string(type);
  if (type == 2) name += "_rank" + std::to_string(rank);
  return name;
}

void remove_benchmark_files(const worker::MpiSession& mpi, const std::string& directory,
                            const std::vector<int>& partitions) {
  MPI_Barrier(mpi.world());
  for (int n : partitions) {
    if (mpi.rank() >= n) continue;
    MPI_File_delete(benchmark_file(directory, n, 2, mpi.rank()).c_str(), MPI_INFO_NULL);
    if (mpi.rank() == 0) {
      for (int type : {0, 1, 3, 4}) {
        MPI_File_delete(benchmark_file(directory, n, type, 0).c_str(), MPI_INFO_NULL);
      }
    }
  }
  MPI_Barrier(mpi.world());
  if (mpi.is_root()) ::rmdir(directory.c_str());
}

IoRun::IoRun(const worker::MpiSession& mpi, const IoConfig& config, PatternCallback on_pattern,
             worker::DeadlineWatch* deadline)
    : mpi_(mpi), config_(config), on_pattern_(std::move(on_pattern)), deadline_(deadline) {}

IoMeasurements IoRun::measure() {
  Runner runner(mpi_, config_, on_pattern_, deadline_);
  return runner.run();
}

}  // namespace pbench::io
