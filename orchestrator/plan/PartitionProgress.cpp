#include "plan/PartitionProgress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "store/ResultLayout.hpp"
#include "util/Time.hpp"

namespace pbench::run {
using store::PointState;

SweepProgressReport partition_progress(store::Store& store, std::int64_t sweep_id) {
  using Key = std::tuple<int, int, int>;  // partition, nodes, procs per node
  std::map<Key, PartitionProgress> by_partition;
  std::map<Key, double> seconds_by_partition;
  double all_seconds = 0;
  int all_finished = 0;
  for (const auto& point : store.points(sweep_id)) {
    const auto shape = store::asked_shape(nlohmann::json::parse(point.params_json, nullptr, false));
    const Key key{point.partition, shape.exact() ? shape.nodes : 0,
                  shape.exact() ? shape.procs_per_node : 0};
    auto& p = by_partition[key];
    p.partition = point.partition;
    p.nodes = std::get<1>(key);
    p.procs_per_node = std::get<2>(key);
    switch (point.state) {
      case PointState::planned:
        ++p.planned;
        break;
      case PointState::queued:
        ++p.queued;
        break;
      case PointState::running:
        ++p.running;
        break;
      case PointState::done:
        ++p.done;
        break;
      case PointState::failed:
      case PointState::cancelled:
      case PointState::timeout:
        ++p.failed;
        break;
    }
    if (point.state != PointState::done) continue;
    const auto attempt = store.latest_attempt(point.id);
    if (!attempt || !attempt->started_at || !attempt->ended_at) continue;
    const double seconds = seconds_between(*attempt->started_at, *attempt->ended_at);
    if (seconds <= 0) continue;
    ++p.finished_with_duration;
    seconds_by_partition[key] += seconds;
    all_seconds += seconds;
    ++all_finished;
  }
  SweepProgressReport report;
  double eta = 0;
  bool estimable = true;
  for (auto& [partition, p] : by_partition) {
    if (p.finished_with_duration > 0) {
      p.mean_seconds = seconds_by_partition[partition] / p.finished_with_duration;
    }
    if (p.remaining() > 0) {
      if (p.mean_seconds) {
        eta += p.remaining() * *p.mean_seconds;
      } else if (all_finished > 0) {
        eta += p.remaining() * (all_seconds / all_finished);
      } else {
        estimable = false;
      }
    }
    report.partitions.push_back(p);
  }
  if (estimable) report.eta_seconds = eta;
  return report;
}

std::string partition_label(const PartitionProgress& p) {
  std::string label = std::to_string(p.partition);
  if (p.nodes > 0) {
    label += " (" + std::to_string(p.nodes) + "x" + std::to_string(p.procs_per_node) + ")";
  }
  return label;
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buffer[32];
  if (s < 60) {
    std::snprintf(buffer, sizeof buffer, "%lds", s);
  } else if (s < 3600) {
    std::snprintf(buffer, sizeof buffer, "%ldm %02lds", s / 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ldh %02ldm", s / 3600, (s % 3600) / 60);
  }
  return buffer;
}

}  // namespace pbench::run
