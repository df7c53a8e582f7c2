#include "query/LinksQuery.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "query/Layout.hpp"
#include "util/Error.hpp"

namespace pbench::query {

std::vector<LinkMatrixResult> link_matrices(store::Store& store,
                                            const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  auto s =
      store.db().prepare("SELECT sw.name, p.partition, r.id, r.valid, m.name, m.value, m.labels, " +
                         std::string(kLayoutSql) +
                         ", CASE WHEN json_type(p.params_json, '$.env') = 'text' "
                         "THEN json_extract(p.params_json, '$.env') END" +
                         " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
                         "JOIN results r ON r.id = " +
                         std::string(store::kChosenResult) +
                         " JOIN metrics m ON m.result_id = r.id "
                         "WHERE p.worker = 'links' AND (?1 IS NULL OR sw.name = ?1) AND m.name IN "
                         "('node_bandwidth', 'node_latency', 'link_bandwidth', 'link_latency') "
                         "ORDER BY sw.id, p.partition, p.id, r.id, m.id");
  s.bind(1, sweep);
  std::vector<LinkMatrixResult> out;
  std::int64_t current = -1;
  while (s.step()) {
    if (s.int64(2) != current) {
      current = s.int64(2);
      LinkMatrixResult m;
      m.sweep = s.text(0);
      m.result_id = current;
      m.partition = s.int64(1);
      m.valid = s.int64(3) != 0;
      m.asked = s.optional_text(9).value_or("");
      m.env = s.optional_text(10).value_or("");
      out.push_back(std::move(m));
    }
    auto& m = out.back();
    if (s.is_null(5)) continue;
    const std::string name = s.text(4);
    const double value = s.real(5);
    const auto labels = nlohmann::json::parse(s.text(6), nullptr, false);
    if (labels.is_discarded() || !labels.is_object()) continue;
    const auto text = [&](const char* key) {
      return labels.contains(key) && labels[key].is_string() ? labels[key].get<std::string>()
                                                             : std::string();
    };
    if (name == "node_bandwidth" || name == "node_latency") {
      const auto node = text("node");
      if (node.empty()) continue;
      if (std::find(m.nodes.begin(), m.nodes.end(), node) == m.nodes.end()) m.nodes.push_back(node);
      (name == "node_bandwidth" ? m.node_bandwidth : m.node_latency)[node] = value;
    } else {
      const auto from = text("from"), to = text("to");
      if (from.empty() || to.empty()) continue;
      (name == "link_bandwidth" ? m.bandwidth : m.latency).push_back({from, to, value});
    }
  }
  return out;
}

LinkOutliers bandwidth_outliers(const LinkMatrixResult& matrix) {
  return find_link_outliers(matrix.nodes, matrix.node_bandwidth, matrix.bandwidth, OutlierRule{});
}

namespace {

// Rows "node" and "link" of each matrix, and a note per matrix naming its weak nodes and links.
void matrix_rows(store::Store& store, const std::optional<std::string>& sweep, QueryTable& table) {
  for (const auto& m : link_matrices(store, sweep)) {
    const auto outliers = bandwidth_outliers(m);
    const auto weak_node = [&](const std::string& node) {
      return std::find(outliers.weak_nodes.begin(), outliers.weak_nodes.end(), node) !=
             outliers.weak_nodes.end();
    };
    const std::string valid = m.valid ? "yes" : "no";
    const auto ratio = [](double value, double median) -> Cell {
      if (median <= 0) return Cell{};
      return value / median;
    };
    for (const auto& node : m.nodes) {
      const auto latency = m.node_latency.find(node);
      const double bandwidth = m.node_bandwidth.at(node);
      table.rows.push_back({m.sweep, m.partition, std::string("node"), node, std::string(),
                            latency == m.node_latency.end() ? Cell{} : Cell{latency->second},
                            bandwidth, ratio(bandwidth, outliers.node_median),
                            std::string(weak_node(node) ? "weak node" : ""), valid});
    }
    std::map<std::pair<std::string, std::string>, double> latencies;
    for (const auto& l : m.latency) latencies[{l.from, l.to}] = l.value;
    for (const auto& l : m.bandwidth) {
      std::string verdict;
      if (weak_node(l.from) || weak_node(l.to)) {
        verdict = "on weak node " + (weak_node(l.from) ? l.from : l.to);
      } else if (std::find(outliers.weak_links.begin(), outliers.weak_links.end(),
                           std::pair{l.from, l.to}) != outliers.weak_links.end()) {
        verdict = "weak link";
      }
      const auto latency = latencies.find({l.from, l.to});
      table.rows.push_back({m.sweep, m.partition, std::string("link"), l.from, l.to,
                            latency == latencies.end() ? Cell{} : Cell{latency->second}, l.value,
                            ratio(l.value, outliers.link_median), verdict, valid});
    }
    const std::string cell = "sweep " + m.sweep + ", partition " +
                             partition_text(m.partition, m.asked) +
                             (m.env.empty() ? "" : ", environment " + m.env);
    std::string named;
    for (const auto& node : outliers.weak_nodes) {
      int count = 0;
      for (const auto& l : m.bandwidth) count += l.from == node || l.to == node;
      named += (named.empty() ? "" : "; ") + std::string("weak node ") + node + " (its " +
               std::to_string(count) + " links)";
    }
    for (const auto& [from, to] : outliers.weak_links) {
      named += (named.empty() ? "" : "; ") + std::string("weak link ") + from + " -> " + to;
    }
    table.notes.push_back(cell + ": " + (named.empty() ? "no weak node or link" : named) +
                          " by bandwidth (rule: " + outlier_rule_text(OutlierRule{}) + ")");
  }
}

}  // namespace

const WorkerTable& links_description() {
  static const WorkerTable table = {
      .worker = "links",
      .columns =
          {
              label_column("kind"),
              label_column("from"),
              label_column("to"),
              {"latency", "s", "latency", "us", 1e6, 4},
              {"bandwidth", "B/s", "bandwidth", "MB/s", 1e-6, 4},
              {"ratio", "", "vs median", "", 1, 3},
              label_column("verdict"),
          },
      .notes = {&placement_notes},
      .frame = TableFrame::matrix,
      .rows = &matrix_rows,
  };
  return table;
}

QueryTable links_table(store::Store& store, const std::optional<std::string>& sweep) {
  return worker_table(store, links_description(), sweep);
}

}  // namespace pbench::query
