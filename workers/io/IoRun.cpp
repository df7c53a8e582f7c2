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

#include "common/MpiCost.hpp"
#include "common/ProcessMemory.hpp"
#include "common/WorkerMain.hpp"
#include "io/ChunkStamp.hpp"
#include "io/IoBuffer.hpp"
#include "io/Schedule.hpp"
#include "io/TimeGuard.hpp"

namespace pbench::io {

const char* access_name(Access access) {
  switch (access) {
    case Access::write:
      return "write";
    case Access::rewrite:
      return "rewrite";
    case Access::read:
      return "read";
  }
  return "unknown";
}

const char* drive_name(Drive drive) {
  switch (drive) {
    case Drive::single:
      return "single";
    case Drive::time:
      return "time";
    case Drive::size:
      return "size";
    case Drive::replay:
      return "replay";
  }
  return "unknown";
}

namespace {

using worker::UsageError;

HintList read_info(MPI_File fh) {
  HintList out;
  MPI_Info info;
  if (MPI_File_get_info(fh, &info) != MPI_SUCCESS) return out;
  int keys = 0;
  MPI_Info_get_nkeys(info, &keys);
  for (int i = 0; i < keys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1] = {};
    MPI_Info_get_nthkey(info, i, key);
    int length = 0;
    int flag = 0;
    MPI_Info_get_valuelen(info, key, &length, &flag);
    if (!flag) continue;
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    MPI_Info_get(info, key, length + 1, value.data(), &flag);
    value.resize(static_cast<std::size_t>(length));
    out.emplace_back(key, value);
  }
  MPI_Info_free(&info);
  return out;
}

/// One partition: the first n ranks of the world.
struct Partition {
  int n = 0;
  MPI_Comm comm = MPI_COMM_NULL;  ///< MPI_COMM_NULL on ranks outside it
  int rank = -1;
  std::map<int, std::int64_t> repetitions;  ///< write calls per process, by pattern number
  /// Calls per process a later access replays, by pattern number: the write's, or fewer where
  /// the guard cut a rewrite (its data of generation 2 ends there).
  std::map<int, std::int64_t> replay;
  std::map<int, double> file_bytes;  ///< bytes written to each type's file(s), all processes
  std::optional<SegmentPlan> plan;
  std::set<int> rewritten;  ///< types whose data is of generation 2
  double elapsed = 0;
  double write_elapsed = 0;
};

class Runner {
 public:
  Runner(const worker::MpiSession& mpi, const IoConfig& config, IoRun::PatternCallback callback,
         worker::DeadlineWatch* deadline)
      : mpi_(mpi), config_(config), callback_(std::move(callback)), deadline_(deadline) {}

  IoMeasurements run();

 private:
  /// Makes the run's own directory (rank 0) and shares its path.
  void make_directory();
  /// Runs one pattern type of one access method on a partition; false when the run must stop.
  bool run_type(Partition& p, Access access, int type);
  /// Records the first local failure of an MPI call; true when `code` is success.
  bool check(int code, const std::string& what, const std::string& path);
  /// True when some rank of `comm` failed; rank 0 of `comm` then holds the first rank's text.
  bool agree_on_failure(MPI_Comm comm);
  std::string path_of(int partition, int type, int rank) const;
  void corrupt_files();
  void remove_files();
  /// The untimed deletion probe of a guarded run (rank 0 writes, syncs and deletes a file).
  void probe_deletion();
  /// Sleeps `seconds` when positive (the test-only delays).
  static void sleep_for(double seconds);

