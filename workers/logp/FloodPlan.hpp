#pragma once
// What the flood test measures: the message sizes (powers of two), and N, the number of messages
// of one measurement at a size and queue depth.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pbench::logp {

struct LogpParameters;

class FloodPlan {
 public:
  /// The plan for the given sizes and counts (values already checked by LogpParameters).
  FloodPlan(std::int64_t min_size, std::int64_t max_size, std::int64_t flood_messages,
            std::int64_t flood_bytes);
  /// The plan of a parameter set.
  explicit FloodPlan(const LogpParameters& parameters);

  /// Sizes from min to max in powers of two [B].
  const std::vector<std::size_t>& sizes() const { return sizes_; }

  /// N for one measurement: flood_messages, capped so N * size <= flood_bytes, but never below
  /// the floor max(16, 2q) (the queue needs a few refills to reach its steady state).
  std::size_t messages(std::size_t size, int queue_depth) const;
  /// The floor on N at queue depth q: max(16, 2q).
  static std::size_t minimum_messages(int queue_depth);
  /// Buffers one side needs at a point: one per outstanding message, min(q, N).
  std::size_t slots(std::size_t size, int queue_depth) const;
  /// Bytes of buffer one side needs for the largest point over the given queue depths.
  std::size_t pool_bytes(const std::vector<int>& queue_depths) const;

 private:
  std::vector<std::size_t> sizes_;
  std::size_t flood_messages_;
  std::size_t flood_bytes_;
};

}  // namespace pbench::logp
