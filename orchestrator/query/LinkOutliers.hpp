#pragma once
// The rule that names the weak nodes and links of a link matrix (`pbench query links`, the
// report's heatmap): one definition, unit-tested on made-up matrices.
//
// For a figure where higher is better (bandwidth) a value v is *low* against a group when it is
// below the group's median m by more than k robust standard deviations AND by more than a
// share of m:  m - v > k * 1.4826 * MAD  and  v < (1 - share) * m  (k = 3, share = 20%; MAD =
// the median of |x - m| over the group). For a figure where lower is better (latency) it is
// mirrored: v - m > k * 1.4826 * MAD and v > (1 + share) * m. The robust deviation ignores a few
// bad values that a standard deviation would follow; the share keeps a tight group (a MAD near
// 0) from naming a value that is only a little off.
// 1. Nodes first: each node's figure is the median of its links (both directions; the worker
//    reports it); a node whose figure is low against all nodes' figures is a weak node. A weak
//    node's port or cable slows every link it is on, and those links are listed under it.
// 2. Then links: among the links that touch no weak node, a link whose figure is low against
//    theirs is a weak link of its own.
#include <map>
#include <string>
#include <vector>

namespace pbench::query {

struct OutlierRule {
  double k = 3;         ///< robust standard deviations
  double share = 0.20;  ///< and at least this share of the median
  bool higher_is_better = true;
};

/// 1.4826 * MAD: the standard deviation of a normal sample, from its median absolute deviation.
double robust_sigma(const std::vector<double>& values);
/// The median (mean of the middle two for an even count); 0 when empty.
double median_of(std::vector<double> values);
/// True when `value` is an outlier on the bad side of `group` by the rule.
bool is_outlier(double value, const std::vector<double>& group, const OutlierRule& rule);

struct LinkValue {
  std::string from, to;
  double value = 0;
};

struct LinkOutliers {
  std::vector<std::string> weak_nodes;  ///< in the order the node figures were given
  /// Weak links that touch no weak node, as from -> to.
  std::vector<std::pair<std::string, std::string>> weak_links;
  double node_median = 0;  ///< of the node figures
  double link_median = 0;  ///< of the links that touch no weak node
};

/// Applies the rule to node figures (node -> figure, in `node_order`) and links.
LinkOutliers find_link_outliers(const std::vector<std::string>& node_order,
                                const std::map<std::string, double>& nodes,
                                const std::vector<LinkValue>& links, const OutlierRule& rule);

/// The rule in words, for the notes under the tables.
std::string outlier_rule_text(const OutlierRule& rule);

}  // namespace pbench::query
