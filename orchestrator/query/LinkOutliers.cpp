#include "query/LinkOutliers.hpp"

#include <algorithm>
#include <cmath>

#include "query/QueryTable.hpp"

namespace pbench::query {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double robust_sigma(const std::vector<double>& values) {
  const double m = median_of(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - m));
  return 1.4826 * median_of(deviations);
}

bool is_outlier(double value, const std::vector<double>& group, const OutlierRule& rule) {
  if (group.size() < 2) return false;
  const double m = median_of(group);
  const double sigma = robust_sigma(group);
  if (rule.higher_is_better) return m - value > rule.k * sigma && value < (1 - rule.share) * m;
  return value - m > rule.k * sigma && value > (1 + rule.share) * m;
}

LinkOutliers find_link_outliers(const std::vector<std::string>& node_order,
                                const std::map<std::string, double>& nodes,
                                const std::vector<LinkValue>& links, const OutlierRule& rule) {
  LinkOutliers out;
  std::vector<double> figures;
  for (const auto& name : node_order) {
    if (const auto it = nodes.find(name); it != nodes.end()) figures.push_back(it->second);
  }
  out.node_median = median_of(figures);
  for (const auto& name : node_order) {
    const auto it = nodes.find(name);
    if (it != nodes.end() && is_outlier(it->second, figures, rule)) out.weak_nodes.push_back(name);
  }
  const auto weak = [&](const std::string& node) {
    return std::find(out.weak_nodes.begin(), out.weak_nodes.end(), node) != out.weak_nodes.end();
  };
  std::vector<double> rest;
  for (const auto& l : links) {
    if (!weak(l.from) && !weak(l.to)) rest.push_back(l.value);
  }
  out.link_median = median_of(rest);
  for (const auto& l : links) {
    if (!weak(l.from) && !weak(l.to) && is_outlier(l.value, rest, rule)) {
      out.weak_links.emplace_back(l.from, l.to);
    }
  }
  return out;
}

std::string outlier_rule_text(const OutlierRule& rule) {
  const std::string k = plain_significant(rule.k, 3);
  const std::string share = plain_significant(rule.share * 100, 3) + "%";
  return std::string(rule.higher_is_better ? "below" : "above") + " the median by more than " + k +
         " robust standard deviations (1.4826 MAD) and by more than " + share +
         "; nodes first (a node's figure is the median of its links), then the links that touch "
         "no weak node";
}

}  // namespace pbench::query
