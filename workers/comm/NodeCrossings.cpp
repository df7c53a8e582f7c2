#include "comm/NodeCrossings.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace pbench::comm {

NodeCrossings NodeCrossings::of(const Pattern& pattern, const worker::NodeLayout& layout) {
  NodeCrossings c;
  std::set<std::pair<int, int>> links;
  for (std::size_t rank = 0; rank < pattern.steps.size(); ++rank) {
    for (const Step& step : pattern.steps[rank]) {
      if (step.send_to == kNoRank) continue;
      ++c.messages;
      const int from = static_cast<int>(rank);
      if (layout.same_node(from, step.send_to)) continue;
      ++c.crossing_messages;
      links.insert({std::min(from, step.send_to), std::max(from, step.send_to)});
    }
  }
  for (const auto& [a, b] : links) {
    c.crossing_neighbours.push_back(std::to_string(a) + "-" + std::to_string(b));
  }
  return c;
}

std::string NodeCrossings::neighbours_text() const {
  std::string text;
  for (const auto& link : crossing_neighbours) text += (text.empty() ? "" : ",") + link;
  return text;
}

}  // namespace pbench::comm
