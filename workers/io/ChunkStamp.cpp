#include "io/ChunkStamp.hpp"

#include <cstring>

namespace pbench::io {

namespace {

/// splitmix64's finaliser: a cheap, well-mixed 64-bit hash.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t file_identity(int partition, int type, int owner) {
  return mix((static_cast<std::uint64_t>(partition) << 40) ^
             (static_cast<std::uint64_t>(type) << 32) ^
             static_cast<std::uint64_t>(static_cast<std::uint32_t>(owner)));
}

std::uint64_t stamp_value(std::uint64_t identity, int generation, std::int64_t offset) {
  return mix(identity ^
             mix(static_cast<std::uint64_t>(offset) * 4 + static_cast<std::uint64_t>(generation)));
}

void stamp_chunk(std::byte* chunk, std::int64_t length, std::uint64_t value) {
  if (length < 8) return;
  std::memcpy(chunk, &value, 8);
  if (length >= 16) std::memcpy(chunk + length - 8, &value, 8);
}

bool chunk_matches(const std::byte* chunk, std::int64_t length, std::uint64_t value) {
  if (length < 8) return true;
  std::uint64_t head = 0;
  std::memcpy(&head, chunk, 8);
  if (head != value) return false;
  if (length < 16) return true;
  std::uint64_t tail = 0;
  std::memcpy(&tail, chunk + length - 8, 8);
  return tail == value;
}

}  // namespace pbench::io
