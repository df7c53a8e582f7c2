#pragma once
// The 21 message sizes of b_eff (METHODS.md section 1, "Message sizes"): 1, 2, 4, ..., 4096 bytes,
// then 8 sizes growing geometrically from 4096 to L_max = (memory per process) / 128.
#include <cstdint>
#include <vector>

namespace pbench::comm {

inline constexpr int kMessageSizeCount = 21;
/// Index of 4096 B, the last power of two; the geometric part follows it.
inline constexpr int kLastPowerOfTwo = 12;
/// The paper's bound on L_max for systems with a 32-bit int: 128 MiB. It keeps every message
/// count and every MPI_Alltoallv displacement into the cycled buffers (up to six messages of
/// L_max) within an int.
inline constexpr std::int64_t kLmaxLimit = std::int64_t{128} * 1024 * 1024;
/// The smallest L_max that gives the 21 sizes their meaning (the geometric part starts at 4 KB).
inline constexpr std::int64_t kSmallestLmax = 4096;

struct MessageSizes {
  std::uint64_t memory_per_process = 0;  ///< B
  std::int64_t l_max_from_memory = 0;    ///< memory_per_process / 128, before the clamp
  std::int64_t l_max = 0;                ///< min(l_max_from_memory, kLmaxLimit)
  bool clamped = false;                  ///< l_max < l_max_from_memory
  std::vector<std::int64_t> sizes;       ///< the 21 sizes in bytes, ascending, last == l_max

  /// The sizes for a memory per process; throws worker::UsageError when L_max < 4096 B.
  static MessageSizes for_memory(std::uint64_t memory_per_process);
  /// The smallest memory per process that gives L_max >= 4096 B.
  static std::uint64_t smallest_memory() { return 128 * kSmallestLmax; }
};

}  // namespace pbench::comm
