#include "common/MetricCatalogue.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <utility>

#include "common/EnumName.hpp"
#include "common/PhysicalLimits.hpp"

namespace pbench::metrics {
namespace {

constexpr Better up = Better::higher;
constexpr Better down = Better::lower;
constexpr Better none = Better::neither;
constexpr Headline no = Headline::no;

// One line per metric. The headline figures come first, in the order of query system's table;
// a new metric is one more line here (its worker's result then may write it, and the store's
// catalogue gets it the next time pbench opens the store for writing).
constexpr MetricSpec kCatalogue[] = {
    // worker, name, unit, better, headline, figure, label keys, meaning[, companion of]
    {"io", "b_eff_io", "B/s", up, Headline::maximum, "b_eff_io", "partition",
     "effective I/O bandwidth b_eff_io of a partition as b_eff_io rev 2.1 computes it, "
     "sqrt(WR * R)"},
    {"comm", "b_eff", "B/s", up, Headline::maximum, "b_eff", "",
     "effective bandwidth b_eff: logarithmic average over ring and random patterns and message "
     "sizes, summed over all processes"},
    {"comm", "b_eff_per_process", "B/s", up, Headline::maximum, "b_eff_per_process", "",
     "b_eff divided by the number of processes"},
    // logp: g is the best over the queue depths; G and the flood's bandwidth at its largest
    // size are read at the depth that won g. EEL is the best 8-byte ping-pong; o_s and o_r (the
    // overlap test, always at q = 1) and L = EEL - o_s - o_r are read from the same result, so
    // that L is what the row above it says.
    {"logp", "g", "s", down, Headline::per_shape, "logp_g", "queue_depth",
     "gap g: time per 8-byte message in a flood with queue_depth sends outstanding"},
    {"logp", "big_g", "s/B", down, Headline::companion, "logp_G", "queue_depth",
     "gap per byte G: slope fitted over the bandwidth-bound message sizes", "g"},
    {"logp", "bandwidth_at_max_size", "B/s", up, Headline::companion, "logp_bandwidth_at_max_size",
     "queue_depth,size",
     "the flood's bandwidth at its largest message size (size / time per message)", "g"},
    {"logp", "eel_min", "s", down, Headline::per_shape, "logp_EEL", "",
     "end-to-end latency EEL: minimum over runs of half the 8-byte round trip", "", Bound::latency},
    {"logp", "o_s", "s", down, Headline::companion, "logp_o_s", "",
     "send overhead o_s from the CPU overlap test at queue depth 1", "eel_min",
     Bound::non_negative},
    {"logp", "o_r", "s", down, Headline::companion, "logp_o_r", "",
     "receive overhead o_r from the CPU overlap test at queue depth 1", "eel_min",
     Bound::non_negative},
    {"logp", "latency_l", "s", down, Headline::companion, "logp_L", "",
     "LogP latency L = EEL - o_s - o_r (a model figure, may be negative)", "eel_min", Bound::any},
    {"bcast", "ol", "s", down, Headline::per_shape, "bcast_ol", "size",
     "broadcast latency OL = max over tasks of OL_i = E_i - RTL_i/2", "", Bound::latency},

    {"io", "b_eff_io_rev2", "B/s", up, Headline::legacy, "b_eff_io", "partition",
     "b_eff_io as rev 2.1 computes it, stored under this name before pbench-io followed rev "
     "2.1 (whose b_eff_io was then the paper's value)"},
    {"io", "b_eff_io_paper", "B/s", up, no, "", "partition",
     "the paper's arithmetic b_eff_io: 0.25 write + 0.25 rewrite + 0.5 read"},
    {"io", "access_bandwidth", "B/s", up, no, "", "partition,access",
     "bandwidth of one access method (write, rewrite, read) averaged over the pattern types"},
    {"io", "access_bytes", "B", none, no, "", "partition,access",
     "bytes moved by one access method"},
    {"io", "type_bandwidth", "B/s", up, no, "", "partition,access,type",
     "bandwidth of one pattern type and access method"},
    {"io", "schedule_time", "s", none, no, "", "partition", "the scheduled time T"},
    {"io", "partition_time", "s", none, no, "", "partition", "the time T gives each partition"},
    {"io", "elapsed", "s", none, no, "", "partition", "time the partition's run took"},
    {"io", "b_eff_io_system", "B/s", up, no, "", "partition",
     "the result's largest b_eff_io over its partitions (rev 2.1)"},
    {"io", "b_eff_io_paper_system", "B/s", up, no, "", "partition",
     "the result's largest paper b_eff_io over its partitions"},
    {"io", "read_errors", "count", down, no, "", "", "chunks read back with wrong bytes"},
    {"io", "run_elapsed", "s", none, no, "", "", "time the whole run took"},
    {"io", "cut_rows", "count", down, no, "", "",
     "pattern rows of types 3-4 the time guard cut short"},
    {"io", "hints_not_in_effect", "count", down, no, "", "",
     "MPI-IO hints asked for and not in effect (each stated in the warnings)"},
    {"io", "sustained_write_transfer_rate", "B/s", up, no, "",
     "pattern,collective,file_per_process,api,transfer_size,statistic",
     "consortium sustained write (sync inside the timing): all bytes over the slowest "
     "process's open-to-close time, maximum over iterations"},
    {"io", "cached_write_transfer_rate", "B/s", up, no, "",
     "pattern,collective,file_per_process,api,transfer_size,statistic",
     "consortium cached write (no sync), maximum over iterations"},
    {"io", "sustained_read_transfer_rate", "B/s", up, no, "",
     "pattern,collective,file_per_process,api,transfer_size,statistic,caches_dropped",
     "consortium sustained read of the data the next process wrote, maximum over iterations"},
    {"io", "create_rate", "1/s", up, no, "", "directory,files_per_process,file_size,statistic",
     "consortium small files: files created per second"},
    {"io", "stat_rate", "1/s", up, no, "", "directory,files_per_process,file_size,statistic",
     "consortium small files: stat calls per second"},
    {"io", "open_close_rate", "1/s", up, no, "", "directory,files_per_process,file_size,statistic",
     "consortium small files: open and close pairs per second"},
    {"io", "remove_rate", "1/s", up, no, "", "directory,files_per_process,file_size,statistic",
     "consortium small files: files removed per second"},

    {"comm", "b_eff_per_node", "B/s", up, no, "", "", "b_eff divided by the number of nodes"},
    {"comm", "l_max", "B", none, no, "", "", "the largest message size L_max (memory / 128)"},
    {"comm", "pingpong_bandwidth", "B/s", up, no, "", "", "ping-pong bandwidth at L_max"},
    {"comm", "b_eff_at_lmax", "B/s", up, no, "", "", "b_eff of the largest message size alone"},
    {"comm", "b_eff_per_process_at_lmax", "B/s", up, no, "", "",
     "b_eff at L_max divided by the number of processes"},
    {"comm", "ring_per_process_at_lmax", "B/s", up, no, "", "",
     "ring patterns' bandwidth at L_max per process"},
    {"comm", "b_ring", "B/s", up, no, "", "", "the ring patterns' average bandwidth"},
    {"comm", "b_random", "B/s", up, no, "", "", "the random ring patterns' average bandwidth"},
    {"comm", "latency_rings_random", "s", down, no, "", "",
     "1-byte latency over ring and random patterns", "", Bound::latency},
    {"comm", "latency_rings", "s", down, no, "", "", "1-byte latency of the ring patterns", "",
     Bound::latency},
    {"comm", "latency_pingpong", "s", down, no, "", "", "half the 1-byte ping-pong round trip", "",
     Bound::latency},
    {"comm", "balance_factor", "B/flop", up, no, "", "", "b_eff over the given peak rate Rmax"},
    {"comm", "memory_per_process", "B", none, no, "", "", "memory per process L_max came from"},
    {"comm", "b_pattern", "B/s", up, no, "", "pattern", "bandwidth of one pattern"},

    {"logp", "eel_median", "s", down, no, "", "", "median over runs of half the 8-byte round trip",
     "", Bound::latency},
    {"logp", "overlap_potential", "s", none, no, "", "",
     "time the CPU is free while a message is in flight", "", Bound::non_negative},
    {"logp", "bandwidth", "B/s", up, no, "", "queue_depth", "asymptotic bandwidth 1/G"},
    {"logp", "large_message_threshold", "B", none, no, "", "queue_depth", "M = g/G"},
    {"logp", "protocol_switches", "count", none, no, "", "queue_depth",
     "protocol switches the fit of G found"},
    {"logp", "g_best", "s", down, no, "", "queue_depth", "the smallest g over the queue depths"},
    {"logp", "internode_pairs", "count", none, no, "", "",
     "measured pairs whose partners run on different nodes"},

    {"bcast", "ol_task", "rank", none, no, "", "size", "the task whose OL_i is OL"},
    {"bcast", "send_latency", "s", down, no, "", "size",
     "the root's own time per broadcast (its gap, not a latency)"},
    {"bcast", "rounds_latency", "s", down, no, "", "size",
     "one broadcast from every root in turn (a lower bound of OL)", "", Bound::latency},
    {"bcast", "barrier_latency", "s", down, no, "", "size",
     "broadcast followed by a barrier (an upper bound)", "", Bound::latency},
    {"bcast", "ack_latency", "s", down, no, "", "size",
     "broadcast with every task acknowledging to the root (an upper bound)", "", Bound::latency},
    {"bcast", "max_gap", "s", down, no, "", "size",
     "the largest per-process gap between broadcasts (checks the method's assumption)"},

    // links: the link matrix (mpiGraph's shift schedule). Its per-link and per-node bandwidths
    // are gated by reference and check (figure names), one figure per label; not in query system.
    // The median over every link's bandwidth is the matrix's headline in query system, per
    // partition shape (and environment), as every worker has one.
    {"links", "link_bandwidth", "B/s", up, Headline::per_label, "link_bandwidth", "from,to",
     "bandwidth of one ordered pair of nodes, timed at the receiver"},
    {"links", "link_latency", "s", down, no, "", "from,to",
     "half the round trip of one ordered pair of nodes while every node is busy", "",
     Bound::latency},
    {"links", "node_bandwidth", "B/s", up, Headline::per_label, "node_bandwidth", "node",
     "median bandwidth of the links a node is on"},
    {"links", "node_latency", "s", down, no, "", "node", "median latency of the links a node is on",
     "", Bound::latency},
    {"links", "bandwidth_median", "B/s", up, Headline::per_shape, "links_bandwidth_median", "",
     "median over every link's bandwidth"},
    {"links", "bandwidth_min", "B/s", up, no, "", "", "the weakest link's bandwidth"},
    {"links", "latency_median", "s", down, no, "", "", "median over every link's latency", "",
     Bound::latency},
    {"links", "latency_max", "s", down, no, "", "", "the slowest link's latency", "",
     Bound::latency},
    {"links", "links_measured", "count", none, no, "", "", "ordered pairs measured"},
};

using Key = std::pair<std::string_view, std::string_view>;

const std::map<Key, const MetricSpec*>& by_name() {
  static const auto table = [] {
    std::map<Key, const MetricSpec*> out;
    for (const auto& m : kCatalogue) out.emplace(Key{m.worker, m.name}, &m);
    return out;
  }();
  return table;
}

}  // namespace

std::span<const MetricSpec> catalogue() {
  return kCatalogue;
}

const MetricSpec* find_metric(std::string_view worker, std::string_view name) {
  const auto it = by_name().find(Key{worker, name});
  return it == by_name().end() ? nullptr : it->second;
}

std::string figure_spelling(std::string_view figure) {
  std::string out(figure);
  for (char& c : out) {
    if (c == ' ') c = '_';
  }
  return out;
}

const MetricSpec* find_figure(std::string_view figure) {
  const std::string name = figure_spelling(figure);
  for (const auto& m : kCatalogue) {
    if (m.figure == name && m.headline != Headline::legacy) return &m;
  }
  return nullptr;
}

std::string metric_names(std::string_view worker) {
  std::string out;
  for (const auto& m : kCatalogue) {
    if (m.worker == worker) out += (out.empty() ? "" : ", ") + std::string(m.name);
  }
  return out;
}

Bound bound_of(const MetricSpec& metric) {
  if (metric.bound != Bound::by_unit) return metric.bound;
  const std::string_view unit = metric.unit;
  return unit == "B" || unit == "count" || unit == "rank" ? Bound::non_negative : Bound::positive;
}

namespace {
/// A number as the catalogue's bounds print it: "1e+13".
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}
}  // namespace

