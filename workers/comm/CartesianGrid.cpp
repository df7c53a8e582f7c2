#include "comm/CartesianGrid.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace pbench::comm {
namespace {

// Every factorisation of n into k factors, each <= largest, in non-increasing order, visited
// with larger leading factors first.
void factorisations(int n, int k, int largest, std::vector<int>& prefix,
                    const std::function<void(const std::vector<int>&)>& visit) {
  if (k == 1) {
    if (n <= largest) {
      prefix.push_back(n);
      visit(prefix);
      prefix.pop_back();
    }
    return;
  }
  for (int f = std::min(n, largest); f >= 1; --f) {
    if (n % f != 0) continue;
    prefix.push_back(f);
    factorisations(n / f, k - 1, f, prefix, visit);
    prefix.pop_back();
  }
}

}  // namespace

std::vector<int> CartesianGrid::balanced_dims(int nnodes, int ndims) {
  if (nnodes < 1 || ndims < 1) throw std::invalid_argument("dims need nnodes, ndims >= 1");
  std::vector<int> best;
  int best_spread = nnodes;
  std::vector<int> prefix;
  factorisations(nnodes, ndims, nnodes, prefix, [&](const std::vector<int>& d) {
    const int spread = d.front() - d.back();
    if (best.empty() || spread < best_spread) {
      best = d;
      best_spread = spread;
    }
  });
  return best;
}

CartesianGrid CartesianGrid::for_size(int size, int ndims, const DimsFunction& dims_of) {
  CartesianGrid grid;
  for (int m = size; m >= 1; --m) {
    std::vector<int> d = dims_of(m, ndims);
    if (d.back() > 1 || (m < 8 && m % 2 == 0) || m < 4) {
      grid.dims = std::move(d);
      grid.members = m;
      break;
    }
  }
  grid.world_rank.resize(static_cast<std::size_t>(grid.members));
  std::iota(grid.world_rank.begin(), grid.world_rank.end(), 0);
  return grid;
}

std::vector<int> CartesianGrid::coords(int grid_rank) const {
  std::vector<int> c(dims.size());
  for (int d = ndims() - 1; d >= 0; --d) {
    c[static_cast<std::size_t>(d)] = grid_rank % dims[static_cast<std::size_t>(d)];
    grid_rank /= dims[static_cast<std::size_t>(d)];
  }
  return c;
}

int CartesianGrid::neighbour(int grid_rank, int dim, int displacement) const {
  std::vector<int> c = coords(grid_rank);
  const int extent = dims[static_cast<std::size_t>(dim)];
  auto& x = c[static_cast<std::size_t>(dim)];
  x = ((x + displacement) % extent + extent) % extent;
  int rank = 0;
  for (int d = 0; d < ndims(); ++d) rank = rank * dims[static_cast<std::size_t>(d)] + c[static_cast<std::size_t>(d)];
  return rank;
}

std::string CartesianGrid::shape() const {
  std::string text;
  for (int d : dims) text += (text.empty() ? "" : "x") + std::to_string(d);
  return text;
}

}  // namespace pbench::comm
