// The io worker's figures: b_eff_io by partition (Fig. 2/4), bandwidth by chunk size (Fig. 3)
// and the consortium suite's transfer rate by transfer size.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "report/TableView.hpp"
#include "report/WorkerFigures.hpp"
#include "util/NumberText.hpp"

namespace pbench::report {
namespace {

bool is_power_of_two(double v) {
  if (!(v >= 1) || v != std::floor(v) || v > 9.0e15) return false;
  const auto n = static_cast<std::uint64_t>(v);
  return (n & (n - 1)) == 0;
}

std::string seconds(double s) {
  return plain_significant(s, 6) + " s";
}

const char* kTypeNames[] = {"type 0 scatter", "type 1 shared", "type 2 separate",
                            "type 3 segmented", "type 4 seg-coll"};

}  // namespace

std::string size_label(double bytes) {
  auto power = [](double v) -> std::string {
    char text[40];
    if (v >= 1048576 && std::fmod(v, 1048576) == 0) {
      std::snprintf(text, sizeof(text), "%gM", v / 1048576);
    } else if (v >= 1024 && std::fmod(v, 1024) == 0) {
      std::snprintf(text, sizeof(text), "%gk", v / 1024);
    } else {
      std::snprintf(text, sizeof(text), "%g", v);
    }
    return text;
  };
  if (!is_power_of_two(bytes) && bytes > 8 && is_power_of_two(bytes - 8) && bytes - 8 >= 1024)
    return power(bytes - 8) + "+8";
  return power(bytes);
}

double chunk_position(double bytes) {
  if (!(bytes > 0)) return NAN;
  if (!is_power_of_two(bytes) && bytes > 8 && is_power_of_two(bytes - 8) && bytes - 8 >= 1024)
    return std::log2(bytes - 8) + 0.4;
  return std::log2(bytes);
}

std::string file_stem(const std::string& text) {
  std::string out;
  for (char c : text) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    out += ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) ? lower : '-';
  }
  return out;
}

Figure io_partition_figure(const query::QueryTable& io_table, const EnvironmentLabels& envs) {
  const TableView t(io_table);
  Figure figure;
  figure.name = "io-partitions";
  figure.title = "b_eff_io against the partition size";
  figure.caption =
      "b_eff_io of each partition as b_eff_io rev 2.1 computes it (sqrt(WR * R)), one curve per "
      "scheduled time T and hint set (and environment), as the paper's Fig. 2 and 4; the "
      "system's b_eff_io is "
      "the highest point. Beside each, dashed and labelled 'paper', the paper's arithmetic "
      "b_eff_io (0.25 write + 0.25 rewrite + 0.5 read). A partition without a value is a gap.";
  Panel panel;
  panel.title = "b_eff_io";
  panel.x_label = "processes";
  panel.y_label = "b_eff_io [MB/s]";
  panel.log_x = true;
  panel.bandwidth_axis = panel.y_from_zero = true;
  // (T, hints) -> partition -> (b_eff_io, valid), NaN when the row has none; the same for the
  // paper's. Of two rows of one partition, a valid value comes before a larger one that is not.
  using Curves = std::map<std::tuple<double, std::string, std::string>,
                          std::map<double, std::pair<double, bool>>>;
  Curves curves, paper_curves;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double partition = t.number(r, "partition");
    if (!std::isfinite(partition) || t.text(r, "row") == "max") continue;
    const std::tuple<double, std::string, std::string> key{t.number(r, "schedule_time"),
                                                           t.text(r, "hints"), t.text(r, "env")};
    for (auto [curves_of, column] : {std::pair<Curves*, const char*>{&curves, "b_eff_io"},
                                     {&paper_curves, "b_eff_io_paper"}}) {
      const std::pair<double, bool> value{t.number(r, column), t.valid(r)};
      auto& curve = (*curves_of)[key];
      auto [at, inserted] = curve.try_emplace(partition, value);
      if (inserted || !std::isfinite(value.first)) continue;
      if (!std::isfinite(at->second.first) ||
          std::pair{value.second, value.first} > std::pair{at->second.second, at->second.first})
        at->second = value;
    }
  }
  for (auto [curves_of, suffix] :
       {std::pair<Curves*, std::string>{&curves, ""}, {&paper_curves, " (paper)"}}) {
    for (const auto& [key, points] : *curves_of) {
      const auto& [time, hints, env] = key;
      Series s;
      s.title = envs.with("T = " + (std::isfinite(time) ? seconds(time) : std::string("?")) +
                              ", hints " + hints,
                          env) +
                suffix;
      s.dashed = !suffix.empty();
      s.env = envs.label(env);
      s.kind = "T = " + (std::isfinite(time) ? seconds(time) : std::string("?")) + ", hints " +
               hints + suffix;
      bool any = false;
      for (const auto& [partition, value] : points) {
        s.points.emplace_back(partition, value.first / 1e6);
        s.valid.push_back(value.second);
        any = any || std::isfinite(value.first);
      }
      if (any || suffix.empty()) panel.series.push_back(std::move(s));
    }
  }
  figure.panels.push_back(std::move(panel));
  return figure;
}

