#include "io/SegmentPlan.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace pbench::io {

namespace {

/// Type 0 rows with the chunk sizes of type 2's rows 0..7 (1 MB U=0, M_PART, 1 MB, 32 kB, 1 kB,
/// 32 kB+8, 1 kB+8, 1 MB+8). Type 0's row 2 (1 MB chunks from 2 MB in memory) has no
/// counterpart; row 3 (1 MB from 1 MB) stands for the 1 MB chunk size.
constexpr int kType0Rows[8] = {0, 1, 3, 4, 5, 6, 7, 8};

}  // namespace

int SegmentPlan::type0_row(int index) {
  return kType0Rows[index];
}

std::int64_t round_up(std::int64_t bytes, std::int64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

SegmentPlan SegmentPlan::from_counts(const PatternTable& table,
                                     const std::map<int, std::int64_t>& write_repetitions) {
  SegmentPlan plan;
  for (int index = 0; index < 8; ++index) {
    const PatternRow& row = table.row(type2_row(index));
    std::int64_t count = std::numeric_limits<std::int64_t>::max();
    bool any = false;
    auto consider = [&](int number, std::int64_t factor) {
      auto it = write_repetitions.find(number);
      if (it == write_repetitions.end()) return;
      count = std::min(count, it->second * factor);
      any = true;
    };
    consider(type0_row(index), table.row(type0_row(index)).chunks_per_call());
    consider(type1_row(index), kSharedPointerCountFactor);
    consider(type2_row(index), 1);
    if (!any) {
      throw std::invalid_argument("no write count of types 0-2 for the chunk size of pattern " +
                                  std::to_string(row.number));
    }
    count = std::max<std::int64_t>(count, 1);
    plan.repetitions.push_back(count);
    plan.used += count * row.disk_chunk;
  }
  plan.segment = round_up(plan.used, kSegmentAlignment);
  plan.fill = plan.segment - plan.used;
  return plan;
}

}  // namespace pbench::io