std::string bound_text(const MetricSpec& metric) {
  std::string out;
  switch (bound_of(metric)) {
    case Bound::positive:
      out = "> 0";
      break;
    case Bound::latency:
      out = ">= " + worker::physical_value_text(kLatencyFloor, "s");
      break;
    case Bound::non_negative:
      out = ">= 0";
      break;
    case Bound::any:
    case Bound::by_unit:
      out = "finite";
      break;
  }
  if (metric.unit == "B/s") {
    out += ", <= " + number(kBandwidthCeilingPerProcess) + " B/s per process";
  } else if (metric.unit == "s/B") {
    out += ", >= " + number(1 / kBandwidthCeilingPerProcess) + " s/B";
  }
  return out;
}

long long bandwidth_processes(const MetricSpec& metric, long long nprocs) {
  // Figures of one process or one pair; every other bandwidth is a sum over the processes.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kOneProcess = {{
      {"logp", "bandwidth_at_max_size"},
      {"logp", "bandwidth"},
      {"logp", "big_g"},
      {"comm", "pingpong_bandwidth"},
      {"comm", "b_eff_per_process"},
      {"comm", "b_eff_per_process_at_lmax"},
      {"comm", "ring_per_process_at_lmax"},
      {"links", "link_bandwidth"},
      {"links", "bandwidth_min"},
      {"links", "bandwidth_median"},
  }};
  for (const auto& [worker, name] : kOneProcess) {
    if (metric.worker == worker && metric.name == name) return 1;
  }
  return std::max(1LL, nprocs);
}

