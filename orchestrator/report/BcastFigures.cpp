// The bcast worker's figures: OL and the classic methods against process count and size.
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "report/TableView.hpp"
#include "report/WorkerFigures.hpp"
#include "util/NumberText.hpp"

namespace pbench::report {
namespace {

struct Method {
  const char* key;
  const char* title;
};
const Method kMethods[] = {{"ol", "OL (OL_i method)"},
                           {"send_latency", "send latency"},
                           {"rounds_latency", "broadcast rounds"},
                           {"barrier_latency", "broadcast-barrier"},
                           {"ack_latency", "broadcast-acknowledge"}};

}  // namespace

std::vector<Figure> bcast_figures(const query::QueryTable& bcast_table,
                                  const EnvironmentLabels& envs) {
  const TableView t(bcast_table);
  // (impl, hop delay) -> rows
  std::map<std::pair<std::string, double>, std::vector<std::size_t>> groups;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double d = t.number(r, "hop_delay");
    groups[{t.text(r, "impl"), std::isfinite(d) ? d : 0.0}].push_back(r);
  }
  std::vector<Figure> figures;
  for (const auto& [key, rows] : groups) {
    const auto& [impl, delay] = key;
    double smallest = INFINITY, largest = -INFINITY;
    for (auto r : rows) {
      if (t.number(r, "size") < smallest) smallest = t.number(r, "size");
      if (t.number(r, "partition") > largest) largest = t.number(r, "partition");
    }
    // Numbers by the display rule (us, at most 4 significant digits, no e-notation).
    Figure figure;
    figure.name = "bcast-" + file_stem(impl) + (delay > 0 ? "-delay" : "");
    figure.title = "Broadcast latency: " + impl +
                   (delay > 0 ? ", d = " + plain_significant(delay * 1e6, 4) + " us" : "");
    const std::string at_size = plain_significant(smallest, 6) + " B";
    const std::string at_partition = plain_significant(largest, 6) + " processes";
    figure.caption =
        "OL (the largest OL_i = E_i - RTL_i/2) beside the classic methods measured on the same "
        "runs: against the process count at " +
        at_size + ", and against the message size at " + at_partition +
        ". Send latency and broadcast rounds are lower bounds of OL, broadcast-barrier and "
        "broadcast-acknowledge upper bounds. A missing value is a gap.";
    Panel by_procs;
    by_procs.title = "at " + at_size;
    by_procs.x_label = "processes";
    by_procs.y_label = "latency [us]";
    by_procs.log_x = by_procs.log_y = true;
    Panel by_size;
    by_size.title = "at " + at_partition;
    by_size.x_label = "message size [B]";
    by_size.y_label = "latency [us]";
    by_size.log_x = by_size.log_y = true;
    // A curve of each method in each environment.
    std::set<std::string> environments;
    for (auto r : rows) environments.insert(t.text(r, "env"));
    for (const auto& env : environments) {
      for (const auto& m : kMethods) {
        std::map<double, std::pair<double, bool>> procs, sizes;  // x -> (value, valid)
        for (auto r : rows) {
          if (t.text(r, "env") != env) continue;
          const std::pair<double, bool> value{t.number(r, m.key) * 1e6, t.valid(r)};
          if (t.number(r, "size") == smallest) procs[t.number(r, "partition")] = value;
          if (t.number(r, "partition") == largest) sizes[t.number(r, "size")] = value;
        }
        for (auto [points, panel] : {std::pair{&procs, &by_procs}, std::pair{&sizes, &by_size}}) {
          Series s;
          s.title = envs.with(m.title, env);
          s.env = envs.label(env);
          s.kind = m.title;
          for (const auto& [x, value] : *points) {
            s.points.emplace_back(x, value.first);
            s.valid.push_back(value.second);
          }
          panel->series.push_back(std::move(s));
        }
      }
    }
    figure.panels.push_back(std::move(by_procs));
    figure.panels.push_back(std::move(by_size));
    figures.push_back(std::move(figure));
  }
  if (figures.empty()) {
    figures.push_back(no_data_figure("bcast", "Broadcast latency",
                                     "No bcast measurement in this sweep (a partition of 1 "
                                     "process has no task to broadcast to).",
                                     {"against processes", "against message size"}));
  }
  return figures;
}

}  // namespace pbench::report
