// pbench-comm: the random rings (drand48 from a recorded seed, the original's drawing), the
// additional patterns, the Cartesian grids, and the properties every pattern must have for the
// three methods to move the same messages.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "comm/CartesianGrid.hpp"
#include "comm/Drand48.hpp"
#include "comm/PatternSet.hpp"

using namespace pbench::comm;

namespace {

bool is_permutation_of_ranks(const std::vector<int>& order, int n) {
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  return sorted == ranks;
}

}  // namespace

TEST_CASE("comm: Drand48 gives the numbers of the C library's srand48/drand48") {
  for (std::uint32_t seed : {0u, 1u, 42u, 1700000000u, 4294967295u}) {
    Drand48 ours(seed);
    srand48(static_cast<long>(seed));
    for (int i = 0; i < 1000; ++i) {
      INFO("seed ", seed, ", draw ", i);
      REQUIRE(ours.next() == drand48());
    }
  }
}

TEST_CASE("comm: random rings are the original b_eff's draws for the same seed") {
  // the original: srand48(time); for each pattern, for i in 0..n-1: j = (int)(drand48()*n),
  // move to the next free slot, ranks[j] = i -- here with the C library's drand48 as the oracle
  const int n = 13;
  const std::uint32_t seed = 1234567;
  const PatternSet set = PatternSet::build(n, 30, seed);
  srand48(static_cast<long>(seed));
  for (int p : set.of_kind(PatternKind::kRandom)) {
    std::vector<int> ranks(n, -1);
    for (int i = 0; i < n; ++i) {
      int j = static_cast<int>(drand48() * n);
      while (ranks[static_cast<std::size_t>(j)] != -1) j = (j + 1) % n;
      ranks[static_cast<std::size_t>(j)] = i;
    }
    CHECK(set.patterns[static_cast<std::size_t>(p)].order == ranks);
  }
}

TEST_CASE("comm: random patterns are permutations and repeat for the same seed") {
  for (int n : {2, 3, 4, 7, 33, 100}) {
    const PatternSet a = PatternSet::build(n, 30, 99);
    const PatternSet b = PatternSet::build(n, 30, 99);
    const PatternSet c = PatternSet::build(n, 30, 100);
    const auto random = a.of_kind(PatternKind::kRandom);
    REQUIRE(random.size() == 30);
    bool any_difference = false;
    for (int p : random) {
      const auto& order = a.patterns[static_cast<std::size_t>(p)].order;
      INFO("n ", n, ", pattern ", p);
      CHECK(is_permutation_of_ranks(order, n));
      CHECK(order == b.patterns[static_cast<std::size_t>(p)].order);
      any_difference |= order != c.patterns[static_cast<std::size_t>(p)].order;
      // one ring over all processes in that order
      const auto& steps = a.patterns[static_cast<std::size_t>(p)].steps;
      for (std::size_t i = 0; i < order.size(); ++i) {
        CHECK(steps[static_cast<std::size_t>(order[i])].front().send_to == order[(i + 1) % order.size()]);
      }
    }
    if (n >= 4) CHECK(any_difference);
  }
}

TEST_CASE("comm: every pattern's messages match up, at most one per peer and direction") {
  // A message sent in step s to d is received by d in its step s from the sender (the tag), and
  // no process sends twice to or receives twice from one peer (MPI_Alltoallv carries one each).
  for (int n = 2; n <= 40; ++n) {
    const PatternSet set = PatternSet::build(n, 3, 7);
    for (const Pattern& p : set.patterns) {
      INFO("n ", n, ", pattern ", p.label);
      long long sends = 0;
      long long receives = 0;
      for (int r = 0; r < n; ++r) {
        const auto& steps = p.steps[static_cast<std::size_t>(r)];
        CHECK(steps.size() <= static_cast<std::size_t>(kMaxSteps));
        std::set<int> to;
        std::set<int> from;
        for (std::size_t s = 0; s < steps.size(); ++s) {
          const Step& step = steps[s];
          CHECK((step.send_to != kNoRank || step.recv_from != kNoRank));
          if (step.send_to != kNoRank) {
            ++sends;
            CHECK(step.send_to != r);
            CHECK(to.insert(step.send_to).second);
            const auto& theirs = p.steps[static_cast<std::size_t>(step.send_to)];
            REQUIRE(s < theirs.size());
            CHECK(theirs[s].recv_from == r);
          }
          if (step.recv_from != kNoRank) {
            ++receives;
            CHECK(from.insert(step.recv_from).second);
          }
        }
      }
      CHECK(sends == receives);
      CHECK(sends == p.messages_per_iteration());
    }
  }
}

