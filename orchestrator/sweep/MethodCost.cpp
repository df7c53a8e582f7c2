#include "sweep/MethodCost.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>

#include "common/Units.hpp"
#include "sweep/Dimension.hpp"
#include "sweep/PlannedTime.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {

namespace {

std::string trim_brackets(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](char c) { return c == '[' || c == ']' || c == '"' || c == ' '; }),
             text.end());
  return text;
}

std::optional<double> read_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (auto size = units::parse_size(text)) return static_cast<double>(*size);
  if (auto seconds = units::parse_seconds(text)) return *seconds;
  return std::nullopt;
}

double log2_ceil(int n) {
  return n <= 1 ? 0.0 : std::ceil(std::log2(static_cast<double>(n)));
}

/// Prime factors of n counted with multiplicity: the directions of length >= 2 that
/// MPI_Dims_create can give n processes (at most the grid's dimensions).
int prime_factor_count(int n) {
  int count = 0;
  for (int f = 2; f * f <= n; ++f) {
    while (n % f == 0) {
      n /= f;
      ++count;
    }
  }
  return count + (n > 1 ? 1 : 0);
}

std::string seconds_text(double s) {
  return units::short_number(s, 3) + " s";
}

// logp (METHODS.md section 4): the pairs measure at once, so its cost does not grow with P.
// EEL: runs x round trips (+ a warm-up of at most 1,000); flood: a warm-up and repetitions x
// queue depths x sizes floods of N(size, q) messages; the overlap test: on each side 3+1
// baselines and about 20 busy steps (up to 32, the busy time growing past g) x repetitions
// floods of N(8 B, 1) messages (pbench-logp's OverlapTest).
MethodCost logp_cost(const WorkerValues& v, const MachineConstants& m) {
  const double roundtrips = v.number("eel_roundtrips", 10000);
  const double runs = v.number("eel_runs", 10);
  const auto depths = v.numbers("queue_depths", {1, 2, 4, 8, 16, 32, 64});
  const double min_size = std::max(1.0, v.number("min_size", 8));
  const double max_size = std::max(min_size, v.number("max_size", 4194304));
  const double flood_messages = v.number("flood_messages", 10000);
  const double flood_bytes = v.number("flood_bytes", 16777216);
  const double repetitions = std::max(1.0, v.number("repetitions", 3));
  const auto messages = [&](double size, double q) {
    return std::max(std::min(flood_messages, std::floor(flood_bytes / size)),
                    std::max(16.0, 2 * q));
  };
  const auto flood = [&](double size, double q) {
    return messages(size, q) * (m.latency + size / m.bandwidth) + m.latency;
  };
  double seconds = 5 * 0.005;  // the busy loop's calibration: 5 trials of 5 ms
  seconds += (runs * roundtrips + std::min(1000.0, roundtrips)) * 2 * m.latency;
  const double deepest = depths.empty() ? 1 : *std::max_element(depths.begin(), depths.end());
  seconds += flood(min_size, deepest);
  int sizes = 0;
  for (double size = min_size; size <= max_size; size *= 2) {
    ++sizes;
    for (double q : depths) seconds += repetitions * flood(size, q);
  }
  double steps = 0;  // busy steps of t0/16: 1 each until the busy time passes g, then k/16
  for (int k = 1; k <= 20; ++k) steps += std::max(1.0, k / 16.0);
  seconds += 2 * (4 + steps * repetitions) * messages(8, 1) * m.latency;
  std::ostringstream rule;
  rule << "logp: " << runs << " x " << roundtrips << " round trips, " << repetitions << " x "
       << depths.size() << " queue depths x " << sizes << " sizes of floods, overlap test";
  return {seconds, rule.str(), 0};
}

