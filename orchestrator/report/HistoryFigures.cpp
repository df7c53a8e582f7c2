#include "report/HistoryFigures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "common/MetricCatalogue.hpp"
#include "query/QueryTable.hpp"

namespace pbench::report {
namespace {

std::size_t column(const query::QueryTable& table, const std::string& key) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return i;
  }
  return table.columns.size();
}

std::string text(const query::Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

double number(const query::Cell& cell) {
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return static_cast<double>(*i);
  return std::numeric_limits<double>::quiet_NaN();
}

std::string stem(const std::string& name, bool by_cluster) {
  std::string out = by_cluster ? "clusters-" : "history-";
  for (char c : name) out += (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-';
  return out;
}

}  // namespace

std::vector<Figure> history_figures(const query::QueryTable& history, const EnvironmentLabels& envs,
                                    bool by_cluster) {
  const auto env = column(history, by_cluster ? "cluster" : "env");
  const auto run = column(history, "run"), figure = column(history, "figure"),
             partition = column(history, "partition"), value = column(history, "value"),
             unit = column(history, "unit"), valid = column(history, "valid");
  if (value >= history.columns.size() || valid >= history.columns.size()) return {};
  // Per-partition figures (logp, bcast) keep a partition; the sweep-wide maxima
  // (b_eff_io, b_eff) move between partitions and are one line.
  std::map<std::tuple<std::string, double>, Figure> by_figure;
  // figure -> its base unit and largest value, for the unit the tables show it in.
  std::map<std::tuple<std::string, double>, std::pair<std::string, double>> units;
  // figure -> environment -> its series' index in the panel.
  std::map<std::tuple<std::string, double>, std::map<std::string, std::size_t>> series_of;
  for (const auto& row : history.rows) {
    const std::string name = text(row[figure]);
    const auto* spec = metrics::find_figure(name);
    const bool per_partition = spec != nullptr && spec->headline != metrics::Headline::maximum;
    double procs = per_partition ? number(row[partition]) : 0;
    if (std::isnan(procs)) procs = 0;  // a figure without a result in that run
    auto& f = by_figure[{name, procs}];
    if (f.panels.empty()) {
      const std::string title =
          name + (per_partition
                      ? " at " + std::to_string(static_cast<long long>(procs)) + " processes"
                      : std::string());
      f.name = stem(title, by_cluster);
      f.title = (by_cluster ? "By cluster: " : "History: ") + title;
      f.caption = "The headline figure " + title +
                  (by_cluster ? " in each run of the sweep on each cluster (pbench history "
                                "--by cluster), a series per cluster"
                              : " in each run of the sweep (pbench history)") +
                  ", in the unit the tables use; not valid results hollow.";
      Panel panel;
      panel.x_label = "run";
      panel.integer_x = true;
      f.panels.push_back(panel);
    }
    auto& [base, largest] = units[{name, procs}];
    base = text(row[unit]);
    const double y = number(row[value]);
    if (std::isfinite(y)) largest = std::max(largest, std::fabs(y));
    const std::string environment = env < history.columns.size() ? text(row[env]) : "";
    auto& series = f.panels[0].series;
    auto [at, fresh] = series_of[{name, procs}].try_emplace(environment, series.size());
    if (fresh) {
      Series s{envs.with(name, environment), {}, true, true, 1 + envs.index(environment)};
      s.env = envs.label(environment);
      series.push_back(std::move(s));
    }
    auto& s = series[at->second];
    s.points.emplace_back(number(row[run]), y);
    s.valid.push_back(text(row[valid]) == "yes");
  }
  std::vector<Figure> out;
  for (auto& [key, f] : by_figure) {
    // The values in the unit the tables show them in (MB/s, us, ns/B), never base units.
    const auto& [base, largest] = units[key];
    const auto [shown, scale] = query::display_unit(base, largest);
    f.panels[0].y_label = std::get<0>(key) + (shown.empty() ? "" : " [" + shown + "]");
    for (auto& s : f.panels[0].series) {
      // In run order, each run once.
      std::vector<std::size_t> order(s.points.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return s.points[a].first < s.points[b].first;
      });
      Series sorted = s;
      for (std::size_t i = 0; i < order.size(); ++i) {
        sorted.points[i] = {s.points[order[i]].first, s.points[order[i]].second * scale};
        sorted.valid[i] = s.valid[order[i]];
      }
      s = std::move(sorted);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace pbench::report
