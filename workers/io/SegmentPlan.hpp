#pragma once
// The segment of pattern types 3 and 4 (METHODS.md section 2, seed 000 section 5.4): they are
// size-driven, so their repetition counts come from the write of types 0-2. Per chunk size (the
// rows of type 2, in order), the count is the minimum of type 0's chunks of that size per
// process (repetitions * L / l), 10 x type 1's repetitions and type 2's repetitions; the segment
// is the sum of chunk sizes times these counts, rounded up to a multiple of 1 MB, and the last
// row ("fill up segment") writes the rest of it in one call.
#include <cstdint>
#include <map>
#include <vector>

#include "io/PatternTable.hpp"

namespace pbench::io {

/// Type 1's repetition count weighs this much against types 0 and 2 in the minimum.
inline constexpr std::int64_t kSharedPointerCountFactor = 10;

struct SegmentPlan {
  /// Repetitions of the 8 chunk-size rows of type 3 (and 4), in row order.
  std::vector<std::int64_t> repetitions;
  /// Bytes those rows write per process.
  std::int64_t used = 0;
  /// The segment per process, a multiple of 1 MB, >= used [B].
  std::int64_t segment = 0;
  /// What the fill row writes: segment - used [B].
  std::int64_t fill = 0;

  /// Plans the segment from the write repetition counts of types 0-2 (pattern number -> calls
  /// per process). A missing count (the type did not run) leaves that type out of the minimum;
  /// throws std::invalid_argument when no type gives a count for a row.
  static SegmentPlan from_counts(const PatternTable& table,
                                 const std::map<int, std::int64_t>& write_repetitions);

  /// The type 0, 1 and 2 pattern numbers that correspond to chunk-size row `index` (0..7) of
  /// types 2-4: type 0 scatters the same l (1 MB: the row with L = l), type 1 and 2 alike.
  static int type0_row(int index);
  static int type1_row(int index) { return 9 + index; }
  static int type2_row(int index) { return 17 + index; }
};

/// Rounds `bytes` up to a multiple of `alignment`.
std::int64_t round_up(std::int64_t bytes, std::int64_t alignment);

}  // namespace pbench::io
