#include "io/DeliberateDifferences.hpp"

#include "common/TextFormat.hpp"

namespace pbench::io {

using worker::fixed;

const char* const kDefinition =
    "b_eff_io rev 2.1: max over partitions of sqrt(WR * R), WR = mean of write types 0-4 and "
    "rewrite type 0, R = read types with type 0 counted twice; T_pat = (T / partitions) * U / "
    "Usum";

std::vector<std::array<std::string, 3>> deliberate_differences(
    const std::optional<double>& guard_factor, double collective_write_delay,
    std::int64_t buffer_offset, std::int64_t m_part) {
  std::vector<std::array<std::string, 3>> out = {
      {"read-back stamps",
       "first and last 8 bytes of every chunk: a hash of file, generation and offset",
       "first and last double of every chunk: repetition, position, pattern and access numbers"},
      {"benchmark files",
       "a new directory of its own per run; the first write refuses an existing file "
       "(MPI_MODE_EXCL); deleted at the end also after a failure",
       "fixed names in -p; an existing file is deleted before the first write"},
      {"scheduled time per partition", "Tn = T / partitions in real numbers",
       "Tn = T / partitions in whole seconds (integer division)"},
      {"pattern and type times",
       "maximum over processes of each process's clock (the phases end in barriers)",
       "rank 0's clock"},
      {"WR with --rewrite-all", "the five write types and rewrite type 0, over 6",
       "-rewrite adds all five rewrite types to WR but still divides by 6"},
      {"-adapt", "not offered", "off by default (its help: not allowed for benchmarking)"},
  };
  out.push_back({"deletion of the files",
                 "the read's close, then MPI_File_delete (rank 0 of the partition; every "
                 "process its own file of type 2), timed apart and inside the type's time",
                 "the read's close with MPI_MODE_DELETE_ON_CLOSE, inside the type's time"});
  if (guard_factor) {
    out.push_back({"time guard",
                   "every row with a planned count (types 3-4 write, every rewrite and read) that "
                   "has used " +
                       fixed(*guard_factor, 2) +
                       " x its share stops at the next repetition; rewrite and read replay the "
                       "count written before; the run is then not valid (--unguarded: none)",
                   "none: rows run their planned counts whatever they take"});
    out.push_back({"time plan",
                   "opens, closes, syncs and deletion are measured as the run goes (deletion "
                   "first by an untimed probe of 32 MiB) and the shares of the patterns still to "
                   "run shrink so that all of it fits T; a time-driven row stops when its next "
                   "call and the sync it adds would pass its share (--unguarded: rev 2.1's shares "
                   "and rule)",
                   "shares fixed at T_pattern; a time-driven row stops on its calls' time alone"});
  }
  if (collective_write_delay > 0) {
    out.push_back({"test delay",
                   "test only: " + fixed(collective_write_delay, 3) +
                       " s of sleep before every collective write call of type 4 "
                       "(--test-collective-write-delay); never valid",
                   "none"});
  }
  if (buffer_offset != kRev21BufferOffset) {
    out.push_back({"I/O buffer",
                   "starts " + std::to_string(buffer_offset) +
                       " bytes past a page boundary (--buffer-offset)",
                   "malloc(M_PART): 16 bytes past a page boundary with glibc"});
  }
  if (elementary_bytes(m_part) != 8) {
    out.push_back({"elementary type",
                   "bytes (MPI_BYTE) for views, counts and the shared file pointer: M_PART = " +
                       std::to_string(m_part) + " B is not a multiple of 8",
                   "doubles (MPI_DOUBLE); its M_PART is a whole number of MB"});
  }
  return out;
}

}  // namespace pbench::io
