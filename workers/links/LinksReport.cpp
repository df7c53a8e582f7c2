#include "links/LinksReport.hpp"

#include <algorithm>

#include "common/Stats.hpp"
#include "common/TextFormat.hpp"

namespace pbench::links {

using nlohmann::json;

std::vector<NodeFigures> node_figures(const LinkMatrix& matrix) {
  std::vector<NodeFigures> nodes;
  for (std::size_t e = 0; e < matrix.endpoints.labels.size(); ++e) {
    std::vector<double> latencies, bandwidths;
    for (const auto& l : matrix.links) {
      if (l.from != static_cast<int>(e) && l.to != static_cast<int>(e)) continue;
      latencies.push_back(l.latency);
      bandwidths.push_back(l.bandwidth);
    }
    nodes.push_back({matrix.endpoints.labels[e], worker::median(latencies),
                     worker::median(bandwidths), static_cast<int>(bandwidths.size())});
  }
  return nodes;
}

worker::PhysicalLimits physical_limits(const LinkMatrix& matrix) {
  std::vector<worker::LabelledValue> latencies, bandwidths;
  for (const auto& l : matrix.links) {
    const std::string label = matrix.endpoints.labels[static_cast<std::size_t>(l.from)] + " -> " +
                              matrix.endpoints.labels[static_cast<std::size_t>(l.to)];
    latencies.push_back({label, l.latency});
    bandwidths.push_back({label, l.bandwidth});
  }
  worker::PhysicalLimits limits;
  limits.positive_each("link latency", latencies, "s");
  limits.positive_each("link bandwidth", bandwidths, "B/s");
  return limits;
}

LinksReport::LinksReport(LinkMatrix matrix, LinksParameters parameters)
    : matrix_(std::move(matrix)), parameters_(parameters), nodes_(node_figures(matrix_)) {}

void LinksReport::write(worker::ResultDocument& result) const {
  const auto& labels = matrix_.endpoints.labels;
  const auto label = [&](int e) { return labels[static_cast<std::size_t>(e)]; };
  for (const auto& reason : physical_limits(matrix_).reasons()) result.invalidate(reason);
  auto& links = result.add_table("links", {{"from", ""},
                                           {"to", ""},
                                           {"from_rank", ""},
                                           {"to_rank", ""},
                                           {"step", ""},
                                           {"latency", "s"},
                                           {"bandwidth", "B/s"},
                                           {"wrong_bytes", "count"}});
  long long wrong = 0;
  std::vector<double> latencies, bandwidths;
  for (const auto& l : matrix_.links) {
    links.add_row({label(l.from), label(l.to),
                   matrix_.endpoints.ranks[static_cast<std::size_t>(l.from)],
                   matrix_.endpoints.ranks[static_cast<std::size_t>(l.to)], l.step, l.latency,
                   l.bandwidth, l.wrong_bytes});
    const json pair = {{"from", label(l.from)}, {"to", label(l.to)}};
    const auto samples = static_cast<std::size_t>(parameters_.repetitions);
    result.add_metric("link_latency", l.latency, "s", samples, pair);
    result.add_metric("link_bandwidth", l.bandwidth, "B/s", samples, pair);
    latencies.push_back(l.latency);
    bandwidths.push_back(l.bandwidth);
    wrong += l.wrong_bytes;
  }
  auto& nodes = result.add_table(
      "nodes", {{"node", ""}, {"latency", "s"}, {"bandwidth", "B/s"}, {"links", "count"}});
  for (const auto& n : nodes_) {
    nodes.add_row({n.label, n.latency, n.bandwidth, n.links});
    result.add_metric("node_bandwidth", n.bandwidth, "B/s", static_cast<std::size_t>(n.links),
                      json{{"node", n.label}});
    result.add_metric("node_latency", n.latency, "s", static_cast<std::size_t>(n.links),
                      json{{"node", n.label}});
  }
  const auto count = latencies.size();
  const auto extreme = [&](const std::vector<double>& v, bool largest) -> std::optional<double> {
    if (v.empty()) return std::nullopt;
    return largest ? *std::max_element(v.begin(), v.end()) : *std::min_element(v.begin(), v.end());
  };
  const auto middle = [&](const std::vector<double>& v) -> std::optional<double> {
    if (v.empty()) return std::nullopt;
    return worker::median(v);
  };
  result.add_metric("latency_median", middle(latencies), "s", count);
  result.add_metric("latency_max", extreme(latencies, true), "s", count);
  result.add_metric("bandwidth_median", middle(bandwidths), "B/s", count);
  result.add_metric("bandwidth_min", extreme(bandwidths, false), "B/s", count);
  result.add_metric("links_measured", static_cast<double>(count), "count", count);
  if (wrong > 0) {
    result.invalidate("received data: " + std::to_string(wrong) +
                      " checked bytes differ from their sender's stamp");
  }
  if (!matrix_.endpoints.between_nodes) {
    result.invalidate(
        "all ranks run on one node: these are links between its ranks (shared "
        "memory), not between nodes; run one rank per node on two or more nodes");
  }
  if (!matrix_.endpoints.idle.empty()) {
    result.add_warning(std::to_string(matrix_.endpoints.idle.size()) +
                       " ranks measured nothing: the links are measured from the first rank of "
                       "each node (ask for one process per node, NxP with P = 1)");
  }
}

void LinksReport::print(std::ostream& out) const {
  const auto& labels = matrix_.endpoints.labels;
  const std::size_t n = labels.size();
  std::size_t width = 10;
  for (const auto& l : labels) width = std::max(width, l.size() + 2);
  out << "pbench-links: " << n << " endpoints, " << matrix_.links.size() << " links in "
      << matrix_.steps_done << " shift steps; message " << parameters_.message_size << " B x "
      << parameters_.messages << ", " << parameters_.latency_roundtrips << " round trips, "
      << parameters_.repetitions << " repetitions\n";
  for (const char* what : {"bandwidth [MB/s]", "latency [us]"}) {
    const bool bandwidth = what[0] == 'b';
    out << "\n" << what << ", row: from, column: to\n" << worker::pad_right("", width);
    for (const auto& l : labels) out << worker::pad_left(l, width);
    out << "\n";
    for (std::size_t from = 0; from < n; ++from) {
      out << worker::pad_right(labels[from], width);
      for (std::size_t to = 0; to < n; ++to) {
        std::string cell = "-";
        for (const auto& l : matrix_.links) {
          if (l.from != static_cast<int>(from) || l.to != static_cast<int>(to)) continue;
          cell =
              bandwidth ? worker::fixed(l.bandwidth / 1e6, 1) : worker::fixed(l.latency * 1e6, 2);
        }
        out << worker::pad_left(cell, width);
      }
      out << "\n";
    }
  }
  out << "\nper node (median of its links, both directions)\n";
  for (const auto& node : nodes_) {
    out << "  " << worker::pad_right(node.label, width) << worker::fixed(node.bandwidth / 1e6, 1)
        << " MB/s  " << worker::fixed(node.latency * 1e6, 2) << " us  (" << node.links
        << " links)\n";
  }
}

}  // namespace pbench::links
