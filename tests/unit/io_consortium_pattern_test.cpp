// pbench-io consortium suite: the access patterns' file layouts and the bad inputs they refuse.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "common/WorkerMain.hpp"
#include "io/ConsortiumParameters.hpp"
#include "io/ConsortiumPattern.hpp"

using namespace pbench::io;

namespace {

ConsortiumLayout layout_of(AccessPattern pattern, int clients, std::int64_t transfer,
                           std::int64_t block, std::int64_t segments = 1, std::int64_t padding = 0,
                           std::int64_t header = 0) {
  ConsortiumLayout l;
  l.pattern = pattern;
  l.clients = clients;
  l.transfer_size = transfer;
  l.block_size = block;
  l.segment_count = segments;
  l.padding = padding;
  l.header_bytes = header;
  l.seed = 42;
  return l;
}

/// Which client owns each byte of the file (-1: header or padding), from the transfers.
std::vector<int> owners(const ConsortiumLayout& l) {
  std::vector<int> owner(static_cast<std::size_t>(l.file_bytes()), -1);
  for (int c = 0; c < l.clients; ++c) {
    for (const Transfer& t : l.transfers(c)) {
      for (std::int64_t i = 0; i < t.size; ++i) {
        REQUIRE(owner[static_cast<std::size_t>(t.offset + i)] == -1);  // no byte twice
        owner[static_cast<std::size_t>(t.offset + i)] = c;
      }
    }
  }
  return owner;
}

}  // namespace

TEST_CASE("io consortium: segmented puts client c's block at header + c x block") {
  const ConsortiumLayout l = layout_of(AccessPattern::segmented, 3, 2, 4);
  CHECK_FALSE(l.problem());
  CHECK(l.transfers(1) == std::vector<Transfer>{{4, 2}, {6, 2}});
  CHECK(l.file_bytes() == 12);
  CHECK(owners(l) == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
}

TEST_CASE("io consortium: strided repeats the segment at the stride, padding left as a hole") {
  const ConsortiumLayout l = layout_of(AccessPattern::strided, 2, 2, 2, 3, 1, 1);
  CHECK_FALSE(l.problem());
  CHECK(l.stride() == 5);
  CHECK(l.transfers(0) == std::vector<Transfer>{{1, 2}, {6, 2}, {11, 2}});
  CHECK(l.transfers(1) == std::vector<Transfer>{{3, 2}, {8, 2}, {13, 2}});
  // header 1, then (AA BB -) x 3 without the last padding
  CHECK(owners(l) == std::vector<int>{-1, 0, 0, 1, 1, -1, 0, 0, 1, 1, -1, 0, 0, 1, 1});
}

TEST_CASE("io consortium: random sizes come from the seed and tile each block exactly") {
  ConsortiumLayout l = layout_of(AccessPattern::random, 2, 7, 50, 2, 3);
  CHECK_FALSE(l.problem());  // 50 is not a multiple of 7: allowed when sizes are random
  const auto first = l.transfers(1);
  CHECK(first == l.transfers(1));  // replayable by any process
  std::int64_t total = 0;
  bool varied = false;
  for (const Transfer& t : first) {
    CHECK(t.size >= 1);
    CHECK(t.size <= 7);
    varied = varied || t.size != first.front().size;
    total += t.size;
  }
  CHECK(varied);
  CHECK(total == l.bytes_per_client());
  const auto owner = owners(l);
  CHECK(std::count(owner.begin(), owner.end(), 1) == 100);
  l.seed = 43;
  CHECK(l.transfers(1) != first);
}

TEST_CASE("io consortium: general is random and strided after a header") {
  const ConsortiumLayout l = layout_of(AccessPattern::general, 2, 3, 4, 2, 2, 5);
  CHECK_FALSE(l.problem());
  const auto owner = owners(l);
  CHECK(l.file_bytes() == 5 + 10 + 8);
  for (int i = 0; i < 5; ++i) CHECK(owner[static_cast<std::size_t>(i)] == -1);
  CHECK(owner[5] == 0);
  CHECK(owner[9] == 1);
  CHECK(owner[13] == -1);
  CHECK(owner[14] == -1);
  CHECK(owner[15] == 0);
}

TEST_CASE("io consortium: bad layouts are refused with the parameter named") {
  CHECK(*layout_of(AccessPattern::segmented, 2, 8, 4).problem() ==
        "--transfer-size: 8 B is larger than the block (4 B)");
  CHECK(layout_of(AccessPattern::strided, 2, 3, 8, 2)
            .problem()
            ->starts_with("--block-size: 8 B is not a multiple of the 3 B transfer"));
  CHECK(*layout_of(AccessPattern::strided, 2, 2, 4, 2, 1, 10).problem() ==
        "--header-bytes: 10 B is larger than a stride (9 B)");
  CHECK(layout_of(AccessPattern::segmented, 2, 2, 4, 3)
            .problem()
            ->starts_with("--segment-count: the segmented pattern has one segment"));
  CHECK(*layout_of(AccessPattern::strided, 2, 2, 4, 0).problem() ==
        "--segment-count: must be >= 1");
  CHECK(stamp_byte(0, 250) != 0);
  CHECK(stamp_byte(0, 5) != stamp_byte(1, 5));
}

TEST_CASE("io consortium: options checked before MPI") {
  ConsortiumOptions o;
  CHECK(ConsortiumConfig::check(o).suite == IoSuite::b_eff_io);
  o.suite = "consortium";
  CHECK(ConsortiumConfig::check(o).suite == IoSuite::consortium);
  auto refuses = [](ConsortiumOptions bad, const std::string& message) {
    try {
      ConsortiumConfig::check(bad);
      FAIL("accepted: " << message);
    } catch (const pbench::worker::UsageError& e) {
      CHECK(std::string(e.what()).starts_with(message));
    }
  };
  ConsortiumOptions bad = o;
  bad.suite = "ior";
  refuses(bad, "--suite: 'ior' is not a suite");
  bad = o;
  bad.pattern = "tiled";
  refuses(bad, "--pattern: 'tiled' is not a pattern");
  bad = o;
  bad.filename = "a/b";
  refuses(bad, "--filename: 'a/b' is not a plain file name");
  bad = o;
  bad.transfer_size = 32 << 20;
  refuses(bad, "--transfer-size: 33554432 B is larger than the block");
  bad = o;
  bad.iterations = 0;
  refuses(bad, "--iterations: must be >= 1");
}

TEST_CASE("io consortium: deviation is the population form (consortium 6.2.3)") {
  CHECK(consortium_deviation({}) == 0);
  CHECK(consortium_deviation({3.0}) == 0);
  CHECK(consortium_deviation({1.0, 3.0}) == doctest::Approx(1.0));
  CHECK(consortium_deviation({2, 4, 4, 4, 5, 5, 7, 9}) == doctest::Approx(2.0));
}
