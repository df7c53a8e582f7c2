#pragma once
// What `pbench query model` reads from result documents as evidence for its readings
// (ModelQuery.hpp; the rule in docs/model.md, "The readings"): a worker table's rows, comm's
// measured bandwidths with the spread of their repetitions and where its patterns ran, the ring
// sizes of a pattern, and why a result cannot be compared with the model at all.
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "query/LoggpModel.hpp"

namespace pbench::query {

/// The rows of a worker table in a result document ({"columns": [{"name"}...], "rows"}), each
/// as a map from column name to value; nothing when the table is missing or malformed.
std::vector<std::map<std::string, nlohmann::json>> document_rows(const nlohmann::json& table);
/// A row's number (NaN when missing or not a number) and text ("" when not a string).
double column_number(const std::map<std::string, nlohmann::json>& row, const std::string& key);
std::string column_text(const std::map<std::string, nlohmann::json>& row, const std::string& key);
/// "2,2,3" as numbers; empty when any entry is not a positive whole number (a pattern whose
/// table gives no ring sizes has no ring prediction).
std::vector<int> ints_of(const std::string& text);

/// Why a result cannot be compared with the model ("4 ranks on 2 cores": the worst node of
/// its node_cores, else of its oversubscription reason; "not valid"), or "" when it can; a
/// prediction from logp results that are not valid cannot be either ("logp not valid").
std::string not_comparable_text(bool valid, const std::string& reason,
                                const nlohmann::json& node_cores, bool logp_valid);

/// A measured bandwidth of comm at one pattern and size: the best over methods and repetitions
/// (as b_eff takes it), the rows behind it, and the spread of the best method's repetitions.
struct CommEvidence {
  double best = 0;
  std::int64_t rows = 0;
  double low = NAN, high = NAN;
  int samples = 0;
};

/// comm's measurements table as evidence per pattern and size.
std::map<std::string, std::map<double, CommEvidence>> comm_evidence(
    const std::vector<std::map<std::string, nlohmann::json>>& measurements);

/// A comm result's patterns by where their messages ran (comm's pattern_nodes; the ping-pong
/// between ranks 0 and 1 by their hosts), and how many of their messages cross nodes.
struct CommPaths {
  std::map<std::string, Path> path_of;
  std::map<std::string, double> crossing_of;
  Path operator()(const std::string& pattern) const {
    const auto it = path_of.find(pattern);
    return it == path_of.end() ? Path::unknown : it->second;
  }
};

/// From comm's pattern_nodes table and the result's rank_hosts.
CommPaths comm_paths(const std::vector<std::map<std::string, nlohmann::json>>& crossings,
                     const nlohmann::json& hosts);

/// The ring sizes of one of comm's patterns: b_eff's ring patterns by their ring sizes; its
/// random patterns and the worst cycle are one ring of all processes in another order (the
/// table's `order`), which changes which neighbours share a node and a link, not the model's
/// figure. Empty for a pattern that is no ring (pairs, a table without ring sizes).
std::vector<int> rings_of(const std::map<std::string, nlohmann::json>& pattern);

}  // namespace pbench::query