// comm (section 1): patterns (6 rings, R random, the worst cycle, two bisections, the
// ping-pong, the 2-D and 3-D grids: each direction and all) x sizes x methods x repetitions
// measurements, each the time-driven loop's window or one iteration if longer, plus its
// warm-up iteration and barrier; MPI_Alltoallv walks every peer.
MethodCost comm_cost(const WorkerValues& v, const Placement& placement, const MachineConstants& m) {
  const int p = std::max(2, placement.processes);
  const double random = v.number("random_patterns", 30);
  const double repetitions = std::max(1.0, v.number("repetitions", 3));
  const auto window = v.numbers("target_window", {2.5e-3, 5e-3});
  const double target = window.size() == 2 ? std::sqrt(window[0] * window[1]) : 3.54e-3;
  const auto methods_given = v.text("methods");
  const double methods =
      methods_given.empty() || methods_given == "[]"
          ? 3
          : static_cast<double>(std::count(methods_given.begin(), methods_given.end(), ',') + 1);
  const int factors = prime_factor_count(p);
  const double patterns = 6 + random + 4 + (std::min(2, factors) + 1) + (std::min(3, factors) + 1);
  double memory = v.number("memory_per_proc", 0);
  if (memory <= 0) memory = static_cast<double>(m.memory_per_node) / placement.ranks_per_node();
  const double l_max = std::clamp(std::floor(memory / 128), 4097.0, static_cast<double>(INT_MAX));
  std::vector<double> sizes;
  for (int i = 0; i <= 12; ++i) sizes.push_back(std::ldexp(1.0, i));
  const double a = std::pow(l_max / 4096, 1.0 / 8);
  for (int k = 1; k <= 8; ++k) sizes.push_back(k == 8 ? l_max : std::round(4096 * std::pow(a, k)));
  std::vector<double> chosen;
  const std::string positions = trim_brackets(v.text("sizes"));
  if (!positions.empty()) {
    std::istringstream in(positions);
    for (std::string item; std::getline(in, item, ',');) {
      const auto dash = item.find('-');
      const int first = std::atoi(item.substr(0, dash).c_str());
      const int last = dash == std::string::npos ? first : std::atoi(item.substr(dash + 1).c_str());
      for (int i = std::max(1, first); i <= std::min(21, last); ++i) chosen.push_back(sizes[i - 1]);
    }
  }
  if (chosen.empty()) chosen = sizes;
  const double peers = p * m.latency / 10;  // Alltoallv: a zero count to every other process
  // Every process of a node streams at once: they share its port where the machine says.
  const double bandwidth = m.process_bandwidth(placement.ranks_per_node());
  double per_pattern = 0;
  for (double size : chosen) {
    const double iteration = 2 * (m.latency + size / bandwidth) + peers / methods;
    per_pattern += methods * repetitions *
                   (std::max(target, iteration) + iteration + log2_ceil(p) * m.latency);
  }
  double seconds = patterns * per_pattern;
  const double max_time = v.number("max_time", 0);
  std::ostringstream rule;
  rule << "comm: " << patterns << " patterns x " << chosen.size() << " sizes (L_max "
       << units::short_number(l_max, 4) << " B) x " << methods << " methods x " << repetitions
       << " repetitions, window " << units::short_number(target * 1e3, 3) << " ms";
  if (max_time > 0 && max_time < seconds) {
    seconds = max_time;
    rule << ", cut at its max_time";
  }
  return {seconds, rule.str(), 0};
}

// bcast (section 5). --method auto takes the synchronized-clock method from this many processes
// (pbench-bcast's kSyncFromProcesses; a unit test keeps the two equal).
constexpr int kBcastSyncFrom = 16;