std::vector<Figure> io_pattern_figures(const std::vector<StoredResult>& io_results,
                                       const EnvironmentLabels& envs) {
  // The partition with the largest b_eff_io of each (T, hints) and environment: (value, result
  // index, partition).
  using Best = std::tuple<double, std::size_t, double>;
  std::map<std::pair<double, std::string>, std::map<std::string, Best>> best;
  for (std::size_t i = 0; i < io_results.size(); ++i) {
    const auto& r = io_results[i];
    if (is_consortium(r)) continue;
    std::string hints = json_text(r.params, "hints");
    if (hints.empty()) hints = "-";
    for (const auto& row : measurement_rows(r.document, "partitions")) {
      // A result stored before pbench-io followed rev 2.1 keeps rev 2.1's value as
      // b_eff_io_rev2 (its b_eff_io is the paper's).
      const double value =
          json_number(row, row.contains("b_eff_io_rev2") ? "b_eff_io_rev2" : "b_eff_io");
      if (!std::isfinite(value)) continue;
      auto& of_env = best[{json_number(row, "schedule_time"), hints}];
      auto it = of_env.find(r.env);
      if (it == of_env.end() || value > std::get<0>(it->second))
        of_env[r.env] = {value, i, json_number(row, "partition")};
    }
  }
  const auto processes = [](double partition) {
    return plain_significant(partition, 6) + (partition == 1 ? " process" : " processes");
  };
  std::vector<Figure> figures;
  for (const auto& [key, winners] : best) {
    Figure figure;
    figure.name = "io-patterns-" + std::to_string(figures.size() + 1);
    const bool one = winners.size() == 1 && winners.begin()->first.empty();
    std::string at;  // which partition of which environment, with its b_eff_io and point
    for (const auto& [env, winner] : winners) {
      const auto& [value, index, partition] = winner;
      at += (at.empty() ? "" : "; ") +
            (one ? std::string() : envs.label(env) + ": " + processes(partition) + ", ") +
            plain_significant(value / 1e6, 4) + " MB/s, point " + io_results[index].point_key;
    }
    figure.title = "Bandwidth by pattern type and chunk size: " +
                   (one ? processes(std::get<2>(winners.begin()->second)) + ", " : std::string()) +
                   "T = " + seconds(key.first) + ", hints " + key.second;
    figure.caption =
        "Each access method's bandwidth per pattern type against the contiguous chunk size on "
        "disk l, as the paper's Fig. 3 (l+8 is the non-wellformed neighbour of l), at the "
        "partition with the largest b_eff_io (" +
        at + ") of T = " + seconds(key.first) + " and hints " + key.second +
        ". A type's value at a size is its bytes over its time at that size; a type that did "
        "not run an access (rewrite runs type 0 unless --rewrite-all) has no curve.";
    std::set<double> sizes;
    for (const char* access : {"write", "rewrite", "read"}) {
      Panel panel;
      panel.title = access;
      panel.x_label = "chunk size l on disk [B]";
      panel.y_label = "bandwidth [MB/s]";
      panel.bandwidth_axis = panel.y_from_zero = true;
      for (const auto& [env, winner] : winners) {
        const auto& [value, index, partition] = winner;
        const auto& result = io_results[index];
        // type -> l -> (bytes, seconds)
        std::map<int, std::map<double, std::pair<double, double>>> sums;
        for (const auto& row : measurement_rows(result.document, "patterns")) {
          if (json_number(row, "partition") != partition || json_text(row, "access") != access)
            continue;
          const double type = json_number(row, "type"), l = json_number(row, "disk_chunk");
          const double bytes = json_number(row, "bytes"), time = json_number(row, "time");
          if (!std::isfinite(type) || !(l > 0) || !(bytes > 0) || !(time > 0)) continue;
          auto& sum = sums[static_cast<int>(type)][l];
          sum.first += bytes;
          sum.second += time;
        }
        for (const auto& [type, by_size] : sums) {
          Series s;
          const std::string name =
              type >= 0 && type < 5 ? kTypeNames[type] : "type " + std::to_string(type);
          s.title = one ? name : envs.with(name, env) + ", " + processes(partition);
          s.color = type + 1;
          s.env = envs.label(env);
          s.kind = name;
          std::vector<std::pair<double, double>> points;
          for (const auto& [l, sum] : by_size) {
            points.emplace_back(chunk_position(l), sum.first / sum.second / 1e6);
            sizes.insert(l);
          }
          std::sort(points.begin(), points.end());
          s.points = std::move(points);
          s.valid.assign(s.points.size(), result.valid);
          panel.series.push_back(std::move(s));
        }
      }
      figure.panels.push_back(std::move(panel));
    }
    std::vector<std::pair<double, std::string>> tics;
    for (double l : sizes) {
      if (is_power_of_two(l) || (l > 8 && is_power_of_two(l - 8)))
        tics.emplace_back(chunk_position(l), size_label(l));
    }
    for (auto& panel : figure.panels) panel.x_tics = tics;
    figures.push_back(std::move(figure));
  }
  if (figures.empty()) {
    figures.push_back(no_data_figure("io-patterns", "Bandwidth by pattern type and chunk size",
                                     "No b_eff_io result with pattern measurements in this sweep.",
                                     {"write", "rewrite", "read"}));
  }
  return figures;
}

