#include "report/HistoryFigures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "common/MetricCatalogue.hpp"

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

std::string stem(const std::string& name) {
  std::string out = "history-";
  for (char c : name) out += (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-';
  return out;
}

}  // namespace

std::vector<Figure> history_figures(const query::QueryTable& history,
                                    const EnvironmentLabels& envs) {
  const auto env = column(history, "env");
  const auto run = column(history, "run"), figure = column(history, "figure"),
             partition = column(history, "partition"), value = column(history, "value"),
             unit = column(history, "unit"), valid = column(history, "valid");
  if (value >= history.columns.size() || valid >= history.columns.size()) return {};
  // Per-partition figures (logp, bcast) keep a partition; the sweep-wide maxima
  // (b_eff_io, b_eff) move between partitions and are one line.
  std::map<std::tuple<std::string, double>, Figure> by_figure;
  // figure -> environment -> its (valid, not valid) series' index in the panel.
  std::map<std::tuple<std::string, double>, std::map<std::string, std::size_t>> first_series;
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
      f.name = stem(title);
      f.title = "History: " + title;
      f.caption = "The headline figure " + title +
                  " in each run of the sweep (pbench history); not valid results apart.";
      Panel panel;
      panel.x_label = "run";
      panel.y_label = name + " [" + text(row[unit]) + "]";
      f.panels.push_back(panel);
    }
    const std::string environment = env < history.columns.size() ? text(row[env]) : "";
    auto& series = f.panels[0].series;
    auto [at, fresh] = first_series[{name, procs}].try_emplace(environment, series.size());
    if (fresh) {
      const int color = 1 + 2 * envs.index(environment);
      series.push_back(Series{envs.with("valid", environment), {}, true, true, color});
      series.push_back(Series{envs.with("not valid", environment), {}, false, true, color + 1});
    }
    const double x = number(row[run]);
    const double y = number(row[value]);
    const bool ok = text(row[valid]) == "yes";
    series[at->second + (ok ? 0 : 1)].points.emplace_back(x, y);
  }
  std::vector<Figure> out;
  for (auto& [key, f] : by_figure) {
    auto& series = f.panels[0].series;
    // A "not valid" series without a point is left out (the key would name it for nothing).
    series.erase(std::remove_if(series.begin(), series.end(),
                                [](const Series& s) { return !s.lines && !s.has_data(); }),
                 series.end());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace pbench::report