// bcast, per size: the delivery check from R = min(P, classic_sample) roots, then series of up
// to max_measurements measurements of M repetitions: repeated broadcasts; OL by OL_i (one
// series of RTL_i and acknowledged broadcasts per task i != root) or by sync (a clock learning
// of ceil(log2 P) rounds of the fit span, a window per broadcast of twice its latency plus twice
// the clock's bound, each measurement's start 5 ms and a window ahead, then the OL_i series of
// the k + 1 cross-checked tasks); broadcast rounds over R roots per round; broadcast-barrier;
// acknowledgements from R tasks. A broadcast: MPI_Bcast the lesser of a binomial tree's depth
// hops (latency and message time each) and a scatter-allgather's 2·depth latencies and twice the
// message time (as MPICH does long messages); own linear P - 1 hops, own binomial depth hops,
// each with the hop delay.
MethodCost bcast_cost(const WorkerValues& v, const Placement& placement,
                      const MachineConstants& m) {
  const int p = std::max(2, placement.processes);
  const auto sizes = v.numbers("sizes", {8, 256, 65536, 1048576});
  const double repetitions = std::max(1.0, v.number("repetitions", 100));
  const double measurements = std::max(1.0, v.number("max_measurements", 30));
  const std::string impl = v.text("impl", "mpi");
  std::string method = v.text("method", "auto");
  if (method != "sync" && method != "oli") method = p >= kBcastSyncFrom ? "sync" : "oli";
  const double sample = std::min<double>(p, std::max(1.0, v.number("classic_sample", 4)));
  const double checked = std::min<double>(p - 1, std::max(0.0, v.number("check_tasks", 2)) + 1);
  const double bound = v.number("clock_error_bound_us", 5) * 1e-6;
  const double fit = std::max(0.0, v.number("clock_fit_seconds", 0.1));
  const double levels = log2_ceil(p);
  const bool chain = impl == "linear" || impl == "backward";
  const double depth = chain ? p - 1.0 : std::max(1.0, levels);
  const double hop_delay = v.number("hop_delay_us", 0) * 1e-6;
  const double series = measurements * repetitions;
  // A learning: per round 16 fit points of 8 ping-pongs over the fit span, then the check.
  const double learning = levels * (fit + 16 * 8 * 2 * m.latency + 8 * 2 * m.latency);
  double seconds = 0;
  for (double size : sizes) {
    const double tree = depth * (m.latency + size / m.bandwidth + hop_delay);
    const double ol =
        impl == "mpi" ? std::min(tree, 2 * depth * m.latency + 2 * size / m.bandwidth) : tree;
    seconds += sample * 2 * ol;  // delivery checks
    seconds += series * ol;      // repeated broadcasts
    if (method == "sync") {
      const double window = 2 * ol + 2 * bound;
      seconds += learning + series * window + measurements * (5e-3 + window);
      seconds += checked * series * (3 * m.latency + ol);  // the cross-check's OL_i
    } else {
      seconds += (p - 1) * series * (3 * m.latency + ol);  // RTL_i and E_i
    }
    seconds += series * sample * ol;                      // rounds
    seconds += series * (ol + levels * m.latency);        // broadcast-barrier
    seconds += series * (ol + sample * m.latency);        // acknowledgements
  }
  std::ostringstream rule;
  rule << "bcast: method " << method << ", " << sizes.size() << " sizes x " << measurements
       << " measurements (at most) x " << repetitions << " broadcasts x (";
  if (method == "sync") {
    rule << "synchronized windows + " << checked << " OL_i cross-check tasks";
  } else {
    rule << p - 1 << " OL_i tasks";
  }
  rule << " + " << sample << " rounds roots + 3 methods), depth " << depth;
  return {seconds, rule.str(), 0};
}

// links (the link matrix, mpiGraph's shift schedule): N - 1 shifts between N endpoints (one
// rank per node, or every rank on one node), every pair of a shift at once; per shift and
// repetition the latency round trips and the streamed messages.
MethodCost links_cost(const WorkerValues& v, const Placement& placement,
                      const MachineConstants& m) {
  const int n = placement.nodes >= 2 ? placement.nodes : placement.processes;
  const double roundtrips = v.number("latency_roundtrips", 1000);
  const double size = v.number("message_size", 4194304);
  const double messages = v.number("messages", 8);
  const double repetitions = std::max(1.0, v.number("repetitions", 3));
  const double shift =
      repetitions * (roundtrips * 2 * m.latency + messages * (m.latency + size / m.bandwidth));
  const double seconds = std::max(0, n - 1) * shift + static_cast<double>(n) * n * m.latency / 10;
  std::ostringstream rule;
  rule << "links: " << std::max(0, n - 1) << " shifts x " << repetitions << " x (" << roundtrips
       << " round trips + " << messages << " x " << units::short_number(size, 4) << " B)";
  return {seconds, rule.str(), 0};
}

// io's consortium suite (section 3): per iteration a sustained write, a cached write and a
// sustained read of every process's blocks through the file system's bandwidth (shared by all
// processes), each with an open, a close and (sustained write) a sync; the many-small-files
// test: create, stat, open/close and remove per file.
MethodCost consortium_cost(const WorkerValues& v, const Placement& placement,
                           const MachineConstants& m) {
  const double iterations = std::max(1.0, v.number("iterations", 1));
  const double block = v.number("block_size", 16777216);
  const double segments = std::max(1.0, v.number("segment_count", 1));
  const double transfer = std::max(1.0, v.number("transfer_size", 1048576));
  const double bytes = placement.processes * block * segments;
  const double calls = std::ceil(block / transfer) * segments;
  double seconds =
      iterations * 3 * (bytes / m.io_bandwidth + 3 * m.metadata_seconds + calls * m.latency * 4);
  const bool small = v.number("small_files", 0) > 0 || v.text("small_files") == "true";
  std::ostringstream rule;
  rule << "io consortium: " << iterations << " x 3 tests of " << units::short_number(bytes, 4)
       << " B";
  if (small) {
    const double files = v.number("files_per_process", 100) * placement.processes;
    seconds += iterations * files * 4 * m.metadata_seconds;
    rule << ", small files: " << units::short_number(files, 4) << " x 4 operations";
  }
  return {seconds, rule.str(), 0};
}

}  // namespace

