#include "report/FigureRules.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace pbench::report {
namespace {

/// The finite positive y values of `series`; `all_positive` false when any finite one is not.
std::vector<double> rule_positive_values(const std::vector<const Series*>& series,
                                         bool& all_positive) {
  std::vector<double> out;
  all_positive = true;
  for (const Series* s : series) {
    for (const auto& [x, y] : s->points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      if (y > 0)
        out.push_back(y);
      else
        all_positive = false;
    }
  }
  return out;
}

double rule_median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/// The environments of a panel's series, in order of first appearance.
std::vector<std::string> panel_environments(const Panel& panel) {
  std::vector<std::string> out;
  for (const auto& s : panel.series) {
    if (s.has_data() && std::find(out.begin(), out.end(), s.env) == out.end()) out.push_back(s.env);
  }
  return out;
}

/// Rule 3: a panel whose environments' medians lie kPanelSpan apart, one panel per environment.
std::vector<Panel> split_by_environment(const Panel& panel) {
  const auto envs = panel_environments(panel);
  if (panel.heatmap || envs.size() < 2) return {panel};
  double lowest = INFINITY, highest = 0;
  for (const auto& env : envs) {
    std::vector<const Series*> of_env;
    for (const auto& s : panel.series)
      if (s.env == env) of_env.push_back(&s);
    bool all_positive = true;
    const auto values = rule_positive_values(of_env, all_positive);
    if (values.empty()) continue;
    const double m = rule_median(values);
    lowest = std::min(lowest, m);
    highest = std::max(highest, m);
  }
  if (!(highest >= lowest * FigureRules::kPanelSpan)) return {panel};
  std::vector<Panel> out;
  for (const auto& env : envs) {
    Panel one = panel;
    one.title = (panel.title.empty() ? std::string() : panel.title + ": ") + env;
    std::erase_if(one.series, [&](const Series& s) { return s.env != env; });
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace

std::string FigureRules::colour(int index) {
  static const char* palette[kColours] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
                                          "#56b4e9", "#000000", "#8c564b", "#7f7f7f"};
  const int i = ((std::max(index, 1) - 1) % kColours + kColours) % kColours;
  return palette[i];
}

int FigureRules::marker(int index, bool filled) {
  // gnuplot's filled circle, square, triangle up and down, diamond, pentagon; each hollow twin
  // is the point type before it.
  static const int filled_types[kMarkers] = {7, 5, 9, 11, 13, 15};
  const int type = filled_types[((index % kMarkers) + kMarkers) % kMarkers];
  return filled ? type : type - 1;
}

void FigureRules::apply(Figure& figure) {
  std::vector<Panel> panels;
  for (const auto& panel : figure.panels) {
    for (auto& p : split_by_environment(panel)) panels.push_back(std::move(p));
  }
  figure.panels = std::move(panels);
  // Rule 7: environments and kinds in the order they first appear in the figure.
  std::vector<std::string> envs, kinds;
  for (const auto& panel : figure.panels) {
    for (const auto& e : panel_environments(panel))
      if (std::find(envs.begin(), envs.end(), e) == envs.end()) envs.push_back(e);
  }
  for (auto& panel : figure.panels) {
    if (panel.heatmap) continue;
    const bool several = panel_environments(panel).size() > 1 || envs.size() > 1;
    std::map<std::string, int> place_in_env;
    for (auto& s : panel.series) {
      const int place = place_in_env[s.env]++;
      const std::string kind = s.kind.empty() ? "#" + std::to_string(place) : s.kind;
      auto at = std::find(kinds.begin(), kinds.end(), kind);
      if (at == kinds.end()) at = kinds.insert(kinds.end(), kind);
      s.marker = static_cast<int>(at - kinds.begin());
      if (several) {
        s.color = 1 + static_cast<int>(std::find(envs.begin(), envs.end(), s.env) - envs.begin());
      }
    }
    // Rule 2: a linear axis over two decades or more of positive values is logarithmic.
    std::vector<const Series*> all;
    for (const auto& s : panel.series) all.push_back(&s);
    bool all_positive = true;
    const auto values = rule_positive_values(all, all_positive);
    if (!panel.log_y && all_positive && !values.empty()) {
      const auto [low, high] = std::minmax_element(values.begin(), values.end());
      if (*high >= *low * kLogSpan) {
        panel.log_y = true;
        panel.y_from_zero = false;
      }
    }
    // Rule 5: a tic at each whole number the x values take (at most about 20 of them).
    if (panel.integer_x && panel.x_tics.empty()) {
      std::set<long long> xs;
      for (const auto& s : panel.series)
        for (const auto& [x, y] : s.points)
          if (std::isfinite(x)) xs.insert(std::llround(x));
      const std::size_t every = std::max<std::size_t>(1, (xs.size() + 19) / 20);
      std::size_t i = 0;
      for (long long x : xs)
        if (i++ % every == 0) panel.x_tics.emplace_back(static_cast<double>(x), std::to_string(x));
    }
  }
}

}  // namespace pbench::report
