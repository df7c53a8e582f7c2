#include "comm/Pattern.hpp"

#include <numeric>
#include <stdexcept>

#include "common/EnumName.hpp"

namespace pbench::comm {

std::string kind_name(PatternKind kind) {
  constexpr EnumName<PatternKind> kNames[] = {{PatternKind::kRing, "ring"},
                                              {PatternKind::kRandom, "random"},
                                              {PatternKind::kExtra, "extra"}};
  return name_of(kNames, kind);
}

long long Pattern::messages_per_iteration() const {
  long long messages = 0;
  for (const auto& rank_steps : steps) {
    for (const Step& s : rank_steps) messages += s.send_to != kNoRank ? 1 : 0;
  }
  return messages;
}

int Pattern::participants() const {
  int count = 0;
  for (const auto& rank_steps : steps) count += rank_steps.empty() ? 0 : 1;
  return count;
}

Pattern Pattern::rings(std::string label, PatternKind kind, const std::vector<int>& order,
                       const std::vector<int>& ring_sizes) {
  if (std::accumulate(ring_sizes.begin(), ring_sizes.end(), 0) != static_cast<int>(order.size())) {
    throw std::invalid_argument("ring sizes do not add up to the processes in the order");
  }
  Pattern p;
  p.label = std::move(label);
  p.kind = kind;
  p.steps.resize(order.size());
  std::size_t base = 0;
  for (int size : ring_sizes) {
    const auto n = static_cast<std::size_t>(size);
    for (std::size_t i = 0; i < n; ++i) {
      const int me = order[base + i];
      const int right = order[base + (i + 1) % n];
      const int left = order[base + (i + n - 1) % n];
      auto& mine = p.steps[static_cast<std::size_t>(me)];
      mine.push_back({right, left});
      if (right != left) mine.push_back({left, right});
    }
    base += n;
  }
  return p;
}

Pattern Pattern::pairs(std::string label, int nprocs,
                       const std::vector<std::pair<int, int>>& pairs) {
  Pattern p;
  p.label = std::move(label);
  p.steps.resize(static_cast<std::size_t>(nprocs));
  for (const auto& [first, second] : pairs) {
    p.steps[static_cast<std::size_t>(first)] = {{second, kNoRank}, {kNoRank, second}};
    p.steps[static_cast<std::size_t>(second)] = {{kNoRank, first}, {first, kNoRank}};
  }
  return p;
}

Pattern Pattern::grid(std::string label, int nprocs, const CartesianGrid& grid,
                      const std::vector<int>& dimensions) {
  Pattern p;
  p.label = std::move(label);
  p.grid_dims = grid.ndims();
  p.steps.resize(static_cast<std::size_t>(nprocs));
  for (int r = 0; r < grid.members; ++r) {
    auto& mine = p.steps[static_cast<std::size_t>(grid.world_rank[static_cast<std::size_t>(r)])];
    for (int d : dimensions) {
      if (grid.dims[static_cast<std::size_t>(d)] < 2) continue;
      const int up = grid.world_rank[static_cast<std::size_t>(grid.neighbour(r, d, +1))];
      const int down = grid.world_rank[static_cast<std::size_t>(grid.neighbour(r, d, -1))];
      mine.push_back({up, down});
      if (up != down) mine.push_back({down, up});
    }
  }
  return p;
}

}  // namespace pbench::comm