Figure consortium_figure(const std::vector<StoredResult>& io_results,
                         const EnvironmentLabels& envs) {
  Figure figure;
  figure.name = "io-consortium";
  figure.title = "Consortium suite: transfer rate against transfer size";
  figure.caption =
      "The consortium suite's transfer rate (all bytes over the slowest process's open to close "
      "time, the maximum over iterations) of each test against the transfer size, a curve per "
      "access pattern and partition (with the API and collective or file-per-process mode "
      "when not the default).";
  const std::vector<std::string> tests = {"sustained_write", "cached_write", "sustained_read"};
  for (const auto& test : tests) {
    Panel panel;
    panel.title = test;
    panel.x_label = "transfer size [B]";
    panel.y_label = "transfer rate [MB/s]";
    panel.log_x = true;
    panel.bandwidth_axis = panel.y_from_zero = true;
    // label -> size -> (the largest rate, its result valid); a valid rate before a larger one
    // that is not.
    // (label, environment label) -> size -> ...
    std::map<std::pair<std::string, std::string>, std::map<double, std::pair<double, bool>>> curves;
    for (const auto& r : io_results) {
      if (!is_consortium(r)) continue;
      for (const auto& m : r.metrics) {
        if (m.name != test + "_transfer_rate" || !m.value) continue;
        const double size = json_number(m.labels, "transfer_size");
        if (!std::isfinite(size)) continue;
        std::string label = json_text(m.labels, "pattern");
        const auto api = json_text(m.labels, "api");
        if (!api.empty() && api != "mpiio") label += ", " + api;
        if (json_number(m.labels, "collective") == 1) label += ", collective";
        if (json_number(m.labels, "file_per_process") == 1) label += ", file per process";
        label = envs.with(label + ", " + std::to_string(r.partition) + " procs", r.env);
        const std::pair<double, bool> value{*m.value / 1e6, r.valid};
        auto [it, inserted] = curves[{label, envs.label(r.env)}].try_emplace(size, value);
        if (!inserted &&
            std::pair{value.second, value.first} > std::pair{it->second.second, it->second.first})
          it->second = value;
      }
    }
    for (const auto& [keyed, points] : curves) {
      const auto& [label, env] = keyed;
      Series s;
      s.title = label;
      s.env = env;
      s.kind = env.empty() ? label : label.substr(0, label.rfind(", " + env));
      for (const auto& [size, value] : points) {
        s.points.emplace_back(size, value.first);
        s.valid.push_back(value.second);
      }
      panel.series.push_back(std::move(s));
    }
    figure.panels.push_back(std::move(panel));
  }
  return figure;
}

}  // namespace pbench::report
