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

}  // namespace pbench::io