double bandwidth_cap(long long processes, long long nodes, const BandwidthPeaks& peaks) {
  processes = std::max(1LL, processes);
  nodes = std::min(std::max(1LL, nodes), processes);
  if (!peaks.per_process && !peaks.per_node) {
    return kBandwidthCeilingPerProcess * static_cast<double>(processes);
  }
  double cap = std::numeric_limits<double>::infinity();
  if (peaks.per_process) cap = *peaks.per_process * static_cast<double>(processes);
  if (peaks.per_node) cap = std::min(cap, *peaks.per_node * static_cast<double>(nodes));
  return cap;
}

std::string bandwidth_cap_problem(std::string_view name, double value, long long processes,
                                  long long nodes, const BandwidthPeaks& peaks) {
  const double cap = bandwidth_cap(processes, nodes, peaks);
  if (!(value > cap)) return "";
  processes = std::max(1LL, processes);
  const std::string said = std::string(worker::kPhysicalPrefix) + std::string(name) + " = " +
                           worker::physical_value_text(value, "B/s") + " is above " +
                           worker::physical_value_text(cap, "B/s");
  const std::string counted =
      std::to_string(processes) + (processes == 1 ? " process" : " processes");
  if (!peaks.per_process && !peaks.per_node) {
    return said + " (" + worker::physical_value_text(kBandwidthCeilingPerProcess, "B/s") +
           " per process x " + counted + "), faster than any memory copy";
  }
  std::string stated;
  if (peaks.per_process) {
    stated = worker::physical_value_text(*peaks.per_process, "B/s") + " per process x " + counted;
  }
  if (peaks.per_node) {
    const long long n = std::min(std::max(1LL, nodes), processes);
    stated += (stated.empty() ? "" : ", ") + worker::physical_value_text(*peaks.per_node, "B/s") +
              " per node x " + std::to_string(n) + (n == 1 ? " node" : " nodes");
  }
  return said + " (" + stated + (peaks.source.empty() ? "" : ", " + peaks.source) +
         "), more than the machine's stated peak";
}

