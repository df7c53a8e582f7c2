// pbench-io: the pattern table of b_eff_io (43 rows, sum U = 64), M_PART from the memory per
// process, and the time budget T_pattern = T/3 * U / 64.
#include <doctest/doctest.h>

#include <set>

#include "io/PatternTable.hpp"

using namespace pbench::io;

TEST_CASE("io: the pattern table has 43 rows in five types with sum U = 64") {
  const PatternTable table(2 * kMiB);
  REQUIRE(table.rows().size() == 43);
  for (int i = 0; i < 43; ++i) CHECK(table.rows()[static_cast<std::size_t>(i)].number == i);
  CHECK(table.rows_of_type(0).size() == 9);
  CHECK(table.rows_of_type(1).size() == 8);
  CHECK(table.rows_of_type(2).size() == 8);
  CHECK(table.rows_of_type(3).size() == 9);
  CHECK(table.rows_of_type(4).size() == 9);
  CHECK(table.total_time_units() == kTotalTimeUnits);
  CHECK(table.total_time_units() == 64);
  CHECK(table.time_units_of_type(0) == 22);
  CHECK(table.time_units_of_type(1) == 12);
  CHECK(table.time_units_of_type(2) == 10);
  CHECK(table.time_units_of_type(3) == 10);
  CHECK(table.time_units_of_type(4) == 10);
  // The first row of every type is a single 1 MB call (U = 0); types 3 and 4 end with the fill.
  for (int first : {0, 9, 17, 25, 34}) {
    CHECK(table.row(first).disk_chunk == kMiB);
    CHECK(table.row(first).time_units == 0);
  }
  CHECK(table.row(33).fill);
  CHECK(table.row(42).fill);
  CHECK(table.row(33).time_units == 0);
}

TEST_CASE("io: the rows are the paper's Table 2 (l / L / U)") {
  const std::int64_t mp = 4 * kMiB;
  const PatternTable table(mp);
  struct Expect {
    int number;
    std::int64_t l, big_l;
    int u;
  };
  const Expect expected[] = {{0, kMiB, kMiB, 0},
                             {1, mp, mp, 4},
                             {2, kMiB, 2 * kMiB, 4},
                             {3, kMiB, kMiB, 4},
                             {4, 32 * kKiB, kMiB, 2},
                             {5, kKiB, kMiB, 2},
                             {6, 32 * kKiB + 8, kMiB + 256, 2},
                             {7, kKiB + 8, kMiB + 8 * kKiB, 2},
                             {8, kMiB + 8, kMiB + 8, 2},
                             {9, kMiB, kMiB, 0},
                             {10, mp, mp, 4},
                             {11, kMiB, kMiB, 2},
                             {12, 32 * kKiB, 32 * kKiB, 1},
                             {13, kKiB, kKiB, 1},
                             {14, 32 * kKiB + 8, 32 * kKiB + 8, 1},
                             {15, kKiB + 8, kKiB + 8, 1},
                             {16, kMiB + 8, kMiB + 8, 2},
                             {17, kMiB, kMiB, 0},
                             {18, mp, mp, 2},
                             {19, kMiB, kMiB, 2},
                             {20, 32 * kKiB, 32 * kKiB, 1},
                             {21, kKiB, kKiB, 1},
                             {22, 32 * kKiB + 8, 32 * kKiB + 8, 1},
                             {23, kKiB + 8, kKiB + 8, 1},
                             {24, kMiB + 8, kMiB + 8, 2}};
  for (const Expect& e : expected) {
    CAPTURE(e.number);
    const PatternRow& r = table.row(e.number);
    CHECK(r.disk_chunk == e.l);
    CHECK(r.memory_chunk == e.big_l);
    CHECK(r.time_units == e.u);
  }
  // Types 3 and 4 repeat type 2's rows, then fill up the segment.
  for (int i = 0; i < 8; ++i) {
    for (int start : {25, 34}) {
      CHECK(table.row(start + i).disk_chunk == table.row(17 + i).disk_chunk);
      CHECK(table.row(start + i).memory_chunk == table.row(17 + i).memory_chunk);
      CHECK(table.row(start + i).time_units == table.row(17 + i).time_units);
    }
  }
  // Type 0 scatters whole chunks: L is a multiple of l in every row.
  for (const auto& r : table.rows_of_type(0)) {
    CHECK(r.memory_chunk % r.disk_chunk == 0);
  }
  CHECK(table.row(5).chunks_per_call() == 1024);
  CHECK(table.row(6).chunks_per_call() == 32);
  CHECK(table.row(7).chunks_per_call() == 1024);
  // The +8 byte sizes are the non-wellformed ones.
  CHECK(table.row(3).wellformed);
  CHECK_FALSE(table.row(8).wellformed);
  CHECK_FALSE(table.row(22).wellformed);
  CHECK(table.largest_memory_chunk() == mp);
}

TEST_CASE("io: M_PART = max(2 MB, memory per process / 128), capped at 1 GB") {
  CHECK(ChunkSizes::for_memory(1).m_part == 2 * kMiB);            // tests: the minimum
  CHECK(ChunkSizes::for_memory(256 * kMiB).m_part == 2 * kMiB);   // /128 = 2 MB
  CHECK(ChunkSizes::for_memory(1024 * kMiB).m_part == 8 * kMiB);  // 1 GB / 128
  CHECK(ChunkSizes::for_memory(12 * kGiB).m_part == 96 * kMiB);
  CHECK_FALSE(ChunkSizes::for_memory(12 * kGiB).capped);
  const ChunkSizes big = ChunkSizes::for_memory(256 * kGiB);
  CHECK(big.m_part == kGiB);
  CHECK(big.m_part_from_memory == 2 * kGiB);
  CHECK(big.capped);
  CHECK_THROWS(ChunkSizes::for_memory(0));
  // With a small M_PART the largest buffer is type 0's 2 MB row; with a large one it is M_PART.
  CHECK(PatternTable(2 * kMiB).largest_memory_chunk() == 2 * kMiB);
  CHECK(PatternTable(96 * kMiB).row(1).disk_chunk == 96 * kMiB);
  CHECK(PatternTable(96 * kMiB).row(18).memory_chunk == 96 * kMiB);
}

TEST_CASE("io: chunk labels read like the paper's") {
  CHECK(PatternTable::chunk_label(kMiB) == "1 MB");
  CHECK(PatternTable::chunk_label(32 * kKiB + 8) == "32 kB + 8 B");
  CHECK(PatternTable::chunk_label(kKiB) == "1 kB");
  CHECK(PatternTable::chunk_label(kMiB + 256) == "1 MB + 256 B");
}
