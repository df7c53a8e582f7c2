// pbench-io: the segment of pattern types 3 and 4 from the write counts of types 0-2, the
// termination rules, and the chunk stamps.
#include <doctest/doctest.h>

#include <vector>

#include "io/ChunkStamp.hpp"
#include "io/SegmentPlan.hpp"
#include "io/Termination.hpp"

using namespace pbench::io;

namespace {

/// Write counts where every row of types 0-2 ran `reps` times.
std::map<int, std::int64_t> uniform_counts(std::int64_t reps) {
  std::map<int, std::int64_t> counts;
  for (int n = 0; n < 25; ++n) counts[n] = reps;
  return counts;
}

}  // namespace

TEST_CASE("io: segment rows take the minimum of type 0's chunks, 10 x type 1 and type 2") {
  const PatternTable table(2 * kMiB);
  std::map<int, std::int64_t> counts = uniform_counts(1);
  // Chunk size 32 kB (index 3): type 0 row 4 writes 32 chunks per call, type 1 row 12,
  // type 2 row 20.
  counts[4] = 3;    // 96 chunks of 32 kB per process
  counts[12] = 5;   // x 10 = 50
  counts[20] = 70;  // 70
  // Chunk size 1 kB (index 4): type 2 is the smallest.
  counts[5] = 10;   // 10240 chunks
  counts[13] = 40;  // 400
  counts[21] = 7;
  // Chunk size 1 MB (index 2): type 0 row 3 (L = l), one chunk per call.
  counts[3] = 4;
  counts[11] = 1;  // 10
  counts[19] = 9;
  // M_PART (index 1): type 1 x 10 would be 20, type 2 gives 3.
  counts[1] = 6;
  counts[10] = 2;
  counts[18] = 3;
  const SegmentPlan plan = SegmentPlan::from_counts(table, counts);
  REQUIRE(plan.repetitions.size() == 8);
  CHECK(plan.repetitions[0] == 1);   // the single 1 MB call
  CHECK(plan.repetitions[1] == 3);   // M_PART
  CHECK(plan.repetitions[2] == 4);   // 1 MB
  CHECK(plan.repetitions[3] == 50);  // 32 kB
  CHECK(plan.repetitions[4] == 7);   // 1 kB
  CHECK(plan.repetitions[5] == 1);   // 32 kB + 8: type 2's count 1
  CHECK(plan.repetitions[6] == 1);
  CHECK(plan.repetitions[7] == 1);
  const std::int64_t used = 1 * kMiB + 3 * 2 * kMiB + 4 * kMiB + 50 * 32 * kKiB + 7 * kKiB +
                            (32 * kKiB + 8) + (kKiB + 8) + (kMiB + 8);
  CHECK(plan.used == used);
  CHECK(plan.segment % kMiB == 0);
  CHECK(plan.segment >= plan.used);
  CHECK(plan.segment - plan.used < kMiB);
  CHECK(plan.fill == plan.segment - plan.used);
  CHECK(plan.segment == 14 * kMiB);  // used = 14,262,296 B rounds up to 14 MiB
}

TEST_CASE("io: a segment that is already a multiple of 1 MB has no fill") {
  CHECK(round_up(3 * kMiB, kMiB) == 3 * kMiB);
  CHECK(round_up(3 * kMiB + 1, kMiB) == 4 * kMiB);
  CHECK(round_up(0, kMiB) == 0);
}

TEST_CASE("io: the segment plan leaves out types that did not run, and needs one") {
  const PatternTable table(2 * kMiB);
  std::map<int, std::int64_t> only_type2;
  for (int n = 17; n < 25; ++n) only_type2[n] = 5;
  const SegmentPlan plan = SegmentPlan::from_counts(table, only_type2);
  for (auto r : plan.repetitions) CHECK(r == 5);
  CHECK_THROWS(SegmentPlan::from_counts(table, {}));
  CHECK(SegmentPlan::type0_row(2) == 3);
  CHECK(SegmentPlan::type1_row(0) == 9);
  CHECK(SegmentPlan::type2_row(7) == 24);
}

TEST_CASE("io: the reference rule predicts from elapsed * (r + 1) / r") {
  CHECK(another_call_fits(1, 0.4, 1.0));        // 0.8 <= 1
  CHECK_FALSE(another_call_fits(1, 0.6, 1.0));  // 1.2 > 1
  CHECK(another_call_fits(9, 0.9, 1.0));        // 1.0 <= 1
  CHECK_FALSE(another_call_fits(9, 0.95, 1.0));
}

TEST_CASE("io: the batched rule checks after 1, 2, 4, ... calls and never plans past T") {
  // Fast calls: the series doubles.
  CHECK(next_check(1, 0.001, 10.0) == 2);
  CHECK(next_check(2, 0.002, 10.0) == 4);
  CHECK(next_check(64, 0.064, 10.0) == 128);
  // Near the end the step is capped by the prediction: 0.1 s per call, 1 s budget -> 10.
  CHECK(next_check(8, 0.8, 1.0) == 10);
  // No further call fits.
  CHECK(next_check(10, 1.0, 1.0) == 0);
  CHECK(next_check(1, 0.6, 1.0) == 0);
  // Simulated run: calls of 3 ms in a 1 s budget end at the predicted count, within budget.
  std::int64_t done = 0;
  std::int64_t target = 1;
  int checks = 0;
  while (true) {
    ++done;
    if (done < target) continue;
    ++checks;
    target = next_check(done, 0.003 * static_cast<double>(done), 1.0);
    if (target == 0) break;
  }
  CHECK(done == 333);
  CHECK(checks < 15);  // a geometric series, not one check per call
}

TEST_CASE("io: stamps differ by file, generation and offset, and are found where written") {
  const auto a = file_identity(2, 0, -1);
  CHECK(a != file_identity(2, 1, -1));
  CHECK(a != file_identity(1, 0, -1));
  CHECK(file_identity(2, 2, 0) != file_identity(2, 2, 1));
  CHECK(stamp_value(a, 1, 0) != stamp_value(a, 2, 0));
  CHECK(stamp_value(a, 1, 0) != stamp_value(a, 1, 1024));
  std::vector<std::byte> chunk(1032, std::byte{0});
  const auto v = stamp_value(a, 1, 4096);
  stamp_chunk(chunk.data(), 1032, v);
  CHECK(chunk_matches(chunk.data(), 1032, v));
  CHECK_FALSE(chunk_matches(chunk.data(), 1032, stamp_value(a, 2, 4096)));
  chunk[1031] = std::byte{0x11};  // the tail stamp counts too
  CHECK_FALSE(chunk_matches(chunk.data(), 1032, v));
  std::vector<std::byte> tiny(4);
  stamp_chunk(tiny.data(), 4, v);  // too small to carry a stamp: nothing to check
  CHECK(chunk_matches(tiny.data(), 4, v));
}
