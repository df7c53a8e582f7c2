#include "links/LinkSchedule.hpp"

#include <stdexcept>

namespace pbench::links {

Endpoints endpoints_of(const worker::NodeLayout& layout) {
  Endpoints e;
  e.between_nodes = layout.node_count() >= 2;
  if (e.between_nodes) {
    for (int node = 0; node < layout.node_count(); ++node) {
      const auto& ranks = layout.ranks_on(node);
      e.ranks.push_back(ranks.front());
      e.labels.push_back(layout.hosts()[static_cast<std::size_t>(node)]);
      for (std::size_t j = 1; j < ranks.size(); ++j) e.idle.push_back(ranks[j]);
    }
  } else {
    for (int rank = 0; rank < layout.size(); ++rank) {
      e.ranks.push_back(rank);
      e.labels.push_back(layout.host_of(rank) + "#" + std::to_string(rank));
    }
  }
  return e;
}

int send_partner(int i, int k, int n) {
  return (i + k) % n;
}

int receive_partner(int i, int k, int n) {
  return ((i - k) % n + n) % n;
}

int step_of(int from, int to, int n) {
  if (from == to) throw std::invalid_argument("a link needs two endpoints");
  return ((to - from) % n + n) % n;
}

}  // namespace pbench::links
