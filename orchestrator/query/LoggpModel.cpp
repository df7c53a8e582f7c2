#include "query/LoggpModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "common/EnumName.hpp"

namespace pbench::query {
namespace {

std::string factor_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string size_text(double size) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f B", size);
  return text;
}

}  // namespace

const LoggpDepth& LoggpParameters::depth_for(int outstanding) const {
  if (depths.empty()) throw std::logic_error("LogGP parameters without a queue depth");
  const LoggpDepth* chosen = &depths.front();
  for (const auto& d : depths) {
    if (d.queue_depth <= outstanding && d.queue_depth >= chosen->queue_depth) chosen = &d;
  }
  return *chosen;
}

double LoggpParameters::one_way(double size) const {
  return eel + std::max(0.0, size - kEelSize) * depth_for(1).big_g;
}

double LoggpParameters::gap(double size, const LoggpDepth& depth) const {
  return depth.g + std::max(0.0, size - kEelSize) * depth.big_g;
}

double LoggpParameters::train(double size, int count) const {
  const int k = std::max(1, count);
  return one_way(size) + static_cast<double>(k - 1) * gap(size, depth_for(k));
}

double predicted_pingpong_time(const LoggpParameters& p, double size) {
  return p.one_way(size);
}

double predicted_pingpong_bandwidth(const LoggpParameters& p, double size) {
  return size / p.one_way(size);
}

int ring_messages_per_process(int ring_size) {
  if (ring_size < 2) return 0;
  return ring_size == 2 ? 1 : 2;
}

double predicted_ring_bandwidth_per_process(const LoggpParameters& p, double size,
                                            const std::vector<int>& ring_sizes) {
  double messages = 0, slowest = 0;
  int participants = 0;
  for (int s : ring_sizes) {
    const int k = ring_messages_per_process(s);
    if (k == 0) continue;
    messages += static_cast<double>(k) * s;
    participants += s;
    slowest = std::max(slowest, p.train(size, k));
  }
  if (participants == 0 || slowest <= 0) return 0;
  return messages * size / slowest / participants;
}

int ring_queue_depth(const LoggpParameters& p, const std::vector<int>& ring_sizes) {
  int k = 1;
  for (int s : ring_sizes) k = std::max(k, ring_messages_per_process(s));
  return p.depth_for(k).queue_depth;
}

double predicted_broadcast_ol(const LoggpParameters& p, double size, bcast::Algorithm algorithm,
                              int nprocs, double hop_delay) {
  const bcast::BroadcastShape shape(algorithm, nprocs);
  const bcast::HopCost cost{p.gap(size, p.depth_for(1)) + hop_delay, p.one_way(size) + hop_delay};
  double ol = 0;
  for (int task = 1; task < nprocs; ++task) ol = std::max(ol, shape.model_completion(task, cost));
  return ol;
}

double predicted_link_bandwidth(const LoggpParameters& p, double size, int messages) {
  const int n = std::max(1, messages);
  return static_cast<double>(n) * size / p.train(size, n);
}

std::string path_name(Path path) {
  constexpr EnumName<Path> kNames[] = {{Path::shared_memory, "shared memory"},
                                       {Path::network, "network"},
                                       {Path::mixed, "shared memory and network"}};
  return name_of(kNames, path);
}

bool paths_differ(Path logp, Path figure) {
  if (logp == Path::unknown || figure == Path::unknown) return false;
  if (logp == Path::shared_memory) return figure != Path::shared_memory;
  return figure == Path::shared_memory;
}

bool within_band(double speed) {
  return speed >= 1 / kModelBand && speed <= kModelBand;
}

int established_side(const ModelPoint& point) {
  if (point.samples < 2 || !(point.low <= point.high)) return 0;
  if (point.high < 1 / kModelBand) return -1;
  if (point.low > kModelBand) return 1;
  return 0;
}

