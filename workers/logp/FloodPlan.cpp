#include "logp/FloodPlan.hpp"

#include <algorithm>

#include "logp/LogpParameters.hpp"

namespace pbench::logp {

FloodPlan::FloodPlan(std::int64_t min_size, std::int64_t max_size, std::int64_t flood_messages,
                     std::int64_t flood_bytes)
    : flood_messages_(static_cast<std::size_t>(flood_messages)),
      flood_bytes_(static_cast<std::size_t>(flood_bytes)) {
  for (std::int64_t size = min_size; size <= max_size; size *= 2) {
    sizes_.push_back(static_cast<std::size_t>(size));
  }
}

FloodPlan::FloodPlan(const LogpParameters& p)
    : FloodPlan(p.min_size, p.max_size, p.flood_messages, p.flood_bytes) {}

std::size_t FloodPlan::minimum_messages(int queue_depth) {
  return std::max<std::size_t>(16, 2 * static_cast<std::size_t>(queue_depth));
}

std::size_t FloodPlan::messages(std::size_t size, int queue_depth) const {
  const std::size_t by_bytes = flood_bytes_ / std::max<std::size_t>(size, 1);
  return std::max(std::min(flood_messages_, by_bytes), minimum_messages(queue_depth));
}

std::size_t FloodPlan::slots(std::size_t size, int queue_depth) const {
  return std::min(static_cast<std::size_t>(queue_depth), messages(size, queue_depth));
}

std::size_t FloodPlan::pool_bytes(const std::vector<int>& queue_depths) const {
  std::size_t most = 0;
  for (int q : queue_depths) {
    for (std::size_t size : sizes_) most = std::max(most, slots(size, q) * size);
  }
  return most;
}

}  // namespace pbench::logp
