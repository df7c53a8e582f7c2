#include "comm/CommOptions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "comm/MessageSizes.hpp"
#include "common/Parameters.hpp"
#include "common/Units.hpp"
#include "common/WorkerMain.hpp"

namespace pbench::comm {
namespace {

using worker::UsageError;

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int parse_position(const std::string& text, const std::string& item) {
  if (!all_digits(text) || text.size() > 3) {
    throw UsageError("malformed --sizes item '" + item +
                     "': expected positions 1 to 21 (1 = 1 B, 13 = 4096 B, 21 = L_max) or "
                     "ranges like 13-21");
  }
  const int position = std::stoi(text);
  if (position < 1 || position > kMessageSizeCount) {
    throw UsageError("--sizes position " + text +
                     " is out of range: positions go from 1 (1 B) to " +
                     std::to_string(kMessageSizeCount) + " (L_max)");
  }
  return position - 1;
}

/// Memory per process: 0 (the node's) to 1 PiB.
constexpr worker::Range kMemoryRange{0, static_cast<double>(1ULL << 50)};

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace

void CommOptions::declare(worker::Parameters& parameters) {
  parameters.add("memory_per_proc", memory_per_proc, "B", kMemoryRange,
                 "Memory per process; L_max = memory/128 (clamped to 128 MiB). 0: the node's "
                 "physical memory divided by the processes on the node (smallest over nodes)");
  parameters.add("seed", seed, "",
                 "Seed of the random patterns, 0 to 4294967295; default: drawn at start and "
                 "recorded in the result (the original seeds from the clock)");
  parameters.add("random_patterns", random_patterns, "count", worker::Range{1, 10000},
                 "Random ring patterns averaged into b_random (reference 30)");
  parameters.add("repetitions", repetitions, "count", worker::Range{1, 10000},
                 "Repetitions of every measurement; the maximum counts (reference 3)");
  parameters.add("sizes", sizes, "position",
                 "Measure only these of the 21 message sizes, by position 1..21 (1 = 1 B, "
                 "13 = 4 KB, 21 = L_max), e.g. 1,13-21; default all (not the reference otherwise)");
  parameters.add("methods", methods, "",
                 "Methods to measure: sendrecv, alltoallv, nonblocking; default all three (the "
                 "ping-pong always uses MPI_Send/MPI_Recv)");
  parameters.add("target_window", target_window, "s", worker::Range{1e-6, 3600},
                 "Loop lengths aim at a measurement time between these two values (reference "
                 "0.0025,0.005)");
  parameters.add("start_looplength", start_looplength, "iterations", worker::Range{1, 1e9},
                 "Loop length of the shortest message (reference 300)");
  parameters.add(
      "max_time", max_time, "s", worker::Range{0, 1e7},
      "Stop after this many seconds with a partial result marked not valid; 0: no limit");
  parameters.add("rmax", rmax, "flop/s", worker::Range{0, 1e21},
                 "Linpack R_max of the processes used; reports the balance factor b_eff/R_max");
  parameters.add_flag("describe", describe,
                      "Print the patterns a run on --nprocs processes would use, and exit "
                      "(no MPI)");
  parameters.add("nprocs", nprocs, "count", worker::Range{0, 1e7},
                 "With --describe: the number of processes");
  parameters.add("format", format, "", "With --describe: text or json")
      ->check(CLI::IsMember({"text", "json"}));
}

std::uint32_t CommConfig::parse_seed(const std::string& text) {
  if (!all_digits(text) || text.size() > 10 ||
      std::stoull(text) > std::numeric_limits<std::uint32_t>::max()) {
    throw UsageError("malformed --seed '" + text +
                     "': expected a whole number from 0 to 4294967295");
  }
  return static_cast<std::uint32_t>(std::stoull(text));
}

std::vector<int> CommConfig::parse_positions(const std::vector<std::string>& items) {
  std::vector<int> positions;
  for (const auto& item : items) {
    const auto dash = item.find('-');
    int first = 0;
    int last = 0;
    if (dash == std::string::npos) {
      first = last = parse_position(item, item);
    } else {
      first = parse_position(item.substr(0, dash), item);
      last = parse_position(item.substr(dash + 1), item);
      if (last < first)
        throw UsageError("malformed --sizes range '" + item + "': it runs backwards");
    }
    for (int p = first; p <= last; ++p) {
      if (std::find(positions.begin(), positions.end(), p) != positions.end()) {
        throw UsageError("--sizes names position " + std::to_string(p + 1) + " twice");
      }
      positions.push_back(p);
    }
  }
  if (positions.empty()) throw UsageError("--sizes is empty");
  std::sort(positions.begin(), positions.end());
  return positions;
}

CommConfig CommConfig::check(const CommOptions& o) {
  CommConfig c;
  if (o.memory_per_proc != 0) {
    if (o.memory_per_proc < MessageSizes::smallest_memory()) {
      MessageSizes::for_memory(o.memory_per_proc);  // throws with the explanation
    }
    c.memory_per_process = o.memory_per_proc;
  }
  if (!o.seed.empty()) c.seed = parse_seed(o.seed);
  if (o.random_patterns < 1) throw UsageError("--random-patterns must be at least 1");
  if (o.repetitions < 1) throw UsageError("--repetitions must be at least 1");
  c.random_patterns = o.random_patterns;
  c.repetitions = o.repetitions;
  if (o.sizes.empty()) {
    for (int p = 0; p < kMessageSizeCount; ++p) c.positions.push_back(p);
  } else {
    c.positions = parse_positions(o.sizes);
  }
  for (const auto& name : o.methods) {
    const auto method = method_from_name(name);
    if (!method) {
      throw UsageError("unknown --methods item '" + name +
                       "': expected sendrecv, alltoallv or nonblocking");
    }
    if (std::find(c.methods.begin(), c.methods.end(), *method) != c.methods.end()) {
      throw UsageError("--methods names " + name + " twice");
    }
    c.methods.push_back(*method);
  }
  if (c.methods.empty()) c.methods = all_methods();
  std::sort(c.methods.begin(), c.methods.end());
  if (o.target_window.size() != 2) {
    throw UsageError("--target-window needs two values, min,max in seconds");
  }
  c.window_min = o.target_window[0];
  c.window_max = o.target_window[1];
  if (!(c.window_min > 0) || !std::isfinite(c.window_max)) {
    throw UsageError("--target-window values must be positive seconds");
  }
  if (!(c.window_min < c.window_max)) {
    throw UsageError("--target-window min (" + units::short_number(c.window_min) +
                     " s) must be less than max (" + units::short_number(c.window_max) + " s)");
  }
  if (o.start_looplength < 1) throw UsageError("--start-looplength must be at least 1");
  c.start_looplength = o.start_looplength;
  if (!(o.max_time >= 0) || !std::isfinite(o.max_time)) {
    throw UsageError("--max-time must be 0 (no limit) or a positive number of seconds");
  }
  c.max_time = o.max_time;
  if (!(o.rmax >= 0) || !std::isfinite(o.rmax)) {
    throw UsageError("--rmax must be a positive number of flop/s");
  }
  if (o.rmax > 0) c.rmax = o.rmax;
  c.describe = o.describe;
  c.json = o.format == "json";
  if (o.describe) {
    if (o.nprocs < 2) {
      throw UsageError(
          "--describe needs --nprocs N with N >= 2 (b_eff needs at least 2 processes)");
    }
    c.nprocs = o.nprocs;
  } else if (o.nprocs != 0) {
    throw UsageError(
        "--nprocs is only for --describe; a run uses the processes it is started with");
  }

  c.departures = worker::MethodRules::comm(c.random_patterns, c.repetitions, c.window_min,
                                           c.window_max, c.start_looplength);
  if (static_cast<int>(c.positions.size()) != kMessageSizeCount) {
    c.departures.push_back("sizes = " + join(o.sizes, ",") + " (" +
                           std::to_string(c.positions.size()) + " of the 21 message sizes)");
  }
  if (c.methods.size() != all_methods().size()) {
    std::vector<std::string> names;
    for (Method m : c.methods) names.push_back(method_name(m));
    c.departures.push_back("methods = " + join(names, ",") + " (reference: all three)");
  }
  return c;
}

}  // namespace pbench::comm
