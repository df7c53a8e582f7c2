#include "common/NodeLayout.hpp"

#include <algorithm>
#include <stdexcept>

namespace pbench::worker {

NodeLayout::NodeLayout(std::vector<std::string> rank_hosts) : rank_hosts_(std::move(rank_hosts)) {
  if (rank_hosts_.empty()) throw std::invalid_argument("node layout: no ranks");
  for (std::size_t r = 0; r < rank_hosts_.size(); ++r) {
    const std::string& host = rank_hosts_[r];
    if (host.empty()) {
      throw std::invalid_argument("node layout: rank " + std::to_string(r) + " has no host name");
    }
    auto it = std::find(hosts_.begin(), hosts_.end(), host);
    const int node = static_cast<int>(it - hosts_.begin());
    if (it == hosts_.end()) {
      hosts_.push_back(host);
      ranks_on_.emplace_back();
    }
    node_of_.push_back(node);
    ranks_on_[static_cast<std::size_t>(node)].push_back(static_cast<int>(r));
  }
}

int NodeLayout::node_of(int rank) const {
  if (rank < 0 || rank >= size()) {
    throw std::out_of_range("node layout: rank " + std::to_string(rank) + " outside " +
                            std::to_string(size()) + " ranks");
  }
  return node_of_[static_cast<std::size_t>(rank)];
}

const std::string& NodeLayout::host_of(int rank) const {
  return hosts_[static_cast<std::size_t>(node_of(rank))];
}

const std::vector<int>& NodeLayout::ranks_on(int node) const {
  if (node < 0 || node >= node_count()) {
    throw std::out_of_range("node layout: node " + std::to_string(node) + " outside " +
                            std::to_string(node_count()) + " nodes");
  }
  return ranks_on_[static_cast<std::size_t>(node)];
}

int NodeLayout::most_per_node() const {
  std::size_t most = 0;
  for (const auto& ranks : ranks_on_) most = std::max(most, ranks.size());
  return static_cast<int>(most);
}

int NodeLayout::least_per_node() const {
  std::size_t least = rank_hosts_.size();
  for (const auto& ranks : ranks_on_) least = std::min(least, ranks.size());
  return static_cast<int>(least);
}

}  // namespace pbench::worker
