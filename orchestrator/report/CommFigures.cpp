// The comm worker's figures: b_eff's bandwidth against the message size per pattern, and the
// paper's scaling figure (b_eff and b_eff per process against the number of processes).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "report/TableView.hpp"
#include "report/WorkerFigures.hpp"
#include "util/NumberText.hpp"
#include "util/SplitText.hpp"

namespace pbench::report {
namespace {

/// "2,2,3" as numbers; empty when any entry is not a positive integer.
std::vector<int> parse_ring_sizes(const std::string& text) {
  std::vector<int> sizes;
  for (const auto item : split_text(text, ',')) {
    if (item.empty() || item.size() > 9 ||
        item.find_first_not_of("0123456789") != std::string_view::npos)
      return {};
    const int v = std::stoi(std::string(item));
    if (v < 1) return {};
    sizes.push_back(v);
  }
  return sizes;
}

}  // namespace

std::string ring_label(const std::string& ring_sizes) {
  const auto sizes = parse_ring_sizes(ring_sizes);
  if (sizes.empty()) return "";
  if (sizes.size() == 1) return "one ring of " + std::to_string(sizes[0]);
  long total = 0;
  for (int s : sizes) total += s;
  const long first = sizes.front(), count = static_cast<long>(sizes.size());
  const long rest = total - count * first;
  std::string text = "rings of " + std::to_string(first) + " (" + std::to_string(count) + "\u00d7" +
                     std::to_string(first);
  if (rest > 0) text += "+" + std::to_string(rest);
  if (rest < 0) text += "\u2212" + std::to_string(-rest);
  return text + ")";
}

namespace {

// Adds result `r`'s curves to `panel`: a curve per ring layout (the best of the ring patterns
// that split the processes the same way, named with their numbers) and the logarithmic mean of
// the random patterns. `kind`, `label` and `number` describe the patterns of its b_eff average,
// `best` their best bandwidth per message size.
void add_comm_series(Panel& panel, const StoredResult& r, const EnvironmentLabels& envs,
                     std::map<std::string, std::string>& kind,
                     std::map<std::string, std::string>& label, std::map<std::string, int>& number,
                     const std::map<std::string, std::map<double, double>>& best) {
  // Ring curves by legend label, in pattern order: (patterns' numbers, l -> best).
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::vector<int>, std::map<double, double>>> rings;
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
    auto [it, inserted] = rings.try_emplace(label[pattern]);
    if (inserted) order.push_back(label[pattern]);
    it->second.first.push_back(number[pattern]);
    for (const auto& [l, b] : by_size) {
      auto [point, first] = it->second.second.try_emplace(l, b);
      if (!first) point->second = std::max(point->second, b);
    }
  }
  std::sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return rings[a].first < rings[b].first;
  });
  for (const auto& name : order) {
    auto& [numbers, by_size] = rings[name];
    std::sort(numbers.begin(), numbers.end());
    Series s;
    s.title = name;
    if (numbers.size() > 1) {
      s.title += ", patterns ";
      for (std::size_t i = 0; i < numbers.size(); ++i)
        s.title += (i ? "," : "") + std::to_string(numbers[i]);
    }
    s.kind = s.title;
    s.title = envs.with(s.title, r.env);
    s.env = envs.label(r.env);
    for (const auto& [l, b] : by_size) s.points.emplace_back(l, b / 1e6);
    s.valid.assign(s.points.size(), r.valid);
    panel.series.push_back(std::move(s));
  }
  if (!random.empty()) {
    Series s;
    s.title =
        envs.with("random (log mean of " + std::to_string(random_patterns) + " patterns)", r.env);
    s.color = 8 + envs.index(r.env);
    s.env = envs.label(r.env);
    s.kind = "random";
    for (const auto& [l, sum] : random)
      s.points.emplace_back(l, std::exp(sum.first / sum.second) / 1e6);
    s.valid.assign(s.points.size(), r.valid);
    panel.series.push_back(std::move(s));
  }
}

}  // namespace

