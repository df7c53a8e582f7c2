#include "query/ModelEvidence.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/NodeCores.hpp"

namespace pbench::query {

using nlohmann::json;

/// The rows of a worker table in a result document ({"columns": [{"name"}...], "rows"}), each
/// as a map from column name to value; nothing when the table is missing or malformed.
std::vector<std::map<std::string, json>> document_rows(const json& table) {
  std::vector<std::map<std::string, json>> out;
  if (!table.is_object() || !table.contains("columns") || !table.contains("rows")) return out;
  const json& columns = table["columns"];
  if (!columns.is_array() || !table["rows"].is_array()) return out;
  for (const auto& row : table["rows"]) {
    if (!row.is_array()) continue;
    std::map<std::string, json> named;
    for (std::size_t c = 0; c < columns.size() && c < row.size(); ++c) {
      if (columns[c].is_object() && columns[c].contains("name") && columns[c]["name"].is_string())
        named[columns[c]["name"].get<std::string>()] = row[c];
    }
    out.push_back(std::move(named));
  }
  return out;
}

double column_number(const std::map<std::string, json>& row, const std::string& key) {
  const auto it = row.find(key);
  return it != row.end() && it->second.is_number() ? it->second.get<double>() : NAN;
}

std::string column_text(const std::map<std::string, json>& row, const std::string& key) {
  const auto it = row.find(key);
  return it != row.end() && it->second.is_string() ? it->second.get<std::string>() : "";
}

/// "2,2,3" as numbers; empty when any entry is not a positive whole number (a pattern whose
/// table gives no ring sizes has no ring prediction).
std::vector<int> ints_of(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty() || item.size() > 9 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      return {};
    out.push_back(std::stoi(item));
  }
  return out;
}

/// Why a result cannot be compared with the model ("4 ranks on 2 cores": the worst node of
/// its node_cores, or of its oversubscription reason; "not valid"), or "" when it can; a
/// prediction from logp results that are not valid cannot be either ("logp not valid").
std::string not_comparable_text(bool valid, const std::string& reason, const json& node_cores,
                                bool logp_valid) {
  std::vector<worker::NodeCores> nodes;
  if (node_cores.is_array()) {
    for (const auto& n : node_cores) {
      if (!n.is_object() || !n.contains("ranks") || !n.contains("cores") ||
          !n["ranks"].is_number_integer() || !n["cores"].is_number_integer())
        continue;
      worker::NodeCores node;
      node.host = n.contains("host") && n["host"].is_string() ? n["host"].get<std::string>() : "";
      node.ranks = n["ranks"].get<int>();
      node.cores = n["cores"].get<int>();
      if (n.contains("machine") && n["machine"].is_string())
        node.machine = n["machine"].get<std::string>();
      if (n.contains("machine_cpus") && n["machine_cpus"].is_number_integer())
        node.machine_cpus = n["machine_cpus"].get<int>();
      nodes.push_back(node);
    }
  }
  std::optional<worker::NodeCores> worst;
  if (const auto over = worker::oversubscription_reason(nodes))
    worst = worker::worst_of_reason(*over);
  if (!worst && worker::is_oversubscription_reason(reason)) {
    worst = worker::worst_of_reason(reason);
    if (!worst) return "oversubscribed";
  }
  if (worst) {
    return std::to_string(worst->ranks) + (worst->ranks == 1 ? " rank" : " ranks") + " on " +
           std::to_string(worst->cores) + (worst->cores == 1 ? " core" : " cores");
  }
  if (!valid) return "not valid";
  return logp_valid ? "" : "logp not valid";
}

/// comm's measurements table as evidence per pattern and size.
std::map<std::string, std::map<double, CommEvidence>> comm_evidence(
    const std::vector<std::map<std::string, json>>& measurements) {
  // pattern -> size -> method -> bandwidths over repetitions
  std::map<std::string, std::map<double, std::map<std::string, std::vector<double>>>> all;
  for (const auto& m : measurements) {
    const double bw = column_number(m, "bandwidth"), l = column_number(m, "l");
    if (!(bw > 0) || !(l > 0)) continue;
    all[column_text(m, "pattern")][l][column_text(m, "method")].push_back(bw);
  }
  std::map<std::string, std::map<double, CommEvidence>> out;
  for (const auto& [pattern, sizes] : all) {
    for (const auto& [size, methods] : sizes) {
      CommEvidence e;
      for (const auto& [method, values] : methods) {
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        e.rows += static_cast<std::int64_t>(values.size());
        if (*high <= e.best) continue;
        e.best = *high;
        e.low = *low;
        e.high = *high;
        e.samples = static_cast<int>(values.size());
      }
      out[pattern][size] = e;
    }
  }
  return out;
}

CommPaths comm_paths(const std::vector<std::map<std::string, json>>& crossings, const json& hosts) {
  CommPaths paths;
  for (const auto& row : crossings) {
    const double messages = column_number(row, "messages"),
                 crossing = column_number(row, "crossing_messages");
    const std::string pattern = column_text(row, "pattern");
    paths.crossing_of[pattern] = crossing;
    paths.path_of[pattern] = crossing == 0          ? Path::shared_memory
                             : crossing == messages ? Path::network
                                                    : Path::mixed;
  }
  if (hosts.is_array() && hosts.size() >= 2 && hosts[0].is_string() && hosts[1].is_string()) {
    paths.path_of["pingpong"] = hosts[0] == hosts[1] ? Path::shared_memory : Path::network;
  }
  return paths;
}

/// The ring sizes of one of comm's patterns: b_eff's ring patterns by their ring sizes; its
/// random patterns and the worst cycle are one ring of all processes in another order (the
/// table's `order`), which changes which neighbours share a node and a link, not the model's
/// figure. Empty for a pattern that is no ring (pairs, a table without ring sizes).
std::vector<int> rings_of(const std::map<std::string, json>& pattern) {
  if (column_text(pattern, "kind") == "ring") return ints_of(column_text(pattern, "ring_sizes"));
  if (const auto order = ints_of(column_text(pattern, "order")); order.size() >= 2)
    return {static_cast<int>(order.size())};
  return {};
}

}  // namespace pbench::query
