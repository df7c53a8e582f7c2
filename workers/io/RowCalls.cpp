#include "io/RowCalls.hpp"

#include <cerrno>
#include <chrono>
#include <thread>

#include "common/MpiCost.hpp"
#include "common/Stats.hpp"
#include "io/ChunkStamp.hpp"
#include "io/MpiIoSupport.hpp"

namespace pbench::io {

namespace {

void row_sleep(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

/// One call of the row's type and access method.
int row_call(const RowCallSpec& row, MPI_Status& status) {
  const bool writing = row.access != Access::read;
  const int count = static_cast<int>(row.memory_chunk / row.etype_bytes);
  switch (row.type) {
    case 0:
    case 4:
      if (writing && row.type == 4) row_sleep(row.collective_write_delay);
      return writing ? MPI_File_write_all(row.file, row.data, count, row.etype, &status)
                     : MPI_File_read_all(row.file, row.data, count, row.etype, &status);
    case 1:
      return writing ? MPI_File_write_ordered(row.file, row.data, count, row.etype, &status)
                     : MPI_File_read_ordered(row.file, row.data, count, row.etype, &status);
    default:
      return writing ? MPI_File_write(row.file, row.data, count, row.etype, &status)
                     : MPI_File_read(row.file, row.data, count, row.etype, &status);
  }
}

}  // namespace

std::int64_t chunk_offset(const RowCallSpec& row, std::int64_t call, std::int64_t j) {
  const std::int64_t n = row.partition;
  const std::int64_t k = row.rank;
  const std::int64_t l = row.disk_chunk;
  const std::int64_t chunks = l > 0 ? row.memory_chunk / l : 1;
  switch (row.type) {
    case 0:
      return row.base + ((call * chunks + j) * n + k) * l;
    case 1:
      return row.base + (call * n + k) * l;
    case 2:
      return row.base + call * l;
    default:
      return k * row.segment + row.base + call * l;
  }
}

RowCallOutcome run_row_calls(const RowCallSpec& row, double started,
                             std::optional<std::string>& failure) {
  const bool writing = row.access != Access::read;
  const bool root = row.rank == 0;
  const std::int64_t l = row.disk_chunk;
  const std::int64_t chunks = l > 0 ? row.memory_chunk / l : 1;
  const char* verb = writing ? "write to" : "read from";
  // The collective decision of the termination rule and of the time guard: barrier, rank 0
  // reads its clock since the row's start and decides, the decision is broadcast.
  const auto decide = [&](const auto& rank0_rule) {
    MPI_Barrier(row.comm);
    long long decision = 0;
    if (root) decision = rank0_rule(worker::now() - started);
    MPI_Bcast(&decision, 1, MPI_LONG_LONG, 0, row.comm);
    return decision;
  };
  RowCallOutcome out;
  std::int64_t target = 1;
  while (true) {
    if (writing) {
      for (std::int64_t j = 0; j < chunks; ++j) {
        stamp_chunk(row.data + j * l, l,
                    stamp_value(row.identity, row.generation, chunk_offset(row, out.done, j)));
      }
    }
    row_sleep(row.test_delay);
    worker::count_loops(1);  // one repetition of the pattern's call
    MPI_Status status;
    const int code = row_call(row, status);
    // A call that failed, or moved less than asked, moved nothing that counts: not in the
    // row's bytes or repetitions (so not in its bandwidth), and counted in its errors.
    bool moved_all = code == MPI_SUCCESS;
    if (!moved_all && !failure) {
      failure = std::string(verb) + " '" + row.path + "' failed: " + mpi_error_text(code, errno);
    }
    if (moved_all) {
      int moved = 0;
      MPI_Get_count(&status, MPI_BYTE, &moved);
      moved_all = moved == row.memory_chunk;
      if (!moved_all && !failure) {
        failure = std::string(verb) + " '" + row.path + "' failed: moved " + std::to_string(moved) +
                  " of " + std::to_string(row.memory_chunk) + " bytes";
      }
    }
    ++(moved_all ? out.succeeded : out.failed_calls);
    if (moved_all && !writing) {
      for (std::int64_t j = 0; j < chunks; ++j) {
        const auto value =
            stamp_value(row.identity, row.generation, chunk_offset(row, out.done, j));
        if (!chunk_matches(row.data + j * l, l, value)) ++out.errors;
      }
    }
    ++out.done;
    const std::int64_t done = out.done;
    if (row.drive == Drive::time) {
      if (row.termination == TerminationRule::reference) {
        const long long go = decide([&](double elapsed) {
          return another_call_fits(done, elapsed, row.budget, row.sync_tail) ? 1 : 0;
        });
        if (!go) break;
      } else if (done >= target) {
        const long long next = decide(
            [&](double elapsed) { return next_check(done, elapsed, row.budget, row.sync_tail); });
        if (next == 0) break;
        target = next;
      }
    } else if (done >= row.count) {
      break;
    } else if (row.guard && done >= target) {
      const long long next =
          decide([&](double elapsed) { return row.guard->next_check(done, elapsed); });
      if (next == 0) {
        out.cut = true;
        break;
      }
      target = next;
    }
  }
  return out;
}

}  // namespace pbench::io
