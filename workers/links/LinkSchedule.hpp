#pragma once
// mpiGraph's shift schedule over N endpoints (one per node): in step k = 1..N-1 endpoint i sends
// to i+k and receives from i-k (mod N), so every endpoint is busy in every step and after N-1
// steps every ordered pair (a -> b) has been measured exactly once, in step (b - a) mod N.
// Pure arithmetic, unit-tested; LinkMeasurement runs it over MPI.
#include <string>
#include <vector>

#include "common/NodeLayout.hpp"

namespace pbench::links {

struct Endpoints {
  /// World rank of each endpoint: the first rank of each node, or every rank when all ranks run
  /// on one node (then the links are between ranks of that node, not between nodes).
  std::vector<int> ranks;
  /// Label of each endpoint: its host name, or "host#rank" when all ranks share one node.
  std::vector<std::string> labels;
  /// True when the endpoints are nodes (at least two nodes).
  bool between_nodes = false;
  /// Ranks that measure nothing (a node's second and further ranks).
  std::vector<int> idle;
};

/// The endpoints of a layout.
Endpoints endpoints_of(const worker::NodeLayout& layout);

/// Partner of endpoint `i` in step `k` of `n` endpoints: it sends to (i + k) mod n ...
int send_partner(int i, int k, int n);
/// ... and receives from (i - k) mod n.
int receive_partner(int i, int k, int n);
/// The step in which `from` sends to `to` ((to - from) mod n; from != to).
int step_of(int from, int to, int n);

}  // namespace pbench::links
