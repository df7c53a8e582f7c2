#include "io/IoParameters.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "common/Parameters.hpp"
#include "common/Units.hpp"
#include "common/WorkerMain.hpp"

namespace pbench::io {

using worker::UsageError;

namespace {
/// Memory and cache sizes: 0 (the node's) to 1 PiB.
constexpr worker::Range kBytesRange{0, static_cast<long double>(1ULL << 50)};
}  // namespace

void IoOptions::declare(worker::Parameters& parameters) {
  parameters.add("schedule_time", schedule_time, "s", worker::Range{0, 1e7},
                 "Scheduled time T for all partitions, as b_eff_io rev 2.1's -T: each partition "
                 "gets Tn = T/partitions and a pattern Tn * U/150 (U/192 with --rewrite-all); an "
                 "official b_eff_io needs Tn >= 1800 s",
                 "-T");
  parameters.add("partitions", partitions, "processes", worker::Range{1, 1e7},
                 "Partition sizes (the first n ranks), comma-separated; all write, then rewrite, "
                 "then read (release 2); default as b_eff_io rev 2.1: {1} for 1 process, {1,2} for "
                 "2, else 2^round(0.35 log2 N), 2^round(0.70 log2 N), N");
  parameters.add("memory_per_proc", memory_per_proc, "B", kBytesRange,
                 "Memory per process; M_PART = max(2 MB, memory/128), at most 1 GB; 0: the "
                 "node's physical memory / processes on the node");
  parameters.add("cache_bytes", cache_bytes, "B", kBytesRange,
                 "File system cache size for the 20x check of the bytes each access method "
                 "moves; 0: the node's physical memory");
  parameters.add("dir", dir, "path",
                 "Directory in which the run makes its own new subdirectory for the benchmark "
                 "files; empty: the working directory");
  parameters.add_flag("keep", keep, "Keep the benchmark files at the end");
  parameters.add_flag("rewrite_all", rewrite_all,
                      "Rewrite with all five pattern types (default: type 0 only, release 2)");
  parameters.add_flag("no_unique_open", no_unique_open,
                      "Open the files without MPI_MODE_UNIQUE_OPEN (b_eff_io rev 2.1's -nounique)");
  parameters.add("termination", termination, "",
                 "End of a time-driven pattern: 'reference' (barrier, rank 0 decides, broadcast "
                 "after every call) or 'batched' (checks after 1, 2, 4, ... calls)");
  parameters.add("hint", hint, "",
                 "MPI-IO hint key=value, or typeN:key=value for pattern type N only; repeatable "
                 "(also PBENCH_HINT_<KEY>=value in the environment)");
  parameters.add("hints_file", hints_file, "path", "File of MPI-IO hints, one key=value per line");
  parameters.add_flag("inject_corruption", inject_corruption,
                      "Test only: overwrite the first stamp of every file between the writes "
                      "and the reads (consortium: two bytes of every process's data before each "
                      "sustained read), so the read check must find it");
  parameters.add("guard_factor", guard_factor, "ratio", worker::Range{0, 1000},
                 "Time guard: a size-driven pattern row (types 3-4 write) that has used this many "
                 "times its scheduled time T_pattern stops at the next repetition, and the run is "
                 "not valid; must be > 0");
  parameters.add_flag("unguarded", unguarded,
                      "No time guard: types 3-4 write their planned counts whatever they take, as "
                      "b_eff_io rev 2.1 does (only to reproduce it: the run may exceed T many "
                      "times over)");
  parameters.add("test_collective_write_delay", test_collective_write_delay, "s",
                 worker::Range{0, 3600},
                 "Test only: sleep this long before every collective write call of type 4, so a "
                 "test can make the segmented types overrun; a result using it is never valid");
  parameters.add("test_call_delay", test_call_delay, "",
                 "Test only: ACCESS:TYPE=SECONDS (e.g. read:2=0.05) sleeps this long before every "
                 "call of that pattern type and access method, so a test can make its rows "
                 "overrun; repeatable; a result using it is never valid");
  parameters.add("test_deletion_delay", test_deletion_delay, "s", worker::Range{0, 3600},
                 "Test only: every deletion of a benchmark file (the read's and the untimed "
                 "probe's) sleeps this long per GB of the file, so a test can make deletion "
                 "slow; a result using it is never valid");
  parameters.add("buffer_offset", buffer_offset, "B",
                 worker::Range{0, static_cast<long double>(kBufferPage - 1)},
                 "Where the buffer every call writes from and reads into starts, in bytes past a "
                 "page boundary (0-4095); default 16, where b_eff_io rev 2.1's malloc(M_PART) "
                 "buffers start with glibc. Reading the page cache into a buffer 8-24 bytes past "
                 "a 64-byte line can be several times slower on some processors");
}

IoConfig IoConfig::check(const IoOptions& options, char** environment) {
  IoConfig c;
  if (!(options.schedule_time > 0)) {
    throw UsageError("--schedule-time: must be > 0 seconds");
  }
  c.schedule_time = options.schedule_time;
  std::set<int> seen;
  for (int p : options.partitions) {
    if (p < 1) {
      throw UsageError("--partitions: " + std::to_string(p) + " is not a process count (>= 1)");
    }
    if (!seen.insert(p).second) {
      throw UsageError("--partitions: " + std::to_string(p) + " appears twice");
    }
  }
  c.partitions = options.partitions;
  if (options.memory_per_proc < 0) throw UsageError("--memory-per-proc: must be >= 0");
  if (options.memory_per_proc > 0) c.memory_per_process = options.memory_per_proc;
  if (options.cache_bytes < 0) throw UsageError("--cache-bytes: must be >= 0");
  if (options.cache_bytes > 0) c.cache_bytes = options.cache_bytes;
  c.dir = options.dir;
  c.keep = options.keep;
  c.rewrite_all = options.rewrite_all;
  c.unique_open = !options.no_unique_open;
  auto rule = parse_termination(options.termination);
  if (!rule) {
    throw UsageError("--termination: '" + options.termination +
                     "' is not a rule (reference or batched)");
  }
  c.termination = *rule;
  try {
    c.hints.add_environment(environment);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  try {
    if (!options.hints_file.empty()) c.hints.add_file(options.hints_file);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--hints-file: ") + e.what());
  }
  try {
    for (const auto& text : options.hint) c.hints.add(HintSet::parse(text, "command_line"));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--hint: ") + e.what());
  }
  c.inject_corruption = options.inject_corruption;
  if (!(options.guard_factor > 0)) {
    throw UsageError(
        "--guard-factor: must be > 0 (a row may use this many times its scheduled "
        "time before it is cut)");
  }
  c.guard_factor = options.unguarded ? std::nullopt : std::optional<double>(options.guard_factor);
  if (!(options.test_collective_write_delay >= 0)) {
    throw UsageError("--test-collective-write-delay: must be >= 0 seconds");
  }
  c.collective_write_delay = options.test_collective_write_delay;
  for (const auto& text : options.test_call_delay) {
    const auto [key, seconds] = parse_call_delay(text);
    c.call_delays[key] = seconds;
  }
  if (!(options.test_deletion_delay >= 0)) {
    throw UsageError("--test-deletion-delay: must be >= 0 seconds per GB");
  }
  c.deletion_delay = options.test_deletion_delay;
  if (options.buffer_offset < 0 ||
      options.buffer_offset >= static_cast<std::int64_t>(kBufferPage)) {
    throw UsageError("--buffer-offset: " + std::to_string(options.buffer_offset) +
                     " is not within a page (0 to " + std::to_string(kBufferPage - 1) + " bytes)");
  }
  c.buffer_offset = options.buffer_offset;
  return c;
}

std::pair<std::pair<int, int>, double> parse_call_delay(const std::string& text) {
  const std::string what = "--test-call-delay: '" + text +
                           "' is not ACCESS:TYPE=SECONDS (write, rewrite or read; "
                           "type 0-4; seconds 0 to 3600)";
  const auto colon = text.find(':');
  const auto equals = text.find('=');
  if (colon == std::string::npos || equals == std::string::npos || equals < colon) {
    throw UsageError(what);
  }
  const std::string access = text.substr(0, colon);
  const std::string type = text.substr(colon + 1, equals - colon - 1);
  const std::string value = text.substr(equals + 1);
  int a = -1;
  if (access == "write") a = 0;
  if (access == "rewrite") a = 1;
  if (access == "read") a = 2;
  if (a < 0 || type.size() != 1 || type[0] < '0' || type[0] > '4') throw UsageError(what);
  const auto seconds = units::parse_seconds(value);
  if (!seconds || !(*seconds >= 0) || *seconds > 3600) throw UsageError(what);
  return {{a, type[0] - '0'}, *seconds};
}

std::vector<int> IoConfig::partitions_for(int size) const {
  if (!partitions.empty()) {
    for (int p : partitions) {
      if (p > size) {
        throw UsageError("--partitions: " + std::to_string(p) + " exceeds the " +
                         std::to_string(size) + " processes of this run");
      }
    }
    return partitions;
  }
  return default_partitions(size);
}

std::vector<int> default_partitions(int size) {
  if (size <= 1) return {1};
  if (size == 2) return {1, 2};
  // 2^round(f * log2 size), rounding as the reference code does (+0.5000001, truncated).
  auto power = [size](double f) {
    const int exponent = static_cast<int>(0.5000001 + std::log2(static_cast<double>(size)) * f);
    return static_cast<int>(0.5 + std::pow(2.0, exponent));
  };
  const int small = size == 3 ? 1 : power(0.35);
  const int medium = size == 4 ? 3 : power(0.70);
  std::vector<int> out;
  for (int p : {small, medium, size}) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

}  // namespace pbench::io
