#pragma once
// The consortium suite's access patterns (METHODS.md section 3, seed 003 section 6.1) as pure
// layout arithmetic: which file offsets each client (process) moves, in which transfers. A block
// is one client's contiguous data, a segment the blocks of all clients in client order, a stride
// a segment plus its padding (a hole); the data starts after header_bytes (never written).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbench::io {

enum class AccessPattern { segmented, strided, random, general };

/// "segmented", "strided", "random", "general".
std::string pattern_name(AccessPattern pattern);
/// The pattern of a name; nothing for an unknown name.
std::optional<AccessPattern> parse_pattern(const std::string& name);

/// One I/O call: `size` bytes at file offset `offset`.
struct Transfer {
  std::int64_t offset = 0;
  std::int64_t size = 0;
  bool operator==(const Transfer&) const = default;
};

struct ConsortiumLayout {
  AccessPattern pattern = AccessPattern::segmented;
  int clients = 1;                 ///< processes sharing the file (1 for file per process)
  std::int64_t header_bytes = 0;   ///< [B] before the first segment, never written
  std::int64_t transfer_size = 0;  ///< [B] per call (random: the largest transfer)
  std::int64_t block_size = 0;     ///< [B] per client per segment
  std::int64_t segment_count = 1;  ///< segments in the file (segmented: 1)
  std::int64_t padding = 0;        ///< [B] hole after each segment
  std::uint64_t seed = 0;          ///< of the random transfer sizes (random, general)

  /// The first problem with the layout (checked before any I/O), or nothing.
  std::optional<std::string> problem() const;
  /// Bytes of a segment: clients x block.
  std::int64_t segment_bytes() const { return clients * block_size; }
  /// Distance between the starts of successive segments: segment + padding.
  std::int64_t stride() const { return segment_bytes() + padding; }
  /// Offset of client `client`'s block in segment `segment`.
  std::int64_t block_offset(int client, std::int64_t segment) const;
  /// The transfers of client `client`, in file order; they tile its blocks exactly.
  std::vector<Transfer> transfers(int client) const;
  /// Bytes a client moves: block x segments.
  std::int64_t bytes_per_client() const { return block_size * segment_count; }
  /// The file size after every client wrote: header + strides, without the last padding.
  std::int64_t file_bytes() const;
  /// True for the patterns whose transfer sizes are random.
  bool random_sizes() const {
    return pattern == AccessPattern::random || pattern == AccessPattern::general;
  }
};

/// The deviation as the consortium defines it (6.2.3): the square root of the mean squared
/// deviation of each value from the mean (population form); 0 for no values.
double consortium_deviation(const std::vector<double>& values);

/// The byte a client stores at file offset `offset`: depends on both, never 0 (a hole reads 0),
/// so a read-back tells which client wrote each byte.
inline unsigned char stamp_byte(int client, std::int64_t offset) {
  return static_cast<unsigned char>((static_cast<std::int64_t>(client) * 7 + offset) % 251 + 1);
}

}  // namespace pbench::io
