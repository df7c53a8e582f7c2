#include "logp/PairPlacement.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace pbench::logp {

namespace {

/// Pairs whose partners are on different nodes, as many as the layout allows: repeatedly one
/// rank of the node with most ranks left and one of the node with the next most (lowest ranks
/// first, ties to the node seen first), which reaches min(n/2, n - largest node).
std::vector<RankPair> cross_node_pairs(const worker::NodeLayout& layout) {
  std::vector<std::deque<int>> left;
  for (int node = 0; node < layout.node_count(); ++node) {
    const auto& ranks = layout.ranks_on(node);
    left.emplace_back(ranks.begin(), ranks.end());
  }
  std::vector<RankPair> pairs;
  while (true) {
    int first = -1;
    int second = -1;
    for (int node = 0; node < static_cast<int>(left.size()); ++node) {
      const std::size_t n = left[static_cast<std::size_t>(node)].size();
      if (n == 0) continue;
      if (first < 0 || n > left[static_cast<std::size_t>(first)].size()) {
        second = first;
        first = node;
      } else if (second < 0 || n > left[static_cast<std::size_t>(second)].size()) {
        second = node;
      }
    }
    if (first < 0 || second < 0) break;
    auto& a = left[static_cast<std::size_t>(first)];
    auto& b = left[static_cast<std::size_t>(second)];
    const int x = a.front();
    const int y = b.front();
    a.pop_front();
    b.pop_front();
    pairs.push_back({std::min(x, y), std::max(x, y)});
  }
  return pairs;
}

/// Pairs of consecutive ranks of each node.
std::vector<RankPair> same_node_pairs(const worker::NodeLayout& layout) {
  std::vector<RankPair> pairs;
  for (int node = 0; node < layout.node_count(); ++node) {
    const auto& ranks = layout.ranks_on(node);
    for (std::size_t i = 0; i + 1 < ranks.size(); i += 2) pairs.push_back({ranks[i], ranks[i + 1]});
  }
  return pairs;
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(ranks[i]);
  }
  return text;
}

std::string pair_count(std::size_t n, PairMode mode) {
  return std::to_string(n) + " " + mode_name(mode) + (n == 1 ? " pair" : " pairs");
}

}  // namespace

const char* mode_name(PairMode mode) {
  return mode == PairMode::internode ? "internode" : "intranode";
}

PairMode parse_pair_mode(const std::string& name) {
  if (name == "internode") return PairMode::internode;
  if (name == "intranode") return PairMode::intranode;
  throw std::invalid_argument("--pairs: '" + name + "' is not internode or intranode");
}

PairPlacement PairPlacement::place(const worker::NodeLayout& layout, PairMode asked) {
  PairPlacement p;
  p.size_ = layout.size();
  p.asked_ = asked;
  p.measured_ = asked;
  const PairMode other = asked == PairMode::internode ? PairMode::intranode : PairMode::internode;
  auto form = [&](PairMode mode) {
    return mode == PairMode::internode ? cross_node_pairs(layout) : same_node_pairs(layout);
  };
  p.pairs_ = form(asked);
  if (p.pairs_.empty() && layout.size() >= 2) {
    p.pairs_ = form(other);
    p.measured_ = other;
    if (asked == PairMode::internode) {
      p.notes_.push_back("--pairs internode: all " + std::to_string(layout.size()) +
                         " ranks run on one node (" + layout.hosts().front() +
                         "), so no pair can cross nodes; measured " +
                         pair_count(p.pairs_.size(), other) +
                         " instead: these figures are shared memory, not the network");
    } else {
      p.notes_.push_back("--pairs intranode: each of the " + std::to_string(layout.node_count()) +
                         " nodes runs one rank, so no pair can share a node; measured " +
                         pair_count(p.pairs_.size(), other) +
                         " instead: these figures are the network, not shared memory");
    }
  }
  std::sort(p.pairs_.begin(), p.pairs_.end(),
            [](const RankPair& a, const RankPair& b) { return a.sender < b.sender; });
  std::vector<bool> paired(static_cast<std::size_t>(layout.size()), false);
  for (const auto& pair : p.pairs_) {
    paired[static_cast<std::size_t>(pair.sender)] = true;
    paired[static_cast<std::size_t>(pair.receiver)] = true;
  }
  for (int r = 0; r < layout.size(); ++r) {
    if (!paired[static_cast<std::size_t>(r)]) p.idle_.push_back(r);
  }
  if (!p.idle_.empty() && !p.pairs_.empty()) {
    const bool one = p.idle_.size() == 1;
    p.notes_.push_back(std::string(one ? "rank " : "ranks ") + rank_list(p.idle_) +
                       (one ? " idles" : " idle") + ": " + std::to_string(layout.size()) +
                       " ranks on " + std::to_string(layout.node_count()) +
                       (layout.node_count() == 1 ? " node" : " nodes") + " make " +
                       pair_count(p.pairs_.size(), p.measured_) +
                       "; the ranks without a partner only join the barriers");
  }
  return p;
}

PairPlacement PairPlacement::in_rank_order(int size) {
  if (size < 1) throw std::invalid_argument("pair placement: no ranks");
  PairPlacement p;
  p.size_ = size;
  for (int k = 0; 2 * k + 1 < size; ++k) p.pairs_.push_back({2 * k, 2 * k + 1});
  if (size % 2 == 1) p.idle_.push_back(size - 1);
  return p;
}

}  // namespace pbench::logp
