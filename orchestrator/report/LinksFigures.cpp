// The links worker's figure: the link matrix as heatmaps (bandwidth, latency), row = sender.
#include <cmath>
#include <map>

#include "query/LinksQuery.hpp"
#include "report/WorkerFigures.hpp"

namespace pbench::report {

std::vector<Figure> links_figures(const std::vector<query::LinkMatrixResult>& matrices,
                                  const EnvironmentLabels& envs) {
  std::vector<Figure> figures;
  for (const auto& m : matrices) {
    const auto outliers = query::bandwidth_outliers(m);
    Figure figure;
    figure.name = "links-" + std::to_string(m.partition);
    figure.title = envs.with("Link matrix: sweep " + m.sweep + ", " + std::to_string(m.partition) +
                                 " processes" + (m.asked.empty() ? "" : " (" + m.asked + ")"),
                             m.env);
    std::string named;
    for (const auto& node : outliers.weak_nodes) named += (named.empty() ? "" : ", ") + node;
    for (const auto& [from, to] : outliers.weak_links) {
      named += (named.empty() ? "" : ", ") + from + " -> " + to;
    }
    figure.caption =
        "Every ordered pair of nodes, measured on mpiGraph's shift schedule (every node busy in "
        "every step): bandwidth of the sender (row) to the receiver (column), and latency (half "
        "the round trip). Weak by bandwidth (below the median by more than 3 robust standard "
        "deviations and 20%, nodes first): " +
        (named.empty() ? std::string("none") : named) + "." +
        (m.valid ? "" : " The result is not valid (see the links table's notes).");
    // Bandwidth first (the map's order).
    const std::map<std::string, std::vector<query::LinkValue>> kinds = {{"bandwidth", m.bandwidth},
                                                                        {"latency", m.latency}};
    for (const auto& [kind, links] : kinds) {
      const bool bandwidth = kind == "bandwidth";
      Heatmap heatmap;
      heatmap.rows = heatmap.columns = m.nodes;
      heatmap.values.assign(m.nodes.size(), std::vector<double>(m.nodes.size(), NAN));
      std::map<std::string, std::size_t> index;
      for (std::size_t i = 0; i < m.nodes.size(); ++i) index[m.nodes[i]] = i;
      for (const auto& l : links) {
        if (!index.count(l.from) || !index.count(l.to)) continue;
        heatmap.values[index[l.from]][index[l.to]] = bandwidth ? l.value / 1e6 : l.value * 1e6;
      }
      heatmap.value_label = bandwidth ? "bandwidth [MB/s]" : "latency [us]";
      heatmap.decimals = bandwidth ? 0 : 1;
      Panel panel;
      panel.title = bandwidth ? "bandwidth [MB/s]" : "latency [us]";
      panel.x_label = "to";
      panel.y_label = "from";
      panel.heatmap = std::move(heatmap);
      figure.panels.push_back(std::move(panel));
    }
    figures.push_back(std::move(figure));
  }
  return figures;
}

}  // namespace pbench::report