std::string impossible_value(const MetricSpec& metric, double value, long long nprocs) {
  return impossible_value(metric, value, nprocs, 1, BandwidthPeaks{});
}

std::string impossible_value(const MetricSpec& metric, double value, long long nprocs,
                             long long nodes, const BandwidthPeaks& peaks) {
  const std::string unit(metric.unit);
  const std::string said = std::string(worker::kPhysicalPrefix) + std::string(metric.name) + " = " +
                           worker::physical_value_text(value, unit);
  if (!std::isfinite(value)) return said + " is not a finite number";
  switch (bound_of(metric)) {
    case Bound::positive:
      if (!(value > 0)) return said + " is not positive";
      break;
    case Bound::latency:
      if (!(value > 0)) return said + " is not positive";
      if (value < kLatencyFloor) {
        return said + " is below " + worker::physical_value_text(kLatencyFloor, "s") +
               ", faster than any message between two processes";
      }
      break;
    case Bound::non_negative:
      if (value < 0) return said + " is negative";
      break;
    case Bound::any:
    case Bound::by_unit:
      break;
  }
  const long long processes = bandwidth_processes(metric, nprocs);
  // A figure of one process is on one node; a sum over processes on the result's nodes.
  const long long on_nodes = processes == 1 ? 1 : nodes;
  if (unit == "B/s") return bandwidth_cap_problem(metric.name, value, processes, on_nodes, peaks);
  const double fastest = bandwidth_cap(processes, on_nodes, peaks);
  if (unit == "s/B" && value < 1 / fastest) {
    return said + " is below " + worker::physical_value_text(1 / fastest, unit) + " (1/G above " +
           worker::physical_value_text(fastest, "B/s") +
           (peaks.per_process || peaks.per_node ? ", the machine's stated peak)"
                                                : ", faster than any memory copy)");
  }
  return "";
}

