#include "bcast/RankSample.hpp"

#include <algorithm>

namespace pbench::bcast {

std::vector<int> round_roots(int nprocs, int start, int step, int count) {
  std::vector<int> out;
  const int n = std::min(nprocs, std::max(1, count));
  for (int k = 0, r = start; k < n; ++k, r = ((r + step) % nprocs + nprocs) % nprocs) {
    out.push_back(r);
  }
  return out;
}

std::vector<int> spread_ranks(int nprocs, int skip, int count) {
  std::vector<int> candidates;
  const int first = skip >= 0 ? skip + 1 : 0;
  for (int k = 0; k < nprocs; ++k) {
    const int r = (first + k) % nprocs;
    if (r != skip) candidates.push_back(r);
  }
  const int n = static_cast<int>(candidates.size());
  if (count <= 0 || n <= count) return candidates;
  std::vector<int> out;
  for (int k = 0; k < count; ++k) {
    out.push_back(candidates[static_cast<std::size_t>(static_cast<long long>(k) * n / count)]);
  }
  return out;
}

}  // namespace pbench::bcast
