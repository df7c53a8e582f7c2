#pragma once
// Every chunk written carries a stamp in its first and last 8 bytes: a hash of the file, the
// generation (1 first write, 2 rewrite) and the chunk's offset in the file. Read-back computes
// the expected stamp from where the chunk was read and counts chunks that do not match.
#include <cstddef>
#include <cstdint>

namespace pbench::io {

/// The identity of a benchmark file: partition size, pattern type and, for type 2's file per
/// process, the owner's rank (-1 for shared files).
std::uint64_t file_identity(int partition, int type, int owner);

/// The stamp of the chunk at `offset` of file `identity`, written in generation `generation`.
std::uint64_t stamp_value(std::uint64_t identity, int generation, std::int64_t offset);

/// Writes `value` into the first 8 and last 8 bytes of a chunk of `length` bytes (only the
/// first when length < 16; nothing when length < 8).
void stamp_chunk(std::byte* chunk, std::int64_t length, std::uint64_t value);

/// True when the chunk carries `value` where stamp_chunk puts it.
bool chunk_matches(const std::byte* chunk, std::int64_t length, std::uint64_t value);

}  // namespace pbench::io
