// pbench-comm: how the six ring patterns split the processes into rings (METHODS.md section 1,
// the ring_numbers rule), checked against METHODS.md's test vectors, against the rule written out
// independently, and against what the paper (seed 000, section 4) says of each pattern.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "comm/Pattern.hpp"
#include "comm/RingLayout.hpp"

using namespace pbench::comm;

namespace {

std::vector<std::string> labels(int size) {
  std::vector<std::string> out;
  for (const auto& layout : RingLayout::b_eff_rings(size)) out.push_back(layout.label());
  return out;
}

// The rule, written from METHODS.md without looking at the implementation.
std::vector<int> expected_rings(int size, int pattern) {
  const int nominal_of[6] = {2, 4, 8, std::max(16, size / 4), std::max(32, size / 2), size};
  const int s = std::min(nominal_of[pattern], size);
  if (pattern == 1 && size <= 7) return {size};  // the paper: "less or equal 7 ... one ring"
  const int nr = std::max(1, std::min(static_cast<int>(std::floor(1.0 * size / s + 0.4)), size / 2));
  const int low = size / nr;
  const int hc = size - low * nr;
  const int lc = nr - hc;
  std::vector<int> rings;
  if (low % 2 == 1 && hc > 0) {
    rings.insert(rings.end(), hc, low + 1);
    rings.insert(rings.end(), lc, low);
  } else {
    rings.insert(rings.end(), lc, low);
    rings.insert(rings.end(), hc, low + 1);
  }
  return rings;
}

// The sizes after the leading run of `common`, which must all be at the end.
std::vector<int> tail_after(const std::vector<int>& rings, int common) {
  auto first_other = std::find_if(rings.begin(), rings.end(), [&](int r) { return r != common; });
  return {first_other, rings.end()};
}

}  // namespace

TEST_CASE("comm: ring layouts match METHODS.md's test vectors for 7, 33 and 100 processes") {
  CHECK(labels(7) == std::vector<std::string>{"3*2&+1", "1*7", "1*7", "1*7", "1*7", "1*7"});
  CHECK(RingLayout::b_eff_rings(7)[0].ring_sizes == std::vector<int>{2, 2, 3});
  CHECK(labels(33) ==
        std::vector<std::string>{"16*2&+1", "8*4&+1", "4*8&+1", "2*16&+1", "1*33", "1*33"});
  CHECK(labels(100) == std::vector<std::string>{"50*2", "25*4", "12*8&+1", "4*25", "2*50", "1*100"});
  CHECK(RingLayout::b_eff_rings(100)[2].ring_sizes.back() == 9);
  CHECK(RingLayout::b_eff_rings(100)[2].ring_sizes.front() == 8);
}

TEST_CASE("comm: the larger rings come first when the smaller size is odd, and the label says -1") {
  // 11 processes, nominal 4: 3 rings, low 3 (odd), two rings of 4 first, then one of 3
  const RingLayout layout = RingLayout::split(11, 4);
  CHECK(layout.ring_sizes == std::vector<int>{4, 4, 3});
  CHECK(layout.label() == "3*4&-1");
}

TEST_CASE("comm: ring sizes for every process count from 2 to 128 follow the rule") {
  for (int n = 2; n <= 128; ++n) {
    const auto layouts = RingLayout::b_eff_rings(n);
    REQUIRE(layouts.size() == 6);
    for (int p = 0; p < 6; ++p) {
      const auto& rings = layouts[static_cast<std::size_t>(p)].ring_sizes;
      INFO("size ", n, ", pattern ", p + 1);
      CHECK(rings == expected_rings(n, p));
      CHECK(std::accumulate(rings.begin(), rings.end(), 0) == n);
      CHECK(*std::min_element(rings.begin(), rings.end()) >= 2);
      CHECK(*std::max_element(rings.begin(), rings.end()) -
                *std::min_element(rings.begin(), rings.end()) <= 1);
    }
    CHECK(layouts[5].ring_sizes == std::vector<int>{n});
  }
}

TEST_CASE("comm: ring sizes agree with the paper's description of each pattern") {
  for (int n = 2; n <= 128; ++n) {
    const auto layouts = RingLayout::b_eff_rings(n);
    INFO("size ", n);
    // 1st: all rings of 2, except the last, which may have 3
    const auto first_tail = tail_after(layouts[0].ring_sizes, 2);
    CHECK(first_tail.size() <= 1);
    if (!first_tail.empty()) CHECK(first_tail[0] == 3);
    // 2nd: one ring up to 7 processes; otherwise rings of 4, the last ones 1*3, 1*5 or 2*5
    if (n <= 7) {
      CHECK(layouts[1].ring_sizes == std::vector<int>{n});
    } else {
      const auto tail = tail_after(layouts[1].ring_sizes, 4);
      const bool allowed = tail.empty() || tail == std::vector<int>{3} ||
                           tail == std::vector<int>{5} || tail == std::vector<int>{5, 5};
      CHECK(allowed);
    }
    // 3rd, from 29 processes on: rings of 8, the last ones 3*7 ... 1*7 or 1*9 ... 4*9
    if (n >= 29) {
      const auto tail = tail_after(layouts[2].ring_sizes, 8);
      const bool sevens = tail.size() <= 3 && std::all_of(tail.begin(), tail.end(), [](int r) { return r == 7; });
      const bool nines = tail.size() <= 4 && std::all_of(tail.begin(), tail.end(), [](int r) { return r == 9; });
      CHECK((sevens || nines));
    }
  }
}

TEST_CASE("comm: in every ring pattern each rank is in exactly one ring of consecutive ranks") {
  for (int n = 2; n <= 128; ++n) {
    for (const auto& layout : RingLayout::b_eff_rings(n)) {
      std::vector<int> identity(static_cast<std::size_t>(n));
      std::iota(identity.begin(), identity.end(), 0);
      const Pattern p = Pattern::rings("r", PatternKind::kRing, identity, layout.ring_sizes);
      int base = 0;
      for (int size : layout.ring_sizes) {
        for (int r = base; r < base + size; ++r) {
          // following the right neighbours visits exactly this ring's ranks and comes back
          std::set<int> seen;
          int at = r;
          for (int hop = 0; hop < size; ++hop) {
            seen.insert(at);
            at = p.steps[static_cast<std::size_t>(at)].front().send_to;
          }
          INFO("size ", n, ", layout ", layout.label(), ", rank ", r);
          CHECK(at == r);
          CHECK(seen.size() == static_cast<std::size_t>(size));
          CHECK(*seen.begin() == base);
          CHECK(*seen.rbegin() == base + size - 1);
          CHECK(p.steps[static_cast<std::size_t>(r)].size() == (size == 2 ? 1u : 2u));
        }
        base += size;
      }
    }
  }
}
