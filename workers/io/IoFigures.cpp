#include "io/IoFigures.hpp"

#include <cmath>

namespace pbench::io {

std::vector<int> types_of(Access access, bool rewrite_all) {
  if (access == Access::rewrite && !rewrite_all) return {0};
  return {0, 1, 2, 3, 4};
}

double weighted_access_average(const std::map<int, double>& bandwidth_by_type) {
  double sum = 0;
  double weight = 0;
  for (const auto& [type, bandwidth] : bandwidth_by_type) {
    const double w = type == 0 ? 2.0 : 1.0;
    sum += w * bandwidth;
    weight += w;
  }
  return weight > 0 ? sum / weight : 0;
}

IoFigures IoFigures::reduce(const std::vector<TypeMeasurement>& types,
                            const std::vector<int>& partitions, bool rewrite_all) {
  IoFigures out;
  for (int n : partitions) {
    PartitionFigures f;
    f.partition = n;
    for (const TypeMeasurement& t : types) {
      if (t.partition != n) continue;
      f.access_bytes[t.access] += t.bytes;
      if (t.complete && t.total_time > 0) f.type_bandwidth[{t.access, t.type}] = t.bandwidth();
    }
    for (Access access : kAccesses) {
      std::map<int, double> by_type;
      bool all = true;
      for (int type : types_of(access, rewrite_all)) {
        auto it = f.type_bandwidth.find({access, type});
        if (it == f.type_bandwidth.end()) {
          all = false;
        } else {
          by_type[type] = it->second;
        }
      }
      if (all) f.access_bandwidth[access] = weighted_access_average(by_type);
    }
    if (f.access_bandwidth.size() == 3) {
      f.b_eff_io_paper = 0.25 * f.access_bandwidth[Access::write] +
                         0.25 * f.access_bandwidth[Access::rewrite] +
                         0.5 * f.access_bandwidth[Access::read];
    }
    // WR: the five write types and the type 0 rewrite, each once (so type 0 twice), over 6.
    double wr = 0;
    int parts = 0;
    for (int type = 0; type < kPatternTypes; ++type) {
      auto it = f.type_bandwidth.find({Access::write, type});
      if (it != f.type_bandwidth.end()) {
        wr += it->second;
        ++parts;
      }
    }
    auto rewrite0 = f.type_bandwidth.find({Access::rewrite, 0});
    if (rewrite0 != f.type_bandwidth.end()) {
      wr += rewrite0->second;
      ++parts;
    }
    if (parts == kPatternTypes + 1) f.write_rewrite = wr / (kPatternTypes + 1);
    auto read = f.access_bandwidth.find(Access::read);
    if (f.write_rewrite && read != f.access_bandwidth.end()) {
      f.b_eff_io = std::sqrt(*f.write_rewrite * read->second);
    }
    if (f.b_eff_io && (!out.system || *f.b_eff_io > *out.system)) {
      out.system = f.b_eff_io;
      out.system_partition = n;
    }
    if (f.b_eff_io_paper && (!out.system_paper || *f.b_eff_io_paper > *out.system_paper)) {
      out.system_paper = f.b_eff_io_paper;
      out.system_paper_partition = n;
    }
    out.partitions.push_back(std::move(f));
  }
  return out;
}

worker::PhysicalLimits physical_limits(const IoMeasurements& m, const IoFigures& figures) {
  worker::PhysicalLimits limits;
  auto where = [](int partition, Access access, int type) {
    return "partition " + std::to_string(partition) + ", " + access_name(access) + ", type " +
           std::to_string(type);
  };
  std::vector<worker::LabelledValue> pattern_times, type_times;
  for (const auto& p : m.patterns) {
    pattern_times.push_back(
        {where(p.partition, p.access, p.type) + ", pattern " + std::to_string(p.number),
         p.time.max});
  }
  for (const auto& t : m.types)
    type_times.push_back({where(t.partition, t.access, t.type), t.total_time});
  limits.positive_each("pattern time", pattern_times, "s")
      .positive_each("type time (open, patterns, close)", type_times, "s");

  // Sums of parts. A process's type time is its open, its patterns and its close, so the largest
  // over processes is at least the sum of the patterns' means over processes. Rank 0's clock
  // spans every pattern of every process of its partition (each type opens and closes with a
  // barrier), so its elapsed time is at least their sum too. Slack: rounding, and clocks that run
  // at rates a few parts per million apart.
  constexpr double kRelativeSlack = 1e-4;
  for (const auto& t : m.types) {
    std::vector<worker::LabelledValue> parts;
    for (const auto& p : m.patterns) {
      if (p.partition != t.partition || p.access != t.access || p.type != t.type) continue;
      if (p.time.count == 0) continue;  // not timed per process
      parts.push_back({"pattern " + std::to_string(p.number), p.time.mean});
    }
    if (parts.empty()) continue;
    limits.at_least_sum_of_parts(where(t.partition, t.access, t.type) + ": type time", t.total_time,
                                 "s", parts, kRelativeSlack * t.total_time,
                                 "the time of a pattern type from open to close includes its "
                                 "patterns");
  }
  for (const auto& timing : m.timings) {
    std::vector<worker::LabelledValue> parts;
    for (Access a : kAccesses) {
      double sum = 0;
      bool timed = false;
      for (const auto& p : m.patterns) {
        if (p.partition != timing.partition || p.access != a || p.time.count == 0) continue;
        sum += p.time.mean;
        timed = true;
      }
      if (timed) parts.push_back({std::string(access_name(a)) + " patterns", sum});
    }
    if (parts.empty()) continue;
    limits.at_least_sum_of_parts("partition " + std::to_string(timing.partition) + ": elapsed",
                                 timing.elapsed, "s", parts, kRelativeSlack * timing.elapsed,
                                 "rank 0's clock spans every pattern of the partition");
  }

  // The bandwidths computed from them.
  std::vector<worker::LabelledValue> type_bandwidths, access_bandwidths;
  for (const auto& f : figures.partitions) {
    for (const auto& [key, bandwidth] : f.type_bandwidth) {
      type_bandwidths.push_back({where(f.partition, key.first, key.second), bandwidth});
    }
    for (const auto& [access, bandwidth] : f.access_bandwidth) {
      access_bandwidths.push_back(
          {"partition " + std::to_string(f.partition) + ", " + access_name(access), bandwidth});
    }
  }
  limits.positive_each("type bandwidth", type_bandwidths, "B/s")
      .positive_each("access bandwidth", access_bandwidths, "B/s");
  for (const auto& f : figures.partitions) {
    const std::string at = "partition " + std::to_string(f.partition) + ": ";
    if (f.b_eff_io) limits.positive(at + "b_eff_io", *f.b_eff_io, "B/s");
    if (f.b_eff_io_paper) limits.positive(at + "b_eff_io_paper", *f.b_eff_io_paper, "B/s");
  }
  return limits;
}

}  // namespace pbench::io
