#include "io/PatternTable.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace pbench::io {

namespace {

constexpr std::int64_t k1M = kMiB;
constexpr std::int64_t k32k = 32 * kKiB;
constexpr std::int64_t k1k = kKiB;

/// One row given as l, L, U; `part` marks the M_PART rows (l = L = M_PART).
struct Spec {
  std::int64_t l;
  std::int64_t big_l;
  int u;
  bool part = false;
};

/// Type 0: scatter L in memory to chunks l on disk with one collective call.
const std::vector<Spec> kType0 = {
    {k1M, k1M, 0},        {0, 0, 4, true}, {k1M, 2 * k1M, 4},        {k1M, k1M, 4},
    {k32k, k1M, 2},       {k1k, k1M, 2},   {k32k + 8, k1M + 256, 2}, {k1k + 8, k1M + 8 * k1k, 2},
    {k1M + 8, k1M + 8, 2}};
/// Type 1: shared file pointer, one collective call per chunk (L = l).
const std::vector<Spec> kType1 = {
    {k1M, k1M, 0}, {0, 0, 4, true},         {k1M, k1M, 2},         {k32k, k32k, 1},
    {k1k, k1k, 1}, {k32k + 8, k32k + 8, 1}, {k1k + 8, k1k + 8, 1}, {k1M + 8, k1M + 8, 2}};
/// Types 2, 3 and 4 (3 and 4 then fill up the segment): one chunk per call (L = l).
const std::vector<Spec> kType2 = {
    {k1M, k1M, 0}, {0, 0, 2, true},         {k1M, k1M, 2},         {k32k, k32k, 1},
    {k1k, k1k, 1}, {k32k + 8, k32k + 8, 1}, {k1k + 8, k1k + 8, 1}, {k1M + 8, k1M + 8, 2}};

bool is_power_of_two(std::int64_t v) {
  return v > 0 && (v & (v - 1)) == 0;
}

}  // namespace

ChunkSizes ChunkSizes::for_memory(std::int64_t memory_per_process) {
  if (memory_per_process <= 0) {
    throw std::invalid_argument("memory per process must be positive");
  }
  ChunkSizes c;
  c.memory_per_process = memory_per_process;
  c.m_part_from_memory = std::max(kMinPartChunk, memory_per_process / 128);
  c.m_part = std::min(c.m_part_from_memory, kMaxPartChunk);
  c.capped = c.m_part < c.m_part_from_memory;
  return c;
}

PatternTable::PatternTable(std::int64_t m_part) : m_part_(m_part) {
  if (m_part < kMinPartChunk || m_part > kMaxPartChunk) {
    throw std::invalid_argument("M_PART must be between 2 MB and 1 GB");
  }
  int number = 0;
  auto add = [&](int type, const std::vector<Spec>& specs) {
    for (const Spec& s : specs) {
      PatternRow row;
      row.number = number++;
      row.type = type;
      row.disk_chunk = s.part ? m_part : s.l;
      row.memory_chunk = s.part ? m_part : s.big_l;
      row.time_units = s.u;
      row.wellformed = is_power_of_two(row.disk_chunk);
      rows_.push_back(row);
    }
  };
  add(0, kType0);
  add(1, kType1);
  add(2, kType2);
  for (int type : {3, 4}) {
    add(type, kType2);
    PatternRow fill;
    fill.number = number++;
    fill.type = type;
    fill.time_units = 0;
    fill.fill = true;
    fill.wellformed = false;
    rows_.push_back(fill);
  }
}

std::vector<PatternRow> PatternTable::rows_of_type(int type) const {
  std::vector<PatternRow> out;
  for (const auto& r : rows_) {
    if (r.type == type) out.push_back(r);
  }
  return out;
}

int PatternTable::time_units_of_type(int type) const {
  int sum = 0;
  for (const auto& r : rows_) {
    if (r.type == type) sum += r.time_units;
  }
  return sum;
}

int PatternTable::total_time_units() const {
  int sum = 0;
  for (const auto& r : rows_) sum += r.time_units;
  return sum;
}

std::int64_t PatternTable::largest_memory_chunk() const {
  std::int64_t most = 0;
  for (const auto& r : rows_) most = std::max(most, r.memory_chunk);
  return most;
}

std::string PatternTable::chunk_label(std::int64_t bytes) {
  auto base = [](std::int64_t b) -> std::string {
    if (b >= kMiB && b % kMiB == 0) return std::to_string(b / kMiB) + " MB";
    if (b >= kKiB && b % kKiB == 0) return std::to_string(b / kKiB) + " kB";
    return std::to_string(b) + " B";
  };
  const std::int64_t rest = bytes % kKiB;
  if (bytes > kKiB && rest != 0 && rest <= 256) {
    return base(bytes - rest) + " + " + std::to_string(rest) + " B";
  }
  return base(bytes);
}

const char* type_name(int type) {
  constexpr const char* kNames[] = {"scatter", "shared", "separate", "segmented", "segmented_coll"};
  return type >= 0 && type < static_cast<int>(std::size(kNames)) ? kNames[type] : "unknown";
}

}  // namespace pbench::io
