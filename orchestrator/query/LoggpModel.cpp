#include "query/LoggpModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

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
  switch (path) {
    case Path::shared_memory:
      return "shared memory";
    case Path::network:
      return "network";
    case Path::mixed:
      return "shared memory and network";
    case Path::unknown:
      break;
  }
  return "unknown";
}

bool paths_differ(Path logp, Path figure) {
  if (logp == Path::unknown || figure == Path::unknown) return false;
  if (logp == Path::shared_memory) return figure != Path::shared_memory;
  return figure == Path::shared_memory;
}

bool within_band(double speed) {
  return speed >= 1 / kModelBand && speed <= kModelBand;
}

std::vector<ModelReading> read_series(const std::vector<ModelPoint>& series) {
  std::vector<ModelReading> out(series.size());
  const auto jump = [&](std::size_t a, std::size_t b) {
    return series[a].speed > 0 && !within_band(series[b].speed / series[a].speed);
  };
  for (std::size_t i = 0; i < series.size(); ++i) {
    const ModelPoint& p = series[i];
    if (within_band(p.speed)) continue;
    ModelReading& r = out[i];
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
    if (p.ring && p.speed < 1 / kModelBand &&
        (!p.pingpong_speed || p.speed * kModelBand < *p.pingpong_speed)) {
      const char* against = p.pingpong_speed ? "below the model and below the ping-pong at the "
                                               "same size by more than the band"
                            : p.pingpong_elsewhere
                                ? "below the model (the ping-pong ran on another path: not "
                                  "compared)"
                                : "below the model (no ping-pong at this size)";
      r = {"contention",
           std::string(against) + ": the ring's messages at once are slower than one at a time"};
      continue;
    }
    // The run of points outside the band that holds this one: the nearest jump at or before
    // it within the run (its first point's jump from the point before included), else a jump
    // where the run ends.
    std::size_t first = i, last = i;
    while (first > 0 && !within_band(series[first - 1].speed)) --first;
    while (last + 1 < series.size() && !within_band(series[last + 1].speed)) ++last;
    std::optional<std::pair<std::size_t, std::size_t>> edge;
    for (std::size_t j = i; j >= first && j > 0 && !edge; --j) {
      if (jump(j - 1, j)) edge = std::pair{j - 1, j};
    }
    if (!edge && last + 1 < series.size() && jump(last, last + 1)) {
      edge = std::pair{last, last + 1};
    }
    if (edge) {
      const auto [a, b] = *edge;
      r = {"protocol switch",
           "the ratio jumps " + factor_text(series[b].speed / series[a].speed) + "x between " +
               size_text(series[a].size) + " and " + size_text(series[b].size) +
               " (a change of protocol, such as eager to rendezvous, that one G does not "
               "model)"};
      continue;
    }
    r = {"unexplained", "outside the band, and no named reading applies"};
  }
  return out;
}

}  // namespace pbench::query
