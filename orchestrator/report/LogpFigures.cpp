// The logp worker's figures: g against the queue depth, and time per message against the
// size with the G fit segments.
#include <cmath>
#include <cstdio>
#include <map>

#include "report/TableView.hpp"
#include "report/WorkerFigures.hpp"
#include "util/NumberText.hpp"

namespace pbench::report {

Figure logp_gap_figure(const query::QueryTable& logp_table, const EnvironmentLabels& envs) {
  const TableView t(logp_table);
  Figure figure;
  figure.name = "logp-gap";
  figure.title = "LogP: g against queue depth";
  figure.caption =
      "The gap g (time per 8-byte message in the flood test) at each queue depth q, a curve "
      "per partition (and environment); the system's g is the lowest point. A queue depth "
      "without a value is a gap.";
  Panel panel;
  panel.title = "g";
  panel.x_label = "queue depth q [messages]";
  panel.y_label = "g [us]";
  panel.log_x = true;
  // (environment, partition) -> q -> (g, valid)
  std::map<std::pair<std::string, double>, std::map<double, std::pair<double, bool>>> curves;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const double partition = t.number(r, "partition"), q = t.number(r, "queue_depth");
    if (!std::isfinite(partition) || !std::isfinite(q)) continue;
    curves[{t.text(r, "env"), partition}][q] = {t.number(r, "g") * 1e6, t.valid(r)};
  }
  for (const auto& [key, points] : curves) {
    Series s;
    s.title = envs.with(plain_significant(key.second, 6) + " processes", key.first);
    s.env = envs.label(key.first);
    s.kind = plain_significant(key.second, 6) + " processes";
    for (const auto& [q, value] : points) {
      s.points.emplace_back(q, value.first);
      s.valid.push_back(value.second);
    }
    panel.series.push_back(std::move(s));
  }
  figure.panels.push_back(std::move(panel));
  return figure;
}

std::vector<Figure> logp_size_figures(const std::vector<StoredResult>& logp_results,
                                      const EnvironmentLabels& envs) {
  // A curve of each environment and queue depth: (env, q).
  using Curve = std::pair<std::string, double>;
  // partition -> curve -> size -> time per message; partition -> curve -> fit rows.
  std::map<std::int64_t, std::map<Curve, std::map<double, double>>> curves;
  std::map<std::int64_t, std::map<Curve, std::vector<nlohmann::json>>> fits;
  std::map<std::int64_t, std::map<Curve, bool>> valid;  // partition -> curve -> its result valid
  for (const auto& r : logp_results) {
    for (const auto& row : measurement_rows(r.document, "flood_curve")) {
      const double q = json_number(row, "queue_depth"), size = json_number(row, "size");
      const double t = json_number(row, "time_per_message");
      if (!std::isfinite(q) || !(size > 0)) continue;
      curves[r.partition][{r.env, q}][size] = t;
      valid[r.partition][{r.env, q}] = r.valid;
    }
    for (const auto& row : measurement_rows(r.document, "gap_fit")) {
      const double q = json_number(row, "queue_depth");
      if (std::isfinite(q)) fits[r.partition][{r.env, q}].push_back(row);
    }
  }
  std::vector<Figure> figures;
  for (const auto& [partition, by_q] : curves) {
    Figure figure;
    figure.name = "logp-size-p" + std::to_string(partition);
    figure.title =
        "LogP: time per message against size, " + std::to_string(partition) + " processes";
    Panel panel;
    panel.title = std::to_string(partition) + " processes";
    panel.x_label = "message size [B]";
    panel.y_label = "time per message [us]";
    panel.log_x = panel.log_y = true;
    int color = 0;
    int switches = 0;
    for (const auto& [curve, points] : by_q) {
      ++color;
      const std::string name = envs.with("q = " + plain_significant(curve.second, 6), curve.first);
      Series measured;
      measured.title = name;
      measured.color = color;
      measured.env = envs.label(curve.first);
      measured.kind = "q = " + plain_significant(curve.second, 6);
      for (const auto& [size, t] : points) measured.points.emplace_back(size, t * 1e6);
      measured.valid.assign(measured.points.size(), valid[partition][curve]);
      panel.series.push_back(std::move(measured));
      const auto& segments = fits[partition][curve];
      if (segments.size() > 1) switches += static_cast<int>(segments.size()) - 1;
      for (const auto& segment : segments) {
        const double from = json_number(segment, "from_size"), to = json_number(segment, "to_size");
        const double slope = json_number(segment, "slope");
        const double intercept = json_number(segment, "intercept");
        if (!(from > 0) || !(to >= from) || !std::isfinite(slope) || !std::isfinite(intercept))
          continue;
        Series fit;
        fit.title = name + ": G fit " + size_label(from) + "-" + size_label(to) + " B";
        // The display rule: 1/G in MB/s, a slope in ns/B, never e-notation.
        fit.title += slope > 0
                         ? ", 1/G = " + plain_significant(1e-6 / slope, 4) + " MB/s"
                         : ", slope " + plain_significant(slope * 1e9, 3) + " ns/B (not positive)";
        fit.color = color;
        fit.env = envs.label(curve.first);
        fit.kind = "q = " + plain_significant(curve.second, 6);
        fit.dashed = true;
        fit.marks = false;
        // The fitted line sampled at the measured sizes of the segment (log axes bend it).
        fit.points.emplace_back(from, (intercept + slope * from) * 1e6);
        for (const auto& [size, t] : points) {
          if (size > from && size < to)
            fit.points.emplace_back(size, (intercept + slope * size) * 1e6);
        }
        if (to > from) fit.points.emplace_back(to, (intercept + slope * to) * 1e6);
        panel.series.push_back(std::move(fit));
      }
    }
    figure.caption =
        "The flood test's time per message against the message size at each queue depth "
        "(points), with G, the per-byte slope fitted over the bandwidth-bound sizes (dashed); " +
        (switches ? std::to_string(switches) +
                        " protocol switch(es) detected, each fitted as a segment of its own."
                  : std::string("no protocol switch detected.")) +
        " Values at or below 0 of a fit cannot be drawn on the log scale and are left out.";
    figure.panels.push_back(std::move(panel));
    figures.push_back(std::move(figure));
  }
  if (figures.empty()) {
    figures.push_back(no_data_figure("logp-size", "LogP: time per message against size",
                                     "No logp result with flood measurements in this sweep (a "
                                     "partition of 1 process has no pair).",
                                     {"time per message"}));
  }
  return figures;
}

}  // namespace pbench::report
