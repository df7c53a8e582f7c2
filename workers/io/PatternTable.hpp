#pragma once
// The b_eff_io pattern table (Rabenseifner & Koniges, Table 2; METHODS.md section 2): 43 patterns
// in five types, chunk sizes l (on disk) and L (in memory per call), time units U with
// sum U = 64 per access method and M_PART from the memory per process. The time budget of a
// pattern is in Schedule.hpp.
#include <cstdint>
#include <string>
#include <vector>

namespace pbench::io {

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;
inline constexpr std::int64_t kGiB = 1024 * kMiB;
/// Pattern types 0..4.
inline constexpr int kPatternTypes = 5;
/// Sum of the time units U of all patterns, per access method.
inline constexpr int kTotalTimeUnits = 64;
/// Patterns in the table (numbers 0..42).
inline constexpr int kPatternCount = 43;
/// M_PART is at least 2 MB; the original also caps it at 1 GB.
inline constexpr std::int64_t kMinPartChunk = 2 * kMiB;
inline constexpr std::int64_t kMaxPartChunk = kGiB;
/// Segments of types 3 and 4 are rounded up to a multiple of 1 MB.
inline constexpr std::int64_t kSegmentAlignment = kMiB;

/// One row of the pattern table.
struct PatternRow {
  int number = 0;                 ///< the paper's pattern number, 0..42
  int type = 0;                   ///< pattern type 0..4
  std::int64_t disk_chunk = 0;    ///< l: contiguous chunk on disk [B] (fill rows: 0 until planned)
  std::int64_t memory_chunk = 0;  ///< L: contiguous chunk in memory per call [B]
  int time_units = 0;             ///< U; 0: exactly one call
  bool fill = false;              ///< types 3/4: "fill up segment"
  bool wellformed = true;         ///< l a power of two (false for the +8 byte sizes)
  /// Chunks l per call: L / l (1 except for type 0's scattering rows).
  std::int64_t chunks_per_call() const { return disk_chunk > 0 ? memory_chunk / disk_chunk : 1; }
};

/// M_PART from the memory per process.
struct ChunkSizes {
  std::int64_t memory_per_process = 0;  ///< [B]
  std::int64_t m_part_from_memory = 0;  ///< max(2 MB, memory / 128) before the 1 GB cap [B]
  std::int64_t m_part = 0;              ///< [B]
  bool capped = false;                  ///< the 1 GB cap applied

  /// M_PART = max(2 MB, memory per process / 128), capped at 1 GB.
  static ChunkSizes for_memory(std::int64_t memory_per_process);
};

/// Bytes of the elementary type of views, counts and the shared file pointer: 8 (doubles, as
/// b_eff_io rev 2.1's ETYPE) when M_PART is whole doubles, as every other chunk size is; else 1.
inline std::int64_t elementary_bytes(std::int64_t m_part) {
  return m_part % 8 == 0 ? 8 : 1;
}

class PatternTable {
 public:
  /// The 43 rows for a given M_PART.
  explicit PatternTable(std::int64_t m_part);

  const std::vector<PatternRow>& rows() const { return rows_; }
  /// The rows of one pattern type, in table order.
  std::vector<PatternRow> rows_of_type(int type) const;
  /// The row with pattern number `number`.
  const PatternRow& row(int number) const { return rows_.at(static_cast<std::size_t>(number)); }
  /// Sum of U over the rows of one type.
  int time_units_of_type(int type) const;
  /// Sum of U over all rows (64).
  int total_time_units() const;
  std::int64_t m_part() const { return m_part_; }
  /// The largest L of any row: the memory buffer a process needs [B].
  std::int64_t largest_memory_chunk() const;

  /// Readable chunk size: "1 MB", "32 kB + 8 B", "M_PART (2 MB)".
  static std::string chunk_label(std::int64_t bytes);

 private:
  std::int64_t m_part_;
  std::vector<PatternRow> rows_;
};

/// Name of a pattern type: "scatter", "shared", "separate", "segmented", "segmented_coll".
const char* type_name(int type);

}  // namespace pbench::io