std::string MachineConstants::text() const {
  const auto source = [&](const char* name) {
    const auto it = sources.find(name);
    return " (" + (it == sources.end() ? std::string("stated default") : it->second) + ")";
  };
  std::ostringstream out;
  out << "latency " << units::short_number(latency * 1e6, 3) << " us" << source("latency")
      << ", bandwidth " << units::short_number(bandwidth / 1e9, 3) << " GB/s per process"
      << source("bandwidth");
  if (node_bandwidth > 0) {
    out << ", " << units::short_number(node_bandwidth / 1e9, 3) << " GB/s per node"
        << source("node bandwidth");
  }
  out << ", file system " << units::short_number(io_bandwidth / 1e6, 3) << " MB/s"
      << source("file system") << ", " << units::short_number(metadata_seconds * 1e3, 3)
      << " ms per file operation" << source("file operation") << ", start-up "
      << units::short_number(launch_seconds, 3) << " s + "
      << units::short_number(launch_per_process, 3) << " s per process" << source("start-up");
  return out.str();
}

double MachineConstants::process_bandwidth(int ranks_per_node) const {
  if (node_bandwidth <= 0 || ranks_per_node <= 1) return bandwidth;
  return std::min(bandwidth, node_bandwidth / ranks_per_node);
}

double launch_seconds(const MachineConstants& machine, int processes) {
  return machine.launch_seconds + machine.launch_per_process * processes;
}

WorkerValues::WorkerValues(const nlohmann::json& description, const nlohmann::json& params) {
  if (description.contains("parameters")) {
    for (const auto& p : description["parameters"]) {
      const auto& d = p.value("default", nlohmann::json());
      values_[p.value("name", "")] = d.is_string() ? d.get<std::string>() : d.dump();
    }
  }
  if (params.contains("settings")) {
    for (const auto& [name, value] : params["settings"].items()) {
      values_[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  // A point's dimensions set the worker parameters their descriptions name.
  for (const Dimension* d : all_dimensions()) {
    const auto value = params.find(d->name);
    if (d->worker_parameter.empty() || value == params.end()) continue;
    values_[d->worker_parameter] = value->is_string() ? value->get<std::string>() : value->dump();
  }
}

std::string WorkerValues::text(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

double WorkerValues::number(const std::string& name, double fallback) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  return read_number(trim_brackets(it->second)).value_or(fallback);
}

std::vector<double> WorkerValues::numbers(const std::string& name,
                                          const std::vector<double>& fallback) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  std::vector<double> out;
  std::istringstream in(trim_brackets(it->second));
  for (std::string item; std::getline(in, item, ',');) {
    if (auto n = read_number(item)) out.push_back(*n);
  }
  return out.empty() ? fallback : out;
}

MethodCost method_cost(const std::string& worker, const WorkerValues& values,
                       const Placement& placement, const MachineConstants& given) {
  MachineConstants machine = given;
  if (machine.memory_per_node <= 0) {
    machine.memory_per_node =
        static_cast<std::int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  }
  // One process: logp has no pair, bcast no task to broadcast to; both end at once.
  if ((worker == "logp" || worker == "bcast") && placement.processes < 2) {
    return {0, worker + ": one process measures nothing (no pair, no task)", 0};
  }
  if (worker == "logp") return logp_cost(values, machine);
  if (worker == "comm") return comm_cost(values, placement, machine);
  if (worker == "bcast") return bcast_cost(values, placement, machine);
  if (worker == "links") return links_cost(values, placement, machine);
  if (worker == "io") {
    if (values.text("suite") == "consortium") return consortium_cost(values, placement, machine);
    const double t = values.number("schedule_time", kIoDefaultScheduleTime);
    const double k = values.number("guard_factor", kIoDefaultGuardFactor);
    const double bound = guarded_io_seconds(t, k);
    const std::string k_text = units::short_number(std::max(k, kIoElapsedAllowance), 3);
    // --unguarded: no guard cuts a row, so T x k is only what a guarded run would keep to.
    const bool unguarded = values.text("unguarded") == "true" || values.text("unguarded") == "1";
    if (unguarded) {
      return {bound,
              "io: scheduled time T " + seconds_text(t) + " x the time guard's factor " + k_text +
                  " (unguarded: an estimate, no bound)",
              0};
    }
    // Guarded: it runs about T (the stated share until this machine's history says), at most
    // T x k (the bound its limit derives from).
    return {kIoExpectedShare * t,
            "io: scheduled time T " + seconds_text(t) + " x " +
                units::short_number(kIoExpectedShare, 3) +
                " (the stated share of T a guarded run takes), at most T x " + k_text +
                " (the time guard's bound)",
            bound};
  }
  throw UsageError("no cost rule for worker '" + worker + "'");
}

}  // namespace pbench::sweep