  const worker::MpiSession& mpi_;
  const IoConfig& config_;
  IoRun::PatternCallback callback_;
  worker::DeadlineWatch* deadline_;
  IoMeasurements m_;
  PatternTable table_{kMinPartChunk};
  Schedule schedule_;
  std::vector<Partition> partitions_;
  IoBuffer buffer_;
  std::optional<std::string> local_failure_;
  std::string failure_text_;
  /// A guarded run's plan of its time (TimePlan.hpp); nothing when unguarded.
  std::optional<TimePlan> plan_;
  TimeAccount account_;
  double run_started_ = 0;
};

void Runner::sleep_for(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

std::string Runner::path_of(int partition, int type, int rank) const {
  return benchmark_file(m_.directory, partition, type, rank);
}

bool Runner::check(int code, const std::string& what, const std::string& path) {
  if (code == MPI_SUCCESS) return true;
  const int saved = errno;
  if (!local_failure_) {
    local_failure_ = what + " '" + path + "' failed: " + mpi_error_text(code, saved);
  }
  return false;
}

bool Runner::agree_on_failure(MPI_Comm comm) {
  std::string text;
  if (!io::agree_on_failure(comm, local_failure_, text)) return false;
  if (!text.empty()) failure_text_ = text;
  return true;
}

void Runner::make_directory() {
  const std::string parent = config_.dir.empty() ? "." : config_.dir;
  std::string path;
  std::string problem;
  if (mpi_.is_root()) {
    std::string pattern = parent + "/pbench-io.XXXXXX";
    std::vector<char> text(pattern.begin(), pattern.end());
    text.push_back('\0');
    if (mkdtemp(text.data()) == nullptr) {
      problem = "--dir: cannot create a directory in '" + parent + "': " + std::strerror(errno);
    } else {
      char resolved[PATH_MAX];
      path = realpath(text.data(), resolved) ? resolved : text.data();
    }
  }
  problem = broadcast_string(problem, mpi_.world());
  if (!problem.empty()) throw UsageError(problem);
  m_.directory = broadcast_string(path, mpi_.world());
}

bool Runner::run_type(Partition& p, Access access, int type) {
  const MPI_Comm pcomm = p.comm;
  const int n = p.n;
  const int k = p.rank;
  const bool root = k == 0;
  const bool writing = access != Access::read;
  const int generation = access == Access::write     ? 1
                         : access == Access::rewrite ? 2
                                                     : (p.rewritten.count(type) ? 2 : 1);
  const std::string path = path_of(n, type, k);
  const std::uint64_t identity = file_identity(n, type, type == 2 ? k : -1);
  const MPI_Comm fcomm = type == 2 ? MPI_COMM_SELF : pcomm;
  const HintList given = config_.hints.for_type(type);
  MPI_Info info = make_info(given);
  const char* verb = writing ? "write to" : "read from";

  if (type >= 3 && access == Access::write) {
    std::map<int, std::int64_t> counts;
    for (const auto& [number, reps] : p.repetitions) {
      if (number < 25) counts[number] = reps;
    }
    p.plan = SegmentPlan::from_counts(table_, counts);
  }
  const std::int64_t segment = type >= 3 ? p.plan->segment : 0;

  TypeMeasurement tm;
  tm.partition = n;
  tm.access = access;
  tm.type = type;

  // Open as the reference code does (read/write, unique open), except that the first write makes
  // a new file and never opens an existing one (MPI_MODE_EXCL). Rev 2.1's read close deletes the
  // file (MPI_MODE_DELETE_ON_CLOSE); here the read's close is followed by the deletion, timed on
  // its own and inside the type's time all the same. Open, close and deletion end in a barrier,
  // inside their time.
  int amode = access == Access::write     ? MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR
              : access == Access::rewrite ? MPI_MODE_RDWR
                                          : MPI_MODE_RDONLY;
  if (config_.unique_open) amode |= MPI_MODE_UNIQUE_OPEN;
  MPI_File fh = MPI_FILE_NULL;
  MPI_Barrier(pcomm);
  double t = worker::now();
  account_.mark(TimePart::bookkeeping, t);
  const bool opened = check(MPI_File_open(fcomm, path.c_str(), amode, info, &fh), "open", path);
  MPI_Barrier(pcomm);
  const double open_end = worker::now();
  const double open_time = open_end - t;
  account_.mark(TimePart::opens, open_end);
  if (plan_) plan_->opened(open_time);
  if (opened) MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  if (agree_on_failure(pcomm)) {
    if (opened) MPI_File_close(&fh);
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    m_.stopped_at = "partition " + std::to_string(n) + ", " + access_name(access) + ", type " +
                    std::to_string(type) + ", open";
    return false;
  }
  if (root) m_.files.push_back({n, access, type, path, given, read_info(fh)});
  // The elementary type, as rev 2.1's: doubles (its ETYPE), so that views, counts and the shared
  // file pointer are in 8-byte units as there; bytes only where M_PART (from an arbitrary
  // --memory-per-proc) is not a multiple of 8. Every other chunk size of the table is.
  const std::int64_t etype_bytes = elementary_bytes(m_.chunks.m_part);
  const bool doubles = etype_bytes == 8;
  const MPI_Datatype etype = doubles ? MPI_DOUBLE : MPI_BYTE;
  bool view_set = false;  // types 1-4: the view is set in the first pattern's time, as rev 2.1

  double my_total = open_time;
  std::int64_t base = 0;  // where the pattern starts: file offset (types 0-2) or in the segment
  int row_index = 0;
  bool stop = false;
  for (const PatternRow& table_row : table_.rows_of_type(type)) {
    PatternRow row = table_row;
    const int index = row_index++;
    // A clean point of the deadline: between pattern rows, decided on the partition (its rank 0
    // is world rank 0), before the row's first call.
    if (deadline_ &&
        deadline_->reached(pcomm, "partition " + std::to_string(n) + ", " + access_name(access) +
                                      ", type " + std::to_string(type) + ", pattern " +
                                      std::to_string(row.number))) {
      m_.stopped_at = deadline_->where();
      stop = true;
      break;
    }
    if (row.fill) {
      row.disk_chunk = p.plan->fill;
      row.memory_chunk = p.plan->fill;
    }
    const std::int64_t l = row.disk_chunk;
    const std::int64_t big_l = row.memory_chunk;
    const std::int64_t chunks = l > 0 ? big_l / l : 1;
    if (doubles && (l % 8 != 0 || big_l % 8 != 0)) {
      throw std::logic_error("pattern " + std::to_string(row.number) + ": chunk of " +
                             std::to_string(l) + " B is not whole doubles");
    }

    PatternMeasurement pm;
    pm.partition = n;
    pm.access = access;
    pm.type = type;
    pm.number = row.number;
    pm.disk_chunk = l;
    pm.memory_chunk = big_l;
    pm.time_units = row.time_units;
    pm.pattern_time = schedule_.pattern_time(row.time_units);
    // A guarded run's share: what its plan leaves this row (never more than T_pattern).
    pm.planned_time =
        plan_ ? plan_->share(row.time_units, worker::now() - run_started_) : pm.pattern_time;
    pm.held_back = plan_ ? plan_->reserve() : 0;
    std::int64_t count = 1;
    if (row.time_units == 0) {
      pm.drive = Drive::single;
    } else if (access == Access::write && type <= 2) {
      pm.drive = Drive::time;
    } else if (access == Access::write) {
      pm.drive = Drive::size;
      count = p.plan->repetitions[static_cast<std::size_t>(index)];
    } else {
      pm.drive = Drive::replay;
      // The count written before: the write's (also where the guard cut it), or for a read of
      // rewritten data the rewrite's where the guard cut that.
      count = p.replay.at(row.number);
    }
    // Where the row's data ends in the file: the write's count, whatever this access does.
    const std::int64_t extent = pm.drive == Drive::replay ? p.repetitions.at(row.number) : 0;
    pm.planned = pm.drive == Drive::time ? 0 : count;
    // Every row with a planned count above one is guarded (size-driven and replaying rows);
    // the time-driven rows keep to their share by the termination rule, which a guarded run also
    // makes plan the sync that follows the calls.
    const bool guarded = pm.drive != Drive::time && config_.guard_factor.has_value();
    const TimeGuard guard(config_.guard_factor.value_or(0), pm.planned_time, count);
    const bool delayed = writing && type == 4 && config_.collective_write_delay > 0;
    const auto call_delay = config_.call_delays.find({static_cast<int>(access), type});
    const double test_delay = call_delay == config_.call_delays.end() ? 0 : call_delay->second;
    // The sync the calls leave for after the loop, as the run has seen it so far (guarded only).
    CallTail sync_tail;
    if (plan_) {
      sync_tail.fixed = plan_->sync_fixed();
      sync_tail.per_call =
          plan_->sync_per_byte() * static_cast<double>(n) * static_cast<double>(big_l);
    }

    // The pattern's time runs from a barrier to the barrier after its sync, and includes
    // setting the file view as in the reference code: type 0's in every pattern (a distributed
    // array built, committed, set and freed), the other types' in their first.
    MPI_Barrier(pcomm);
    const double t0 = worker::now();
    account_.mark(TimePart::bookkeeping, t0);
    if (type == 0) {
      // Distributed array of n rows of l bytes, one row per process (process k's chunk at k*l
      // in each n*l bytes), built as rev 2.1 builds it: MPI_Type_create_darray over doubles.
      MPI_Datatype filetype = MPI_DATATYPE_NULL;
      MPI_Offset disp = base;
      if (doubles) {
        const int gsizes[2] = {n, static_cast<int>(l / 8)};
        const int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE};
        const int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
        const int psizes[2] = {n, 1};
        MPI_Type_create_darray(n, k, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE,
                               &filetype);
      } else {
        MPI_Datatype chunk;
        MPI_Type_contiguous(static_cast<int>(l), MPI_BYTE, &chunk);
        MPI_Type_create_resized(chunk, 0, static_cast<MPI_Aint>(n) * l, &filetype);
        MPI_Type_free(&chunk);
        disp += static_cast<MPI_Offset>(k) * l;
      }
      MPI_Type_commit(&filetype);
      check(MPI_File_set_view(fh, disp, etype, filetype, "native", info), "set view on", path);
      MPI_Type_free(&filetype);
    } else if (!view_set) {
      check(
          MPI_File_set_view(fh, static_cast<MPI_Offset>(k) * segment, etype, etype, "native", info),
          "set view on", path);
      view_set = true;
    }

    auto chunk_offset = [&](std::int64_t call, std::int64_t j) -> std::int64_t {
      switch (type) {
        case 0:
          return base + ((call * chunks + j) * n + k) * l;
        case 1:
          return base + (call * n + k) * l;
        case 2:
          return base + call * l;
        default:
          return static_cast<std::int64_t>(k) * segment + base + call * l;
      }
    };
    const int call_bytes = static_cast<int>(big_l);
    const int call_count = static_cast<int>(big_l / etype_bytes);
    std::byte* data = buffer_.data();
    std::int64_t errors = 0;
    std::int64_t done = 0;          // calls made: where the file's data goes on
    std::int64_t succeeded = 0;     // calls that moved all their bytes
    std::int64_t failed_calls = 0;  // calls that failed or moved less
    std::int64_t target = 1;
    const double budget = pm.planned_time;
    // The collective decision of the termination rule and of the time guard: barrier, rank 0
    // reads its clock since the pattern's start and decides, the decision is broadcast, so every
    // rank stops after the same call.
    auto decide = [&](const auto& rank0_rule) {
      MPI_Barrier(pcomm);
      long long decision = 0;
      if (root) decision = rank0_rule(worker::now() - t0);
      MPI_Bcast(&decision, 1, MPI_LONG_LONG, 0, pcomm);
      return decision;
    };

    while (true) {
      if (writing) {
        for (std::int64_t j = 0; j < chunks; ++j) {
          stamp_chunk(data + j * l, l, stamp_value(identity, generation, chunk_offset(done, j)));
        }
      }
      sleep_for(test_delay);
      worker::count_loops(1);  // one repetition of the pattern's call
      MPI_Status status;
      int code = MPI_SUCCESS;
      switch (type) {
        case 0:
        case 4:
          if (delayed) {
            std::this_thread::sleep_for(
                std::chrono::duration<double>(config_.collective_write_delay));
          }
          code = writing ? MPI_File_write_all(fh, data, call_count, etype, &status)
                         : MPI_File_read_all(fh, data, call_count, etype, &status);
          break;
        case 1:
          code = writing ? MPI_File_write_ordered(fh, data, call_count, etype, &status)
                         : MPI_File_read_ordered(fh, data, call_count, etype, &status);
          break;
        default:
          code = writing ? MPI_File_write(fh, data, call_count, etype, &status)
                         : MPI_File_read(fh, data, call_count, etype, &status);
      }
      // A call that failed, or moved less than asked, moved nothing that counts: not in the
      // row's bytes or repetitions (so not in its bandwidth), and counted in its errors.
      bool moved_all = check(code, verb, path);
      if (moved_all) {
        int moved = 0;
        MPI_Get_count(&status, MPI_BYTE, &moved);
        moved_all = moved == call_bytes;
        if (!moved_all && !local_failure_) {
          local_failure_ = std::string(verb) + " '" + path + "' failed: moved " +
                           std::to_string(moved) + " of " + std::to_string(call_bytes) + " bytes";
        }
      }
      if (moved_all) {
        ++succeeded;
      } else {
        ++failed_calls;
      }
      if (moved_all) {
        if (!writing) {
          for (std::int64_t j = 0; j < chunks; ++j) {
            if (!chunk_matches(data + j * l, l,
                               stamp_value(identity, generation, chunk_offset(done, j)))) {
              ++errors;
            }
          }
        }
      }
      ++done;
      if (pm.drive == Drive::time) {
        if (config_.termination == TerminationRule::reference) {
          const long long go = decide([&](double elapsed) {
            return another_call_fits(done, elapsed, budget, sync_tail) ? 1 : 0;
          });
          if (!go) break;
        } else if (done >= target) {
          const long long next =
              decide([&](double elapsed) { return next_check(done, elapsed, budget, sync_tail); });
          if (next == 0) break;
          target = next;
        }
      } else if (done >= count) {
        break;
      } else if (guarded && done >= target) {
        const long long next =
            decide([&](double elapsed) { return guard.next_check(done, elapsed); });
        if (next == 0) {
          pm.cut = true;
          break;
        }
        target = next;
      }
    }
    double sync_started = 0;
    if (writing) {
      MPI_Barrier(pcomm);
      sync_started = worker::now();
      check(MPI_File_sync(fh), "sync of", path);
    }
    MPI_Barrier(pcomm);
    const double t1 = worker::now();
    const double duration = t1 - t0;
    const double sync_time = writing ? t1 - sync_started : 0;
    account_.mark(TimePart::patterns, t1);
    my_total += duration;

    // Advance past the data of all processes: past what the write wrote, also where a replay was
    // cut short, so that every later row finds its data where the write put it.
    const std::int64_t calls = pm.drive == Drive::replay ? extent : done;
    switch (type) {
      case 0:
        base += static_cast<std::int64_t>(n) * big_l * calls;
        break;
      case 1:
        base += static_cast<std::int64_t>(n) * l * calls;
        break;
      default:
        base += l * calls;
    }
    // A replay cut short leaves the file pointer short of the row's end: set it there (types 1-4;
    // type 0 sets its view at `base` in every row). The shared pointer counts from the view's
    // start (0), the individual one from the process's own (its segment for types 3-4).
    if (calls != done && type >= 1) {
      const MPI_Offset position = static_cast<MPI_Offset>(base / etype_bytes);
      if (type == 1) {
        check(MPI_File_seek_shared(fh, position, MPI_SEEK_SET), "seek in", path);
      } else {
        check(MPI_File_seek(fh, position, MPI_SEEK_SET), "seek in", path);
      }
    }

    std::vector<double> times(root ? static_cast<std::size_t>(n) : 1);
    MPI_Gather(&duration, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, 0, pcomm);
    // Over the processes: wrong chunks and failed calls (sums), the bytes of the calls that
    // succeeded (sum) and the calls every process completed (minimum).
    long long sums[3] = {0, 0, 0};
    const long long mine[3] = {errors, failed_calls, succeeded * big_l};
    MPI_Reduce(mine, sums, 3, MPI_LONG_LONG, MPI_SUM, 0, pcomm);
    long long fewest = 0;
    const long long my_succeeded = succeeded;
    MPI_Reduce(&my_succeeded, &fewest, 1, MPI_LONG_LONG, MPI_MIN, 0, pcomm);
    pm.repetitions = fewest;
    pm.bytes = sums[2];
    pm.failed_calls = sums[1];
    pm.errors = sums[0] + sums[1];
    double longest_sync = 0;
    MPI_Reduce(&sync_time, &longest_sync, 1, MPI_DOUBLE, MPI_MAX, 0, pcomm);
    pm.sync_time = longest_sync;
    const double row_bytes = static_cast<double>(n) * static_cast<double>(big_l * done);
    if (access == Access::write) {
      p.repetitions[row.number] = done;
      p.replay[row.number] = done;
      p.file_bytes[type] += row_bytes;
    } else if (access == Access::rewrite) {
      p.replay[row.number] = std::min(p.replay[row.number], done);
    }
    if (plan_) {
      plan_->bookkeeping(account_.seconds(TimePart::bookkeeping));
      if (writing) plan_->synced(row_bytes, sync_time);
      plan_->pattern_done(row.time_units, access == Access::write, row_bytes, duration);
    }
    if (root) {
      pm.time = worker::describe(times);
      tm.bytes += pm.bytes;
      tm.errors += pm.errors;
      m_.patterns.push_back(pm);
      if (callback_) callback_(pm);
    }
    if (agree_on_failure(pcomm)) {
      m_.stopped_at = "partition " + std::to_string(n) + ", " + access_name(access) + ", type " +
                      std::to_string(type) + ", pattern " + std::to_string(row.number);
      stop = true;
      break;
    }
  }

  t = worker::now();
  account_.mark(TimePart::bookkeeping, t);
  check(MPI_File_close(&fh), "close", path);
  MPI_Barrier(pcomm);
  const double close_end = worker::now();
  const double close_time = close_end - t;
  account_.mark(TimePart::closes, close_end);
  if (plan_) plan_->closed(close_time);
  my_total += close_time;
  // The read's deletion (rev 2.1: inside its close), unless --keep: the partition's rank 0
  // deletes a shared file, every process its own of type 2; a barrier ends it.
  double delete_time = 0;
  if (access == Access::read && !config_.keep && !stop) {
    const double bytes = p.file_bytes[type];
    if (type == 2 || root) {
      sleep_for(config_.deletion_delay * (type == 2 ? bytes / n : bytes) / 1e9);
      check(MPI_File_delete(path.c_str(), MPI_INFO_NULL), "delete", path);
    }
    MPI_Barrier(pcomm);
    const double delete_end = worker::now();
    delete_time = delete_end - close_end;
    account_.mark(TimePart::deletion, delete_end);
    if (plan_) plan_->deleted(bytes, delete_time);
    my_total += delete_time;
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  double maxima[4] = {0, 0, 0, 0};
  const double local[4] = {open_time, close_time, delete_time, my_total};
  MPI_Reduce(local, maxima, 4, MPI_DOUBLE, MPI_MAX, 0, pcomm);
  tm.open_time = maxima[0];
  tm.close_time = maxima[1];
  tm.delete_time = maxima[2];
  tm.total_time = maxima[3];
  tm.complete = !stop;
  if (root) m_.types.push_back(tm);
  if (access == Access::rewrite) p.rewritten.insert(type);
  if (!stop && agree_on_failure(pcomm)) {
    m_.stopped_at = "partition " + std::to_string(n) + ", " + access_name(access) + ", type " +
                    std::to_string(type) + ", close";
    stop = true;
  }
  return !stop;
}

void Runner::corrupt_files() {
  if (mpi_.is_root()) {
    const std::uint64_t garbage = 0x0badc0dedeadbeefULL;
    for (const Partition& p : partitions_) {
      for (int type = 0; type < kPatternTypes; ++type) {
        const std::string path = path_of(p.n, type, 0);
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
    m_.corruption_injected = true;
  }
  MPI_Barrier(mpi_.world());
}

void Runner::remove_files() {
  remove_benchmark_files(mpi_, m_.directory, m_.partitions);
}

void Runner::probe_deletion() {
  // Rank 0 writes the probe in the buffer's chunks, syncs it, closes it and times its deletion:
  // the file system's cost per byte deleted, before the first timed deletion gives it at scale.
  // A probe that fails (a file system too small for it) is said, not fatal: the plan then
  // learns the rate from the run's own deletions, and the run meets the problem, if it is one,
  // in a call it names.
  if (mpi_.is_root()) {
    const std::string path = m_.directory + "/deletion_probe";
    std::string problem;
    auto ok = [&](int code, const char* what) {
      if (code != MPI_SUCCESS && problem.empty()) {
        problem = std::string(what) + " '" + path + "' failed: " + mpi_error_text(code, errno);
      }
      return code == MPI_SUCCESS;
    };
    MPI_File fh = MPI_FILE_NULL;
    if (ok(MPI_File_open(MPI_COMM_SELF, path.c_str(),
                         MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
           "open")) {
      MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
      const std::int64_t chunk =
          std::min<std::int64_t>(static_cast<std::int64_t>(buffer_.size()), 4LL * 1024 * 1024);
      bool writing = true;
      for (std::int64_t at = 0; writing && at < kDeletionProbeBytes; at += chunk) {
        MPI_Status status;
        writing = ok(
            MPI_File_write_at(fh, at, buffer_.data(), static_cast<int>(chunk), MPI_BYTE, &status),
            "write to");
      }
      if (writing) ok(MPI_File_sync(fh), "sync of");
      ok(MPI_File_close(&fh), "close");
    }
    const double t = worker::now();
    if (problem.empty()) {
      sleep_for(config_.deletion_delay * static_cast<double>(kDeletionProbeBytes) / 1e9);
    }
    ok(MPI_File_delete(path.c_str(), MPI_INFO_NULL), "delete");
    if (problem.empty()) {
      m_.probe_time = worker::now() - t;
      m_.probe_bytes = static_cast<double>(kDeletionProbeBytes);
    } else {
      m_.probe_problem = problem;
    }
  }
  MPI_Bcast(&m_.probe_time, 1, MPI_DOUBLE, 0, mpi_.world());
  MPI_Bcast(&m_.probe_bytes, 1, MPI_DOUBLE, 0, mpi_.world());
  plan_->probed_deletion(m_.probe_bytes, m_.probe_time);
}

IoMeasurements Runner::run() {
  const double run_started = worker::now();
  run_started_ = run_started;
  account_ = TimeAccount(run_started);
  const MPI_Comm world = mpi_.world();
  const int size = mpi_.size();
  m_.nprocs = size;
  m_.schedule_time = config_.schedule_time;
  m_.termination = config_.termination;
  m_.rewrite_all = config_.rewrite_all;
  m_.kept = config_.keep;
  m_.guard_factor = config_.guard_factor;
  m_.collective_write_delay = config_.collective_write_delay;
  m_.call_delays = config_.call_delays;
  m_.deletion_delay = config_.deletion_delay;
  m_.buffer_offset = config_.buffer_offset;
  m_.partitions = config_.partitions_for(size);
  schedule_ = {config_.schedule_time, static_cast<int>(m_.partitions.size()), config_.rewrite_all};
  m_.schedule = schedule_;
  m_.unique_open = config_.unique_open;
  m_.hints = config_.hints.hints();

  // Memory per process: the parameter, or the allocation (Slurm, cgroup) or else the node's
  // memory / processes on the node (the smallest over the nodes, so every process has the same
  // M_PART).
  std::int64_t memory = config_.memory_per_process.value_or(0);
  m_.memory_source = "--memory-per-proc";
  if (memory == 0) {
    const worker::ProcessMemory least = worker::least_process_memory(world);
    memory = least.bytes;
    m_.memory_source = least.source;
  }
  m_.chunks = ChunkSizes::for_memory(memory);
  table_ = PatternTable(m_.chunks.m_part);
  if (config_.cache_bytes) {
    m_.cache_bytes = *config_.cache_bytes;
    m_.cache_source = "--cache-bytes";
  } else {
    long long mine = physical_memory();
    long long most = mine;
    MPI_Allreduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, world);
    m_.cache_bytes = most;
    m_.cache_source = "physical memory of the node";
  }

  make_directory();
  // Untimed: the directory is seen from every node, and data written on one node reads back on
  // another.
  ReadBackCheck read_back = check_shared_directory(mpi_, m_.directory, config_.hints.for_type(-1));
  if (mpi_.is_root()) m_.read_back = std::move(read_back);
  // Placed as b_eff_io rev 2.1's buffers by default (IoBuffer.hpp): where it starts changes
  // what a read from the page cache costs on some processors.
  buffer_ = IoBuffer(static_cast<std::size_t>(table_.largest_memory_chunk()),
                     static_cast<std::size_t>(config_.buffer_offset),
                     static_cast<std::byte>(0x5a + mpi_.rank()));

  // A guarded run plans what it cannot cut (TimePlan.hpp): every pattern's units, the opens and
  // closes of every type's file per access method, and the read's deletion, whose rate an
  // untimed probe gives first.
  if (config_.guard_factor) {
    const int partitions = static_cast<int>(m_.partitions.size());
    const int rewritten = config_.rewrite_all ? kPatternTypes : 1;
    const int type0_rows = static_cast<int>(table_.rows_of_type(0).size());
    const int rows =
        partitions * (2 * kPatternCount + (config_.rewrite_all ? kPatternCount : type0_rows));
    plan_.emplace(schedule_, rows, partitions * schedule_.time_units_sum(),
                  partitions * kTotalTimeUnits, partitions * (2 * kPatternTypes + rewritten),
                  !config_.keep);
    if (!config_.keep) {
      account_.mark(TimePart::setup, worker::now());
      probe_deletion();
      account_.mark(TimePart::deletion_probe, worker::now());
    }
  }

  for (int n : m_.partitions) {
    Partition p;
    p.n = n;
    MPI_Comm_split(world, mpi_.rank() < n ? 0 : MPI_UNDEFINED, mpi_.rank(), &p.comm);
    if (p.comm != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(p.comm, MPI_ERRORS_RETURN);
      MPI_Comm_rank(p.comm, &p.rank);
    }
    partitions_.push_back(std::move(p));
  }

  account_.mark(TimePart::setup, worker::now());
  // Release 2: all partitions write, then all rewrite, then all read.
  bool running = true;
  for (Access access : kAccesses) {
    if (!running) break;
    if (access == Access::read && config_.inject_corruption) corrupt_files();
    for (Partition& p : partitions_) {
      const double started = worker::now();
      // 1: stopped at the deadline, 2: stopped on an error.
      int stopped = 0;
      if (p.comm != MPI_COMM_NULL) {
        for (int type = 0; type < kPatternTypes; ++type) {
          if (access == Access::rewrite && type != 0 && !config_.rewrite_all) continue;
          if (!run_type(p, access, type)) {
            stopped = deadline_ && deadline_->stopped() ? 1 : 2;
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
        if (stopped == 1 && deadline_) {
          deadline_->stop(m_.stopped_at);
          m_.deadline_stop = true;
        }
        break;
      }
    }
  }
  if (!running && !m_.deadline_stop) {
    m_.failure = mpi_.is_root() ? failure_text_ : std::string("the run stopped on an error");
  }

  for (Partition& p : partitions_) {
    m_.timings.push_back({p.n, schedule_.partition_time(), p.elapsed, p.write_elapsed, p.plan});
  }
  account_.mark(TimePart::bookkeeping, worker::now());
  // After a deadline stop the files stay until the result is written (IoWorker): removing a
  // few GB can take seconds on a file system that discards freed blocks, past the deadline.
  if (!config_.keep && !m_.deadline_stop) remove_files();
  for (Partition& p : partitions_) {
    if (p.comm != MPI_COMM_NULL) MPI_Comm_free(&p.comm);
  }
  account_.mark(TimePart::removal, worker::now());
  if (plan_) {
    m_.sync_per_byte = plan_->sync_per_byte();
    m_.deletion_per_byte = plan_->deletion_per_byte();
  }
  m_.account = account_;
  m_.elapsed = account_.total();
  return m_;
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