TEST_CASE("comm: the pattern list has the original's order and unique labels") {
  const PatternSet set = PatternSet::build(7, 30, 1);
  std::set<std::string> labels;
  for (const Pattern& p : set.patterns) CHECK(labels.insert(p.label).second);
  CHECK(set.of_kind(PatternKind::kRing) == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(set.of_kind(PatternKind::kRandom).front() == 6);
  CHECK(set.of_kind(PatternKind::kRandom).back() == 35);
  CHECK(set.patterns[0].label == "ring1:3*2&+1");
  CHECK(set.patterns[36].label == "worst_cycle");
  std::vector<std::string> extras;
  for (int i : set.of_kind(PatternKind::kExtra)) extras.push_back(set.patterns[static_cast<std::size_t>(i)].label);
  CHECK(extras == std::vector<std::string>{"worst_cycle", "best_bisection", "worst_bisection",
                                           "pingpong", "cart2d_x", "cart2d_y", "cart2d_all",
                                           "cart3d_x", "cart3d_y", "cart3d_all"});
}

TEST_CASE("comm: worst cycle, bisections and the ping-pong have the original's shape") {
  CHECK(PatternSet::worst_cycle_order(6) == std::vector<int>{0, 5, 1, 4, 2, 3});
  CHECK(PatternSet::worst_cycle_order(7) == std::vector<int>{0, 6, 1, 5, 2, 4, 3});
  const PatternSet set = PatternSet::build(7, 1, 1);
  const auto find = [&](const std::string& label) {
    return *std::find_if(set.patterns.begin(), set.patterns.end(),
                         [&](const Pattern& p) { return p.label == label; });
  };
  const Pattern best = find("best_bisection");
  CHECK(best.steps[2].front().send_to == 3);
  CHECK(best.steps[3][1].send_to == 2);
  CHECK(best.steps[6].empty());  // odd count: the last rank stays out
  CHECK(best.messages_per_iteration() == 6);
  const Pattern worst = find("worst_bisection");
  CHECK(worst.steps[0].front().send_to == 5);
  CHECK(worst.steps[2].front().send_to == 3);
  CHECK(worst.steps[6].empty());
  const Pattern pingpong = set.patterns[static_cast<std::size_t>(set.pingpong)];
  CHECK(pingpong.label == "pingpong");
  CHECK(pingpong.sendrecv_only);
  CHECK(pingpong.participants() == 2);
  CHECK(pingpong.messages_per_iteration() == 2);
  CHECK(pingpong.steps[0].front().send_to == 1);
  CHECK(pingpong.steps[1][1].send_to == 0);
}

TEST_CASE("comm: balanced dims are MPI_Dims_create's (values taken from MPICH 4.0.2)") {
  CHECK(CartesianGrid::balanced_dims(30, 2) == std::vector<int>{6, 5});
  CHECK(CartesianGrid::balanced_dims(30, 3) == std::vector<int>{5, 3, 2});
  CHECK(CartesianGrid::balanced_dims(36, 3) == std::vector<int>{4, 3, 3});
  CHECK(CartesianGrid::balanced_dims(96, 2) == std::vector<int>{12, 8});
  CHECK(CartesianGrid::balanced_dims(96, 3) == std::vector<int>{6, 4, 4});
  CHECK(CartesianGrid::balanced_dims(128, 3) == std::vector<int>{8, 4, 4});
  CHECK(CartesianGrid::balanced_dims(1000, 2) == std::vector<int>{40, 25});
  CHECK(CartesianGrid::balanced_dims(7, 2) == std::vector<int>{7, 1});
}

TEST_CASE("comm: the Cartesian grids use the original's process counts") {
  CHECK(CartesianGrid::for_size(2, 3).dims == std::vector<int>{2, 1, 1});
  CHECK(CartesianGrid::for_size(3, 2).dims == std::vector<int>{3, 1});
  CHECK(CartesianGrid::for_size(5, 2).dims == std::vector<int>{2, 2});
  CHECK(CartesianGrid::for_size(7, 2).dims == std::vector<int>{3, 2});
  CHECK(CartesianGrid::for_size(7, 3).members == 6);
  CHECK(CartesianGrid::for_size(11, 2).dims == std::vector<int>{5, 2});
  CHECK(CartesianGrid::for_size(64, 3).dims == std::vector<int>{4, 4, 4});
}

TEST_CASE("comm: grid neighbours wrap around in row-major order, and extent 2 sends once") {
  const CartesianGrid grid = CartesianGrid::for_size(6, 2);  // 3x2
  CHECK(grid.neighbour(0, 0, +1) == 2);
  CHECK(grid.neighbour(0, 0, -1) == 4);
  CHECK(grid.neighbour(5, 1, +1) == 4);
  const Pattern y = Pattern::grid("y", 6, grid, {1});
  CHECK(y.steps[0].size() == 1);  // extent 2: both neighbours are rank 1
  const Pattern all = Pattern::grid("all", 6, grid, {0, 1});
  CHECK(all.steps[0].size() == 3);
  CHECK(all.messages_per_iteration() == 18);
}
