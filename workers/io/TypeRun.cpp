#include "io/TypeRun.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/Stats.hpp"
#include "io/ChunkStamp.hpp"
#include "io/MpiIoSupport.hpp"
#include "io/RowCalls.hpp"
#include "io/TimeGuard.hpp"

namespace pbench::io {

namespace {

/// Sleeps `seconds` when positive (the test-only deletion delay).
void pause_for(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

TypeRun start_type(RunState& s, Partition& p, Access access, int type) {
  TypeRun t{p, access, type};
  t.root = p.rank == 0;
  t.writing = access != Access::read;
  t.generation = access == Access::write     ? 1
                 : access == Access::rewrite ? 2
                                             : (p.rewritten.count(type) ? 2 : 1);
  t.path = s.path_of(p.n, type, p.rank);
  t.identity = file_identity(p.n, type, type == 2 ? p.rank : -1);
  t.given = s.config.hints.for_type(type);
  t.info = make_info(t.given);
  if (type >= 3 && access == Access::write) {
    std::map<int, std::int64_t> counts;
    for (const auto& [number, reps] : p.repetitions) {
      if (number < 25) counts[number] = reps;
    }
    p.plan = SegmentPlan::from_counts(s.table, counts);
  }
  t.segment = type >= 3 ? p.plan->segment : 0;
  t.tm.partition = p.n;
  t.tm.access = access;
  t.tm.type = type;
  // The elementary type, as rev 2.1's: doubles (its ETYPE), so that views, counts and the shared
  // file pointer are in 8-byte units as there; bytes only where M_PART (from an arbitrary
  // --memory-per-proc) is not a multiple of 8. Every other chunk size of the table is.
  t.etype_bytes = elementary_bytes(s.m.chunks.m_part);
  t.doubles = t.etype_bytes == 8;
  t.etype = t.doubles ? MPI_DOUBLE : MPI_BYTE;
  return t;
}

bool open_type(RunState& s, TypeRun& t) {
  // Open as the reference code does (read/write, unique open), except that the first write makes
  // a new file and never opens an existing one (MPI_MODE_EXCL). Rev 2.1's read close deletes the
  // file (MPI_MODE_DELETE_ON_CLOSE); here the read's close is followed by the deletion, timed on
  // its own and inside the type's time all the same. Open, close and deletion end in a barrier,
  // inside their time.
  int amode = t.access == Access::write     ? MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR
              : t.access == Access::rewrite ? MPI_MODE_RDWR
                                            : MPI_MODE_RDONLY;
  if (s.config.unique_open) amode |= MPI_MODE_UNIQUE_OPEN;
  const MPI_Comm fcomm = t.type == 2 ? MPI_COMM_SELF : t.p.comm;
  MPI_Barrier(t.p.comm);
  const double start = worker::now();
  s.account.mark(TimePart::bookkeeping, start);
  const bool opened =
      s.check(MPI_File_open(fcomm, t.path.c_str(), amode, t.info, &t.fh), "open", t.path);
  MPI_Barrier(t.p.comm);
  const double open_end = worker::now();
  t.open_time = open_end - start;
  t.my_total = t.open_time;
  s.account.mark(TimePart::opens, open_end);
  if (s.plan) s.plan->opened(t.p.index, t.open_time);
  if (opened) MPI_File_set_errhandler(t.fh, MPI_ERRORS_RETURN);
  if (s.agree_on_failure(t.p.comm)) {
    if (opened) MPI_File_close(&t.fh);
    if (t.info != MPI_INFO_NULL) MPI_Info_free(&t.info);
    s.m.stopped_at = t.where() + ", open";
    return false;
  }
  if (t.root) s.m.files.push_back({t.p.n, t.access, t.type, t.path, t.given, file_info(t.fh)});
  return true;
}

PatternMeasurement plan_row(RunState& s, TypeRun& t, PatternRow& row, int index,
                            RowCallSpec& spec) {
  Partition& p = t.p;
  if (row.fill) {
    row.disk_chunk = p.plan->fill;
    row.memory_chunk = p.plan->fill;
  }
  if (t.doubles && (row.disk_chunk % 8 != 0 || row.memory_chunk % 8 != 0)) {
    throw std::logic_error("pattern " + std::to_string(row.number) + ": chunk of " +
                           std::to_string(row.disk_chunk) + " B is not whole doubles");
  }
  PatternMeasurement pm;
  pm.partition = p.n;
  pm.access = t.access;
  pm.type = t.type;
  pm.number = row.number;
  pm.disk_chunk = row.disk_chunk;
  pm.memory_chunk = row.memory_chunk;
  pm.time_units = row.time_units;
  pm.pattern_time = s.schedule.pattern_time(row.time_units);
  // A guarded run's share: what its plan leaves this row (TimePlan.hpp).
  pm.planned_time =
      s.plan ? s.plan->share(p.index, row.time_units, worker::now() - s.run_started)
             : pm.pattern_time;
  pm.held_back = s.plan ? s.plan->reserve(p.index) : 0;
  std::int64_t count = 1;
  if (row.time_units == 0) {
    pm.drive = Drive::single;
  } else if (t.access == Access::write && t.type <= 2) {
    pm.drive = Drive::time;
  } else if (t.access == Access::write) {
    pm.drive = Drive::size;
    count = p.plan->repetitions[static_cast<std::size_t>(index)];
  } else {
    pm.drive = Drive::replay;
    // The count written before: the write's (also where the guard cut it), or for a read of
    // rewritten data the rewrite's where the guard cut that.
    count = p.replay.at(row.number);
  }
  pm.planned = pm.drive == Drive::time ? 0 : count;
  // A row that replays a count written before (rewrite, read) is held to at least rev 2.1's
  // T_pattern: its count is fixed by the data written, and a run short of time (TimePlan.hpp)
  // must not cut its reads to one call each, which would measure nothing. The time guard still
  // cuts such a row at k times this. The size-driven rows (types 3-4 write) keep the plan's
  // share: they are the ones the guard exists for (a collective write of small chunks a hundred
  // times slower than the independent one it was sized from).
  if (s.plan && pm.drive == Drive::replay) {
    pm.planned_time = std::max(pm.planned_time, pm.pattern_time);
  }

  spec.file = t.fh;
  spec.comm = p.comm;
  spec.path = t.path;
  spec.type = t.type;
  spec.access = t.access;
  spec.partition = p.n;
  spec.rank = p.rank;
  spec.generation = t.generation;
  spec.identity = t.identity;
  spec.base = t.base;
  spec.segment = t.segment;
  spec.disk_chunk = row.disk_chunk;
  spec.memory_chunk = row.memory_chunk;
  spec.etype = t.etype;
  spec.etype_bytes = t.etype_bytes;
  spec.data = s.buffer.data();
  spec.drive = pm.drive;
  spec.count = count;
  spec.termination = s.config.termination;
  spec.budget = pm.planned_time;
  // Every row with a planned count above one is guarded (size-driven and replaying rows);
  // the time-driven rows keep to their share by the termination rule, which a guarded run also
  // makes plan the sync that follows the calls.
  if (pm.drive != Drive::time && s.config.guard_factor) {
    spec.guard.emplace(*s.config.guard_factor, pm.planned_time, count);
  }
  const auto call_delay = s.config.call_delays.find({static_cast<int>(t.access), t.type});
  spec.test_delay = call_delay == s.config.call_delays.end() ? 0 : call_delay->second;
  spec.collective_write_delay = s.config.collective_write_delay;
  // The sync the calls leave for after the loop, as the run has seen it so far (guarded only).
  if (s.plan) {
    spec.sync_tail.fixed = s.plan->sync_fixed();
    spec.sync_tail.per_call =
        s.plan->sync_per_byte() * static_cast<double>(p.n) * static_cast<double>(row.memory_chunk);
  }
  return pm;
}

void set_view(RunState& s, TypeRun& t, const PatternRow& row) {
  const int n = t.p.n;
  const int k = t.p.rank;
  const std::int64_t l = row.disk_chunk;
  if (t.type == 0) {
    // Distributed array of n rows of l bytes, one row per process (process k's chunk at k*l
    // in each n*l bytes), built as rev 2.1 builds it: MPI_Type_create_darray over doubles.
    MPI_Datatype filetype = MPI_DATATYPE_NULL;
    MPI_Offset disp = t.base;
    if (t.doubles) {
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
    s.check(MPI_File_set_view(t.fh, disp, t.etype, filetype, "native", t.info), "set view on",
            t.path);
    MPI_Type_free(&filetype);
  } else if (!t.view_set) {
    s.check(MPI_File_set_view(t.fh, static_cast<MPI_Offset>(k) * t.segment, t.etype, t.etype,
                              "native", t.info),
            "set view on", t.path);
    t.view_set = true;
  }
}

void advance(RunState& s, TypeRun& t, const PatternRow& row, std::int64_t calls,
             std::int64_t done) {
  // Advance past the data of all processes: past what the write wrote, also where a replay was
  // cut short, so that every later row finds its data where the write put it.
  const std::int64_t n = t.p.n;
  switch (t.type) {
    case 0:
      t.base += n * row.memory_chunk * calls;
      break;
    case 1:
      t.base += n * row.disk_chunk * calls;
      break;
    default:
      t.base += row.disk_chunk * calls;
  }
  // A replay cut short leaves the file pointer short of the row's end: set it there (types 1-4;
  // type 0 sets its view at `base` in every row). The shared pointer counts from the view's
  // start (0), the individual one from the process's own (its segment for types 3-4).
  if (calls != done && t.type >= 1) {
    const MPI_Offset position = static_cast<MPI_Offset>(t.base / t.etype_bytes);
    if (t.type == 1) {
      s.check(MPI_File_seek_shared(t.fh, position, MPI_SEEK_SET), "seek in", t.path);
    } else {
      s.check(MPI_File_seek(t.fh, position, MPI_SEEK_SET), "seek in", t.path);
    }
  }
}

void record_row(RunState& s, TypeRun& t, const PatternRow& row, PatternMeasurement& pm,
                const RowCallOutcome& calls, double duration, double sync_time) {
  Partition& p = t.p;
  std::vector<double> times(t.root ? static_cast<std::size_t>(p.n) : 1);
  MPI_Gather(&duration, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, 0, p.comm);
  // Over the processes: wrong chunks and failed calls (sums), the bytes of the calls that
  // succeeded (sum) and the calls every process completed (minimum).
  long long sums[3] = {0, 0, 0};
  const long long mine[3] = {calls.errors, calls.failed_calls, calls.succeeded * row.memory_chunk};
  MPI_Reduce(mine, sums, 3, MPI_LONG_LONG, MPI_SUM, 0, p.comm);
  long long fewest = 0;
  const long long my_succeeded = calls.succeeded;
  MPI_Reduce(&my_succeeded, &fewest, 1, MPI_LONG_LONG, MPI_MIN, 0, p.comm);
  pm.repetitions = fewest;
  pm.bytes = sums[2];
  pm.failed_calls = sums[1];
  pm.errors = sums[0] + sums[1];
  double longest_sync = 0;
  MPI_Reduce(&sync_time, &longest_sync, 1, MPI_DOUBLE, MPI_MAX, 0, p.comm);
  pm.sync_time = longest_sync;
  const double row_bytes =
      static_cast<double>(p.n) * static_cast<double>(row.memory_chunk * calls.done);
  if (t.access == Access::write) {
    p.repetitions[row.number] = calls.done;
    p.replay[row.number] = calls.done;
    p.file_bytes[t.type] += row_bytes;
  } else if (t.access == Access::rewrite) {
    p.replay[row.number] = std::min(p.replay[row.number], calls.done);
  }
  if (s.plan) {
    s.plan->bookkeeping(s.account.seconds(TimePart::bookkeeping));
    if (t.writing) s.plan->synced(row_bytes, sync_time);
    const RowCost cost = t.access == Access::rewrite ? RowCost::rewrite
                         : t.access == Access::read  ? RowCost::read
                         : t.type <= 2               ? RowCost::timed
                                                     : RowCost::sized;
    s.plan->pattern_done(p.index, cost, row.time_units, row_bytes, duration);
  }
  if (t.root) {
    pm.time = worker::describe(times);
    t.tm.bytes += pm.bytes;
    t.tm.errors += pm.errors;
    s.m.patterns.push_back(pm);
    if (s.callback) s.callback(pm);
  }
}

bool run_row(RunState& s, TypeRun& t, const PatternRow& table_row, int index) {
  Partition& p = t.p;
  // A clean point of the deadline: between pattern rows, decided on the partition (its rank 0
  // is world rank 0), before the row's first call.
  if (s.deadline &&
      s.deadline->reached(p.comm, t.where() + ", pattern " + std::to_string(table_row.number))) {
    s.m.stopped_at = s.deadline->where();
    return false;
  }
  PatternRow row = table_row;
  RowCallSpec spec;
  PatternMeasurement pm = plan_row(s, t, row, index, spec);
  // Where the row's data ends in the file: the write's count, whatever this access does.
  const std::int64_t extent = pm.drive == Drive::replay ? p.repetitions.at(row.number) : 0;

  // The pattern's time runs from a barrier to the barrier after its sync, and includes
  // setting the file view as in the reference code: type 0's in every pattern (a distributed
  // array built, committed, set and freed), the other types' in their first.
  MPI_Barrier(p.comm);
  const double t0 = worker::now();
  s.account.mark(TimePart::bookkeeping, t0);
  set_view(s, t, row);
  const RowCallOutcome calls = run_row_calls(spec, t0, s.local_failure);
  pm.cut = calls.cut;
  double sync_started = 0;
  if (t.writing) {
    MPI_Barrier(p.comm);
    sync_started = worker::now();
    s.check(MPI_File_sync(t.fh), "sync of", t.path);
  }
  MPI_Barrier(p.comm);
  const double t1 = worker::now();
  const double duration = t1 - t0;
  const double sync_time = t.writing ? t1 - sync_started : 0;
  s.account.mark(TimePart::patterns, t1);
  t.my_total += duration;
  advance(s, t, row, pm.drive == Drive::replay ? extent : calls.done, calls.done);
  record_row(s, t, row, pm, calls, duration, sync_time);
  if (s.agree_on_failure(p.comm)) {
    s.m.stopped_at = t.where() + ", pattern " + std::to_string(row.number);
    return false;
  }
  return true;
}

bool close_type(RunState& s, TypeRun& t, bool stop) {
  Partition& p = t.p;
  const double start = worker::now();
  s.account.mark(TimePart::bookkeeping, start);
  s.check(MPI_File_close(&t.fh), "close", t.path);
  MPI_Barrier(p.comm);
  const double close_end = worker::now();
  const double close_time = close_end - start;
  s.account.mark(TimePart::closes, close_end);
  if (s.plan) s.plan->closed(p.index, close_time);
  t.my_total += close_time;
  // The read's deletion (rev 2.1: inside its close), unless --keep: the partition's rank 0
  // deletes a shared file, every process its own of type 2; a barrier ends it.
  double delete_time = 0;
  if (t.access == Access::read && !s.config.keep && !stop) {
    const double bytes = p.file_bytes[t.type];
    if (t.type == 2 || t.root) {
      pause_for(s.config.deletion_delay * (t.type == 2 ? bytes / p.n : bytes) / 1e9);
      s.check(MPI_File_delete(t.path.c_str(), MPI_INFO_NULL), "delete", t.path);
    }
    MPI_Barrier(p.comm);
    const double delete_end = worker::now();
    delete_time = delete_end - close_end;
    s.account.mark(TimePart::deletion, delete_end);
    if (s.plan) s.plan->deleted(p.index, bytes, delete_time);
    t.my_total += delete_time;
  }
  if (t.info != MPI_INFO_NULL) MPI_Info_free(&t.info);
  double maxima[4] = {0, 0, 0, 0};
  const double local[4] = {t.open_time, close_time, delete_time, t.my_total};
  MPI_Reduce(local, maxima, 4, MPI_DOUBLE, MPI_MAX, 0, p.comm);
  t.tm.open_time = maxima[0];
  t.tm.close_time = maxima[1];
  t.tm.delete_time = maxima[2];
  t.tm.total_time = maxima[3];
  t.tm.complete = !stop;
  if (t.root) s.m.types.push_back(t.tm);
  if (t.access == Access::rewrite) p.rewritten.insert(t.type);
  if (!stop && s.agree_on_failure(p.comm)) {
    s.m.stopped_at = t.where() + ", close";
    stop = true;
  }
  return !stop;
}

}  // namespace

bool run_type(RunState& s, Partition& p, Access access, int type) {
  TypeRun t = start_type(s, p, access, type);
  if (!open_type(s, t)) return false;
  bool stop = false;
  int index = 0;
  for (const PatternRow& row : s.table.rows_of_type(type)) {
    if (!run_row(s, t, row, index++)) {
      stop = true;
      break;
    }
  }
  return close_type(s, t, stop);
}

}  // namespace pbench::io
