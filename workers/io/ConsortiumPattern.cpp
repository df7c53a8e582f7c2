#include "io/ConsortiumPattern.hpp"

#include <cmath>
#include <limits>

#include "common/EnumName.hpp"

namespace pbench::io {

namespace {

/// splitmix64: a small, fully specified generator, so the sizes are the same on every library.
std::uint64_t split_mix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr EnumName<AccessPattern> kPatternNames[] = {{AccessPattern::segmented, "segmented"},
                                                     {AccessPattern::strided, "strided"},
                                                     {AccessPattern::random, "random"},
                                                     {AccessPattern::general, "general"}};

}  // namespace

std::string pattern_name(AccessPattern pattern) {
  return name_of(kPatternNames, pattern, "segmented");
}

std::optional<AccessPattern> parse_pattern(const std::string& name) {
  return value_named(kPatternNames, name);
}

std::optional<std::string> ConsortiumLayout::problem() const {
  if (clients < 1) return "the file needs at least one client";
  if (transfer_size < 1) return "--transfer-size: must be >= 1 byte";
  if (block_size < 1) return "--block-size: must be >= 1 byte";
  if (segment_count < 1) return "--segment-count: must be >= 1";
  if (header_bytes < 0) return "--header-bytes: must be >= 0";
  if (padding < 0) return "--padding: must be >= 0";
  if (transfer_size > std::numeric_limits<int>::max()) {
    return "--transfer-size: " + std::to_string(transfer_size) +
           " B is more than one MPI call can move (2147483647 B)";
  }
  if (transfer_size > block_size) {
    return "--transfer-size: " + std::to_string(transfer_size) + " B is larger than the block (" +
           std::to_string(block_size) + " B)";
  }
  if (!random_sizes() && block_size % transfer_size != 0) {
    return "--block-size: " + std::to_string(block_size) + " B is not a multiple of the " +
           std::to_string(transfer_size) + " B transfer (the " + pattern_name(pattern) +
           " pattern moves whole transfers)";
  }
  if (pattern == AccessPattern::segmented && segment_count != 1) {
    return "--segment-count: the segmented pattern has one segment (use --pattern strided)";
  }
  if (pattern == AccessPattern::segmented && padding != 0) {
    return "--padding: the segmented pattern has no padding (use --pattern strided)";
  }
  if (header_bytes > stride()) {
    return "--header-bytes: " + std::to_string(header_bytes) + " B is larger than a stride (" +
           std::to_string(stride()) + " B)";
  }
  return std::nullopt;
}

std::int64_t ConsortiumLayout::block_offset(int client, std::int64_t segment) const {
  return header_bytes + segment * stride() + static_cast<std::int64_t>(client) * block_size;
}

std::vector<Transfer> ConsortiumLayout::transfers(int client) const {
  std::vector<Transfer> out;
  for (std::int64_t s = 0; s < segment_count; ++s) {
    const std::int64_t start = block_offset(client, s);
    // One stream of sizes per client and segment, so any process can replay another's.
    std::uint64_t state = seed ^ (static_cast<std::uint64_t>(client) * 0x100000001b3ULL) ^
                          (static_cast<std::uint64_t>(s) << 32);
    std::int64_t done = 0;
    while (done < block_size) {
      std::int64_t size = transfer_size;
      if (random_sizes()) {
        size = 1 + static_cast<std::int64_t>(split_mix(state) %
                                             static_cast<std::uint64_t>(transfer_size));
      }
      if (size > block_size - done) size = block_size - done;
      out.push_back({start + done, size});
      done += size;
    }
  }
  return out;
}

std::int64_t ConsortiumLayout::file_bytes() const {
  return header_bytes + (segment_count - 1) * stride() + segment_bytes();
}

double consortium_deviation(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / static_cast<double>(values.size()));
}

}  // namespace pbench::io
