#include "comm/PatternSet.hpp"

#include <numeric>
#include <stdexcept>

#include "comm/RingLayout.hpp"

namespace pbench::comm {
namespace {

const char* const kAxis[] = {"x", "y", "z"};

void add_grid_patterns(PatternSet& set, int nprocs, const CartesianGrid& grid) {
  const std::string prefix = "cart" + std::to_string(grid.ndims()) + "d_";
  std::vector<int> all;
  for (int d = 0; d < grid.ndims(); ++d) {
    if (grid.dims[static_cast<std::size_t>(d)] < 2) continue;
    all.push_back(d);
    Pattern p = Pattern::grid(prefix + kAxis[d], nprocs, grid, {d});
    p.shape = grid.shape() + " periodic grid, direction " + kAxis[d];
    set.patterns.push_back(std::move(p));
  }
  Pattern p = Pattern::grid(prefix + "all", nprocs, grid, all);
  p.shape = grid.shape() + " periodic grid, all directions";
  set.patterns.push_back(std::move(p));
}

}  // namespace

std::vector<int> PatternSet::random_order(Drand48& generator, int nprocs) {
  std::vector<int> order(static_cast<std::size_t>(nprocs), -1);
  for (int i = 0; i < nprocs; ++i) {
    auto j = static_cast<std::size_t>(generator.next() * nprocs);
    while (order[j] != -1) j = (j + 1) % order.size();
    order[j] = i;
  }
  return order;
}

std::vector<int> PatternSet::worst_cycle_order(int nprocs) {
  std::vector<int> order;
  for (int i = 0; i < nprocs; ++i) order.push_back(i % 2 == 0 ? i / 2 : nprocs - 1 - i / 2);
  return order;
}

PatternSet PatternSet::build(int nprocs, int random_patterns, std::uint32_t seed,
                             const CartesianGrid& grid2d, const CartesianGrid& grid3d) {
  if (nprocs < 2) throw std::invalid_argument("b_eff patterns need at least 2 processes");
  PatternSet set;
  set.seed = seed;
  std::vector<int> identity(static_cast<std::size_t>(nprocs));
  std::iota(identity.begin(), identity.end(), 0);

  const auto layouts = RingLayout::b_eff_rings(nprocs);
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    Pattern p = Pattern::rings("ring" + std::to_string(i + 1) + ":" + layouts[i].label(),
                               PatternKind::kRing, identity, layouts[i].ring_sizes);
    p.shape = layouts[i].label() + " (nominal ring size " + std::to_string(layouts[i].nominal) + ")";
    p.ring_sizes = layouts[i].ring_sizes;
    set.patterns.push_back(std::move(p));
  }

  Drand48 generator(seed);
  for (int i = 0; i < random_patterns; ++i) {
    std::vector<int> order = random_order(generator, nprocs);
    Pattern p = Pattern::rings("random" + std::to_string(i + 1), PatternKind::kRandom, order,
                               {nprocs});
    p.shape = "one ring in random order";
    p.order = std::move(order);
    set.patterns.push_back(std::move(p));
  }

  Pattern worst = Pattern::rings("worst_cycle", PatternKind::kExtra, worst_cycle_order(nprocs),
                                 {nprocs});
  worst.shape = "one ring in the order 0, n-1, 1, n-2, ...";
  worst.order = worst_cycle_order(nprocs);
  set.patterns.push_back(std::move(worst));

  const int paired = nprocs / 2 * 2;
  std::vector<std::pair<int, int>> best_pairs;
  std::vector<std::pair<int, int>> worst_pairs;
  for (int k = 0; k < paired / 2; ++k) {
    best_pairs.emplace_back(2 * k, 2 * k + 1);
    worst_pairs.emplace_back(k, paired - 1 - k);
  }
  Pattern best_bisection = Pattern::pairs("best_bisection", nprocs, best_pairs);
  best_bisection.shape = "ping-pong in the pairs 2k <-> 2k+1";
  set.patterns.push_back(std::move(best_bisection));
  Pattern worst_bisection = Pattern::pairs("worst_bisection", nprocs, worst_pairs);
  worst_bisection.shape = "ping-pong in the pairs k <-> " + std::to_string(paired - 1) + "-k";
  set.patterns.push_back(std::move(worst_bisection));

  Pattern pingpong = Pattern::pairs("pingpong", nprocs, {{0, 1}});
  pingpong.shape = "ping-pong between ranks 0 and 1, MPI_Send/MPI_Recv";
  pingpong.sendrecv_only = true;
  set.pingpong = static_cast<int>(set.patterns.size());
  set.patterns.push_back(std::move(pingpong));

  add_grid_patterns(set, nprocs, grid2d);
  add_grid_patterns(set, nprocs, grid3d);
  return set;
}

PatternSet PatternSet::build(int nprocs, int random_patterns, std::uint32_t seed) {
  return build(nprocs, random_patterns, seed, CartesianGrid::for_size(nprocs, 2),
               CartesianGrid::for_size(nprocs, 3));
}

std::vector<int> PatternSet::of_kind(PatternKind kind) const {
  std::vector<int> indices;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (patterns[i].kind == kind) indices.push_back(static_cast<int>(i));
  }
  return indices;
}

}  // namespace pbench::comm