std::string impossible_figures(std::string_view worker, long long nprocs,
                               const std::vector<MetricValue>& values) {
  return impossible_figures(worker, nprocs, 1, BandwidthPeaks{}, values);
}

std::string impossible_figures(std::string_view worker, long long nprocs, long long nodes,
                               const BandwidthPeaks& peaks,
                               const std::vector<MetricValue>& values) {
  constexpr std::size_t kShown = 3;
  std::string out;
  std::size_t found = 0;
  for (const auto& v : values) {
    const auto* spec = find_metric(worker, v.name);
    if (spec == nullptr) continue;
    std::string why = impossible_value(*spec, v.value, nprocs, nodes, peaks);
    if (why.empty()) continue;
    if (++found > kShown) continue;
    if (!v.labels.empty() && v.labels != "{}") why += " (" + v.labels + ")";
    // One prefix for the whole reason.
    out += found == 1 ? why : "; " + why.substr(worker::kPhysicalPrefix.size());
  }
  if (found > kShown) out += "; and " + std::to_string(found - kShown) + " more";
  return out;
}

std::string_view to_string(Better better) {
  constexpr EnumName<Better> kNames[] = {
      {Better::higher, "higher"}, {Better::lower, "lower"}, {Better::neither, "neither"}};
  return name_of(kNames, better, "neither");
}

std::string_view to_string(Headline headline) {
  constexpr EnumName<Headline> kNames[] = {{Headline::no, "no"},
                                           {Headline::maximum, "maximum"},
                                           {Headline::per_shape, "per_shape"},
                                           {Headline::companion, "companion"},
                                           {Headline::legacy, "legacy"},
                                           {Headline::per_label, "per_label"}};
  return name_of(kNames, headline, "no");
}

}  // namespace pbench::metrics