namespace {

/// The spreads of two points do not overlap (both known).
bool spreads_apart(const ModelPoint& a, const ModelPoint& b) {
  if (a.samples < 2 || b.samples < 2 || !(a.low <= a.high) || !(b.low <= b.high)) return false;
  return a.high < b.low || b.high < a.low;
}

std::string spread_text(const ModelPoint& p) {
  return factor_text(p.low) + "-" + factor_text(p.high);
}

/// Outside the band, but not established: why no cause is named.
ModelReading uncertain(const ModelPoint& p) {
  if (p.samples < 2 || !(p.low <= p.high)) {
    return {"uncertain",
            "outside the band on one sample, whose spread is unknown: no cause is named (repeat "
            "the measurement: comm.repetitions, bcast.repetitions)"};
  }
  return {"uncertain", "outside the band, but its " + std::to_string(p.samples) +
                           " samples spread " + spread_text(p) +
                           " of the model, into the band: the difference is not established"};
}

/// A ring point below the model (and below its ping-pong by more than the band), established.
bool contended(const ModelPoint& p) {
  return p.ring && established_side(p) < 0 &&
         (!p.pingpong_speed || p.high * kModelBand < *p.pingpong_speed);
}

ModelReading contention(const ModelPoint& p) {
  const char* against =
      p.pingpong_speed ? "below the model and below the ping-pong at the same sizes by more than "
                         "the band"
      : p.pingpong_elsewhere ? "below the model (the ping-pong ran on another path: not compared)"
                             : "below the model (no ping-pong at these sizes)";
  return {"contention", std::string(against) +
                            ", at neighbouring sizes and beyond its spread: the ring's messages "
                            "at once are slower than one at a time"};
}

}  // namespace

std::vector<ModelReading> read_series(const std::vector<ModelPoint>& series) {
  const std::size_t n = series.size();
  std::vector<ModelReading> out(n);
  // Levels: the runs of neighbouring sizes whose ratios differ by no more than the band.
  std::vector<std::size_t> level_first(n), level_last(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool joined =
        i > 0 && series[i - 1].speed > 0 && within_band(series[i].speed / series[i - 1].speed);
    level_first[i] = joined ? level_first[i - 1] : i;
  }
  for (std::size_t i = n; i-- > 0;) {
    level_last[i] = i + 1 < n && level_first[i + 1] == level_first[i] ? level_last[i + 1] : i;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const ModelPoint& p = series[i];
    ModelReading& r = out[i];
    if (!p.not_comparable.empty()) {
      r = {"not comparable: " + p.not_comparable,
           "the result is not valid (" + p.not_comparable +
               "): its timings measure more than the method, so no reading is made"};
      continue;
    }
    if (within_band(p.speed)) continue;
    if (p.path_differs) {
      r = {"shared memory vs network",
           "logp's pair and this figure ran on different paths (one inside a node, the other "
           "between nodes)"};
      continue;
    }
    if (p.weak) {
      r = {"weak link", "the link rule names this link weak against the other links"};
      continue;
    }
    const int side = established_side(p);
    if (side == 0) {
      r = uncertain(p);
      continue;
    }
    if (contended(p) &&
        ((i > 0 && contended(series[i - 1])) || (i + 1 < n && contended(series[i + 1])))) {
      r = contention(p);
      continue;
    }
    const std::size_t first = level_first[i], last = level_last[i];
    bool level_out = last > first;
    for (std::size_t j = first; j <= last && level_out; ++j)
      level_out = established_side(series[j]) == side;
    std::optional<std::pair<std::size_t, std::size_t>> edge;
    if (level_out && first > 0 && spreads_apart(series[first - 1], series[first])) {
      edge = std::pair{first - 1, first};
    } else if (level_out && last + 1 < n && spreads_apart(series[last], series[last + 1])) {
      edge = std::pair{last, last + 1};
    }
    if (edge) {
      const auto [a, b] = *edge;
      r = {"protocol switch",
           "the ratio steps " + factor_text(series[b].speed / series[a].speed) + "x between " +
               size_text(series[a].size) + " and " + size_text(series[b].size) +
               ", beyond both spreads, and holds over " + std::to_string(last - first + 1) +
               " neighbouring sizes (a change of protocol, such as eager to rendezvous, that "
               "one G does not model)"};
      continue;
    }
    r = {"unexplained",
         "outside the band beyond its spread, but neither a step held over neighbouring sizes "
         "nor another named reading fits"};
  }
  return out;
}

}  // namespace pbench::query