std::vector<Figure> comm_figures(const std::vector<StoredResult>& comm_results,
                                 const EnvironmentLabels& envs) {
  // A figure per partition, with the curves of each of its results (one per environment).
  std::map<std::int64_t, Figure> by_partition;
  std::map<std::int64_t, std::vector<const StoredResult*>> drawn;  // partition -> its results
  for (const auto& r : comm_results) {
    // The patterns of the b_eff average, by kind, and the legend label of each ring pattern:
    // its layout ("rings of 2 (3×2+1)"), or its name when the layout is not readable.
    std::map<std::string, std::string> kind;   // pattern -> ring | random
    std::map<std::string, std::string> label;  // ring pattern -> legend label
    std::map<std::string, int> number;         // ring pattern -> its position among the rings
    for (const auto& row : measurement_rows(r.document, "patterns")) {
      const auto in = row.value("in_b_eff", nlohmann::json(false));
      const auto k = json_text(row, "kind");
      if (in != true || (k != "ring" && k != "random")) continue;
      const auto pattern = json_text(row, "pattern");
      kind[pattern] = k;
      if (k != "ring") continue;
      const auto layout = ring_label(json_text(row, "ring_sizes"));
      label[pattern] = layout.empty() ? pattern : layout;
      number[pattern] = static_cast<int>(number.size()) + 1;
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
    auto [at, fresh] = by_partition.try_emplace(r.partition);
    Figure& figure = at->second;
    drawn[r.partition].push_back(&r);
    if (fresh) {
      figure.name = "comm-bandwidth-p" + std::to_string(r.partition);
      figure.title =
          "b_eff: bandwidth against message size, " + std::to_string(r.partition) + " processes";
      Panel panel;
      panel.title = std::to_string(r.partition) + " processes";
      panel.x_label = "message size [B]";
      panel.y_label = "bandwidth [MB/s]";
      panel.log_x = true;
      panel.bandwidth_axis = panel.y_from_zero = true;
      figure.panels.push_back(std::move(panel));
    }
    Panel& panel = figure.panels.front();
    add_comm_series(panel, r, envs, kind, label, number, best);
  }
  std::vector<Figure> figures;
  for (auto& [partition, figure] : by_partition) {
    // The results drawn: "point K." for one, "points K1 of mpich (MPICH 4.0.2), K2 of ..." for
    // several.
    const auto& results = drawn[partition];
    std::string points;
    bool all_valid = true;
    for (const auto* r : results) {
      points += (points.empty() ? "" : ", ") + r->point_key +
                (r->env.empty() ? std::string() : " of " + envs.label(r->env));
      all_valid = all_valid && r->valid;
    }
    figure.caption =
        "The bandwidth of all " + std::to_string(partition) +
        " processes (bytes of all messages over the slowest process's time) of each ring "
        "pattern and the logarithmic mean of the random patterns, the best of the three "
        "methods and the repetitions at each message size, point" +
        (results.size() == 1 ? " " : "s ") + points +
        (all_valid ? "." : " (not valid: hollow markers; the reasons are under the table).") +
        " Ring patterns that split the processes the same way are one curve (the best of "
        "them), named with the patterns' numbers 1 to 6.";
    figures.push_back(std::move(figure));
  }
  if (figures.empty()) {
    figures.push_back(no_data_figure(
        "comm-bandwidth", "b_eff: bandwidth against message size",
        "No comm result with ring or random pattern measurements in this sweep.", {"b_eff"}));
  }
  return figures;
}

Figure comm_scaling_figure(const query::QueryTable& comm_table, const EnvironmentLabels& envs) {
  const TableView t(comm_table);
  Figure figure;
  figure.name = "comm-scaling";
  figure.title = "b_eff and b_eff per process against the number of processes";
  figure.caption =
      "The paper's scaling figure: b_eff of each partition (left) and b_eff divided by the "
      "number of processes (right), from the comm table above. A flat right curve is a network "
      "whose bandwidth grows with the machine. A partition without a value is a gap.";
  Panel total, per;
  total.title = "b_eff";
  per.title = "b_eff per process";
  total.x_label = per.x_label = "processes";
  total.y_label = "b_eff [MB/s]";
  per.y_label = "b_eff per process [MB/s]";
  // env -> partition -> (b_eff, b_eff per process, valid); of two rows, a valid one first.
  std::map<std::string, std::map<double, std::tuple<double, double, bool>>> curves;
  std::set<double> partitions;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double partition = t.number(r, "partition");
    if (!(partition > 0) || t.text(r, "row") == "max") continue;
    partitions.insert(partition);
    const std::tuple<double, double, bool> value{t.number(r, "b_eff"),
                                                 t.number(r, "b_eff_per_process"), t.valid(r)};
    auto [it, inserted] = curves[t.text(r, "env")].try_emplace(partition, value);
    if (!inserted && std::isfinite(std::get<0>(value)) &&
        (!std::isfinite(std::get<0>(it->second)) ||
         std::pair{std::get<2>(value), std::get<0>(value)} >
             std::pair{std::get<2>(it->second), std::get<0>(it->second)}))
      it->second = value;
  }
  for (const auto& [env, rows] : curves) {
    Series s_total, s_per;
    s_total.title = envs.with("b_eff", env);
    s_per.title = envs.with("b_eff per process", env);
    s_total.color = s_per.color = 1 + envs.index(env);
    s_total.env = s_per.env = envs.label(env);
    s_total.kind = "b_eff";
    s_per.kind = "b_eff per process";
    for (const auto& [partition, value] : rows) {
      const auto& [b, b_per, valid] = value;
      s_total.points.emplace_back(partition, b / 1e6);
      s_per.points.emplace_back(partition, b_per / 1e6);
      s_total.valid.push_back(valid);
      s_per.valid.push_back(valid);
    }
    total.series.push_back(std::move(s_total));
    per.series.push_back(std::move(s_per));
  }
  for (double partition : partitions)
    total.x_tics.emplace_back(partition, plain_significant(partition, 6));
  per.x_tics = total.x_tics;
  for (Panel* p : {&total, &per}) {
    p->log_x = partitions.size() > 1 && *partitions.rbegin() / *partitions.begin() >= 8;
    p->bandwidth_axis = p->y_from_zero = true;
  }
  figure.panels.push_back(std::move(total));
  figure.panels.push_back(std::move(per));
  return figure;
}

}  // namespace pbench::report
