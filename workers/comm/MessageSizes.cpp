#include "comm/MessageSizes.hpp"

#include <algorithm>
#include <cmath>

#include "common/WorkerMain.hpp"

namespace pbench::comm {

MessageSizes MessageSizes::for_memory(std::uint64_t memory_per_process) {
  MessageSizes m;
  m.memory_per_process = memory_per_process;
  m.l_max_from_memory = static_cast<std::int64_t>(memory_per_process / 128);
  if (m.l_max_from_memory < kSmallestLmax) {
    throw worker::UsageError("memory per process " + std::to_string(memory_per_process) +
                             " B is too small: b_eff needs L_max = memory/128 >= 4096 B, that is "
                             "at least " + std::to_string(smallest_memory()) + " B per process");
  }
  m.l_max = std::min(m.l_max_from_memory, kLmaxLimit);
  m.clamped = m.l_max < m.l_max_from_memory;
  std::int64_t length = 1;
  for (int i = 0; i <= kLastPowerOfTwo; ++i, length *= 2) m.sizes.push_back(length);
  // 4096 * a^k with a = (L_max/4096)^(1/8), rounded to whole bytes; the last is L_max itself.
  const double ratio = static_cast<double>(m.l_max) / 4096.0;
  const int steps = kMessageSizeCount - 1 - kLastPowerOfTwo;
  for (int k = 1; k < steps; ++k) {
    m.sizes.push_back(std::llround(4096.0 * std::pow(ratio, static_cast<double>(k) / steps)));
  }
  m.sizes.push_back(m.l_max);
  return m;
}

}  // namespace pbench::comm
