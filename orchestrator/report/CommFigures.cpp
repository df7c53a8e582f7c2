// The comm worker's figure: b_eff's bandwidth against the message size per pattern.
#include <cmath>
#include <map>
#include <set>

#include "report/WorkerFigures.hpp"

namespace pbench::report {

std::vector<Figure> comm_figures(const std::vector<StoredResult>& comm_results) {
  std::vector<Figure> figures;
  for (const auto& r : comm_results) {
    // The patterns of the b_eff average, by kind.
    std::map<std::string, std::string> kind;  // pattern -> ring | random
    for (const auto& row : measurement_rows(r.document, "patterns")) {
      const auto in = row.value("in_b_eff", nlohmann::json(false));
      const auto k = json_text(row, "kind");
      if (in == true && (k == "ring" || k == "random")) kind[json_text(row, "pattern")] = k;
    }
    // pattern -> l -> the best bandwidth over methods and repetitions.
    std::map<std::string, std::map<double, double>> best;
    for (const auto& row : measurement_rows(r.document, "measurements")) {
      const auto pattern = json_text(row, "pattern");
      const double l = json_number(row, "l"), bandwidth = json_number(row, "bandwidth");
      if (!kind.count(pattern) || !(l > 0) || !(bandwidth > 0)) continue;
      auto [it, inserted] = best[pattern].try_emplace(l, bandwidth);
      if (!inserted) it->second = std::max(it->second, bandwidth);
    }
    if (best.empty()) continue;
    Figure figure;
    figure.name = "comm-bandwidth-p" + std::to_string(r.partition);
    figure.title =
        "b_eff: bandwidth against message size, " + std::to_string(r.partition) + " processes";
    figure.caption =
        "The bandwidth of all " + std::to_string(r.partition) +
        " processes (bytes of all messages over the slowest process's time) of each ring "
        "pattern and the logarithmic mean of the random patterns, the best of the three "
        "methods and the repetitions at each message size, point " +
        r.point_key + (r.valid ? "." : " (not valid: see the result's reasons).");
    Panel panel;
    panel.title = std::to_string(r.partition) + " processes";
    panel.x_label = "message size [B]";
    panel.y_label = "bandwidth [MB/s]";
    panel.log_x = panel.log_y = true;
    std::map<double, std::pair<double, int>> random;  // l -> (sum of logs, count)
    int random_patterns = 0;
    for (const auto& [pattern, by_size] : best) {
      if (kind[pattern] == "random") {
        ++random_patterns;
        for (const auto& [l, b] : by_size) {
          random[l].first += std::log(b);
          random[l].second += 1;
        }
        continue;
      }
      Series s;
      s.title = pattern;
      for (const auto& [l, b] : by_size) s.points.emplace_back(l, b / 1e6);
      panel.series.push_back(std::move(s));
    }
    if (!random.empty()) {
      Series s;
      s.title = "random (log mean of " + std::to_string(random_patterns) + " patterns)";
      s.color = 8;
      for (const auto& [l, sum] : random)
        s.points.emplace_back(l, std::exp(sum.first / sum.second) / 1e6);
      panel.series.push_back(std::move(s));
    }
    figure.panels.push_back(std::move(panel));
    figures.push_back(std::move(figure));
  }
  if (figures.empty()) {
    Figure figure;
    figure.name = "comm-bandwidth";
    figure.title = "b_eff: bandwidth against message size";
    figure.caption = "No comm result with ring or random pattern measurements in this sweep.";
    figure.panels.push_back({"b_eff"});
    figures.push_back(std::move(figure));
  }
  return figures;
}

}  // namespace pbench::report
