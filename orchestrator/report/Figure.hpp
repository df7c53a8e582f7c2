#pragma once
// A figure of a report as data: panels side by side, each with axes and series of (x, y)
// points. A NaN y is a gap (the line breaks there); nothing is ever drawn as 0 for a missing
// value. GnuplotFigure draws it; the report's figure builders fill it from the store.
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pbench::report {

struct Series {
  std::string title;                              ///< key entry (free text, quoted when drawn)
  std::vector<std::pair<double, double>> points;  ///< (x, y) in drawing order; NaN y: a gap
  bool lines = true;                              ///< join the points (a gap breaks the line)
  bool marks = true;                              ///< mark each point
  /// The colour: 1, 2, ... the report's palette (FigureRules::colour); 0: the next one. In a
  /// panel of several environments the rules give each environment's series its colour.
  int color = 0;
  bool dashed = false;                            ///< a fit or model rather than a measurement
  /// The environment's label ("mpich (MPICH 4.0.2)"); "" in a sweep without environments.
  std::string env = {};
  /// What the series is of, across environments ("type 0 scatter", "q = 8"): one marker per
  /// kind (FigureRules); "" for the series' place among those of its environment.
  std::string kind = {};
  /// The marker: 0, 1, ... the report's filled markers (FigureRules::marker), set by the rules.
  int marker = 0;
  /// Per point: false for a point from a result that is not valid (drawn with a hollow marker);
  /// empty or shorter than `points`: the other points are valid.
  std::vector<bool> valid = {};
  /// True when point `i` comes from a valid result.
  bool point_valid(std::size_t i) const { return i >= valid.size() || valid[i]; }
  /// True when at least one point has a finite x and y.
  bool has_data() const {
    for (const auto& [x, y] : points)
      if (std::isfinite(x) && std::isfinite(y)) return true;
    return false;
  }
};

/// A matrix drawn as coloured cells with their values written in (the link matrix): row r,
/// column c holds values[r][c]; a NaN cell (a node with itself) is left empty.
struct Heatmap {
  std::vector<std::string> rows;     ///< labels, top to bottom
  std::vector<std::string> columns;  ///< labels, left to right
  std::vector<std::vector<double>> values;
  std::string value_label;  ///< the colour bar's label, with its unit
  int decimals = 0;         ///< of the values written in the cells
  /// True when any cell has a finite value.
  bool has_data() const {
    for (const auto& row : values)
      for (double v : row)
        if (std::isfinite(v)) return true;
    return false;
  }
};

struct Panel {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  bool log_y = false;
  std::vector<std::pair<double, std::string>> x_tics;  ///< explicit tics; empty: automatic
  std::vector<Series> series;
  /// The y axis is a bandwidth: linear from 0 unless the report is asked for logarithmic
  /// bandwidth axes (then log_y); the report decides, the figure builders only mark it.
  bool bandwidth_axis = false;
  /// A linear y axis starts at 0 (the top is automatic).
  bool y_from_zero = false;
  /// The x values are whole numbers (runs): a tic at each, never between.
  bool integer_x = false;
  /// A heatmap instead of series (x_label and y_label name its columns and rows).
  std::optional<Heatmap> heatmap = {};
  /// True when any series has a drawable point (or the heatmap a value).
  bool has_data() const {
    if (heatmap) return heatmap->has_data();
    for (const auto& s : series)
      if (s.has_data()) return true;
    return false;
  }
};

struct Figure {
  std::string name;  ///< file stem in the report directory ([a-z0-9-] only)
  /// The page's heading over the figure (not drawn in the SVG, whose panels are titled only
  /// when there are several).
  std::string title;
  std::string caption;  ///< a sentence under the figure: what it shows and from which results
  std::vector<Panel> panels;
  /// True when any panel has a drawable point.
  bool has_data() const {
    for (const auto& p : panels)
      if (p.has_data()) return true;
    return false;
  }
};

/// The figure of a sweep with nothing to draw in it: `caption` says why, and its panels (one per
/// title in `panel_titles`) are empty, so the report says "no data" in their place.
inline Figure no_data_figure(std::string name, std::string title, std::string caption,
                             const std::vector<std::string>& panel_titles) {
  Figure figure;
  figure.name = std::move(name);
  figure.title = std::move(title);
  figure.caption = std::move(caption);
  for (const auto& panel_title : panel_titles) {
    Panel panel;
    panel.title = panel_title;
    figure.panels.push_back(std::move(panel));
  }
  return figure;
}

}  // namespace pbench::report
