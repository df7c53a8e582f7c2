#include "report/GnuplotFigure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "report/FigureRules.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::report {
namespace {

constexpr int kFontSize = 16;       ///< px, the SVG's text (tics, labels, key)
constexpr int kValueFontSize = 14;  ///< px, the values written in a heatmap's cells

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}

/// A point that can be drawn on the panel's axes.
bool drawable(const Panel& panel, double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (panel.log_x && x <= 0) return false;
  if (panel.log_y && y <= 0) return false;
  return true;
}

bool series_drawable(const Panel& panel, const Series& series) {
  for (const auto& [x, y] : series.points)
    if (drawable(panel, x, y)) return true;
  return false;
}

bool panel_drawable(const Panel& panel) {
  for (const auto& s : panel.series)
    if (series_drawable(panel, s)) return true;
  return false;
}

bool any_not_valid(const Panel& panel, const Series& series) {
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const auto& [x, y] = series.points[i];
    if (!series.point_valid(i) && drawable(panel, x, y)) return true;
  }
  return false;
}

/// A key entry's width in px, about: its title at 0.6 font sizes a character, and the sample.
std::size_t key_entry_width(std::size_t characters) {
  return characters * kFontSize * 6 / 10 + 90;
}

/// The widest key entry of a panel, in px.
std::size_t widest_key(const Panel& panel) {
  std::size_t longest = 0;
  for (const auto& s : panel.series) {
    if (series_drawable(panel, s)) longest = std::max(longest, printable_utf8(s.title).size());
    if (any_not_valid(panel, s)) longest = std::max(longest, std::string(kNotValidKey).size());
  }
  return key_entry_width(longest);
}

/// The legend's entries of a panel in a key row, about, for the figure's height.
std::size_t key_lines(const Panel& panel, std::size_t panel_width) {
  std::size_t entries = 0, longest = 0;
  bool hollow = false;
  for (const auto& s : panel.series) {
    if (!series_drawable(panel, s)) continue;
    ++entries;
    longest = std::max(longest, printable_utf8(s.title).size());
    hollow = hollow || any_not_valid(panel, s);
  }
  if (hollow) {
    ++entries;
    longest = std::max<std::size_t>(longest, 26);
  }
  const std::size_t per_line = std::max<std::size_t>(1, panel_width / key_entry_width(longest));
  return (entries + per_line - 1) / per_line;
}

// `tics` labels at 0, 1, ... as a gnuplot tic list "('a' 0, 'b' 1)", every `every`-th one.
std::string tic_list(const std::vector<std::string>& labels, std::size_t every = 1);

// The commands that draw a heatmap from `source` (a data block of "column row value"): a box
// per cell coloured by its value (white to dark blue, from 0), the value written in it, row 0 at
// the top; the colour bar on the right.
std::string heatmap_script(const Heatmap& heatmap, const std::string& source) {
  const auto n_columns = std::to_string(heatmap.columns.size());
  const auto n_rows = std::to_string(heatmap.rows.size());
  const auto scale = heatmap_scale(std::max(heatmap.columns.size(), heatmap.rows.size()));
  std::string s = "unset grid\nunset key\nset size ratio -1\n";
  s += "set xrange [-0.5:" + n_columns + "-0.5]\nset yrange [" + n_rows + "-0.5:-0.5]\n";
  s += "set xtics rotate by 45 right " + tic_list(heatmap.columns, scale.label_every) + "\n";
  s += "set ytics " + tic_list(heatmap.rows, scale.label_every) + "\n";
  s += "set cblabel " + gnuplot_quote(heatmap.value_label) + "\nset cbrange [0:*]\n";
  s += "set palette defined (0 '#ffffff', 1 '#9ecae1', 2 '#08306b')\n";
  const std::string format = "'%." + std::to_string(heatmap.decimals) + "f'";
  s += "plot " + source +
       " using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette notitle";
  if (scale.values_written) {
    s += ", \\\n     " + source + " using 1:2:(sprintf(" + format +
         ", $3)) with labels font 'sans," + std::to_string(kValueFontSize) + "' notitle";
  }
  s += "\n";
  s += "set grid\nset key below\nset size noratio\nunset cblabel\nset cbrange [*:*]\n";
  return s;
}

std::string tic_list(const std::vector<std::string>& labels, std::size_t every) {
  std::string s = "(";
  for (std::size_t i = 0; i < labels.size(); i += std::max<std::size_t>(every, 1))
    s += (i ? ", " : "") + gnuplot_quote(labels[i]) + " " + std::to_string(i);
  return s + ")";
}

}  // namespace

std::string gnuplot_quote(std::string_view text) {
  std::string out = "'";
  for (char c : printable_utf8(text)) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string gnuplot_data(const Figure& figure) {
  std::string out;
  for (const auto& panel : figure.panels) {
    if (panel.heatmap) {
      // One block of "column row value" per finite cell.
      if (!panel.heatmap->has_data()) continue;
      if (!out.empty()) out += "\n\n";
      const auto& values = panel.heatmap->values;
      for (std::size_t r = 0; r < values.size(); ++r) {
        for (std::size_t c = 0; c < values[r].size(); ++c) {
          if (std::isfinite(values[r][c]))
            out += std::to_string(c) + " " + std::to_string(r) + " " + number(values[r][c]) + "\n";
        }
      }
      continue;
    }
    for (const auto& series : panel.series) {
      if (!series_drawable(panel, series)) continue;
      if (!out.empty()) out += "\n\n";
      std::string block;
      bool gap = true;  // no blank line at the start, nor two in a row (that ends a block)
      for (std::size_t i = 0; i < series.points.size(); ++i) {
        const auto& [x, y] = series.points[i];
        if (drawable(panel, x, y)) {
          block += number(x) + " " + number(y) + (series.point_valid(i) ? " 1\n" : " 0\n");
          gap = false;
        } else if (!gap) {
          block += "\n";
          gap = true;
        }
      }
      while (!block.empty() && block.size() >= 2 && block[block.size() - 2] == '\n') {
        block.pop_back();  // a trailing gap
      }
      out += block;
    }
  }
  return out;
}

HeatmapScale heatmap_scale(std::size_t cells) {
  HeatmapScale scale;
  // A square panel of at most kHeatmapSpan px of cells; four digits at the font size need
  // about 3 font sizes of width, a name on an axis about 1.4 font sizes of height.
  constexpr double kHeatmapSpan = 720, kMostCell = 56;
  scale.cell_px =
      std::min(kMostCell, kHeatmapSpan / static_cast<double>(std::max<std::size_t>(cells, 1)));
  if (cells <= kHeatmapSideBySide) return scale;
  scale.values_written = scale.cell_px >= 3.0 * kValueFontSize;
  scale.label_every = static_cast<std::size_t>(std::ceil(1.4 * kFontSize / scale.cell_px));
  return scale;
}

FigureLayout figure_layout(const Figure& figure) {
  FigureLayout layout;
  const std::size_t panels = std::max<std::size_t>(1, figure.panels.size());
  // A heatmap of more cells than fit side by side: one panel per row, as tall as its cells
  // and its slanted names need.
  std::size_t widest_heatmap = 0;
  for (const auto& panel : figure.panels) {
    if (panel.heatmap) widest_heatmap = std::max(widest_heatmap, panel.heatmap->columns.size());
  }
  if (widest_heatmap > kHeatmapSideBySide) {
    const auto scale = heatmap_scale(widest_heatmap);
    layout.columns = 1;
    layout.rows = panels;
    layout.height =
        panels * (static_cast<std::size_t>(scale.cell_px * static_cast<double>(widest_heatmap)) +
                  16 * kFontSize);
    layout.font_size = kFontSize;
    return layout;
  }
  // Side by side only when every key entry fits in half the width (rule 6 of FigureRules): a
  // wider one would spill over the neighbouring panel.
  std::size_t widest = 0;
  for (const auto& panel : figure.panels) widest = std::max(widest, widest_key(panel));
  layout.columns = widest <= kFigureWidth / 2 - 20 ? std::min<std::size_t>(panels, 2) : 1;
  layout.rows = (panels + layout.columns - 1) / layout.columns;
  const std::size_t panel_width = kFigureWidth / layout.columns;
  layout.height = 0;
  for (std::size_t row = 0; row < layout.rows; ++row) {
    std::size_t most_lines = 0;
    for (std::size_t c = 0; c < layout.columns; ++c) {
      const std::size_t i = row * layout.columns + c;
      if (i < figure.panels.size())
        most_lines = std::max(most_lines, key_lines(figure.panels[i], panel_width));
    }
    layout.height += (panels > 1 ? 440 : 400) + (kFontSize + 8) * most_lines;
  }
  layout.font_size = kFontSize;
  return layout;
}

std::string gnuplot_script(const Figure& figure, const std::string& data_path,
                           const std::string& svg_path) {
  const auto layout = figure_layout(figure);
  const bool titles = figure.panels.size() > 1;
  std::string s;
  s += "set terminal svg noenhanced size " + std::to_string(kFigureWidth) + "," +
       std::to_string(layout.height) + " font 'sans," + std::to_string(kFontSize) +
       "' background '#ffffff'\n";
  s += "set output " + gnuplot_quote(svg_path) + "\n";
  s += "set encoding utf8\nset grid\nset key below\n";
  // The figure's title is the page's heading over the image: not drawn again here.
  s += "set multiplot layout " + std::to_string(layout.rows) + "," +
       std::to_string(layout.columns) + "\n";
  int block = 0;
  for (const auto& panel : figure.panels) {
    // Tic labels with up to 10 digits before gnuplot turns to e-notation (FigureRules, rule 1).
    s += "unset label\nunset logscale\nset autoscale\nset xtics autofreq norotate\n"
         "set ytics autofreq\nset format x '%.10g'\nset format y '%.10g'\n";
    s += "set title " + gnuplot_quote(titles ? panel.title : "") + "\n";
    s += "set xlabel " + gnuplot_quote(panel.x_label) + "\n";
    s += "set ylabel " + gnuplot_quote(panel.y_label) + "\n";
    if (panel.heatmap && panel.heatmap->has_data()) {
      s += heatmap_script(*panel.heatmap,
                          gnuplot_quote(data_path) + " index " + std::to_string(block++));
      continue;
    }
    if (!panel_drawable(panel)) {
      s += "set label 1 'no data' at graph 0.5,0.5 center font 'sans,20'\n"
           "set xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\nplot NaN notitle\n";
      continue;
    }
    // The key below the data, in as many columns as fit the panel's width (rule 6).
    s += "set key below maxcols " +
         std::to_string(std::max<std::size_t>(
             1, (kFigureWidth / layout.columns) / std::max<std::size_t>(widest_key(panel), 1))) +
         "\n";
    // A little room at the sides, so the first and last points are not on the frame.
    s += "set offsets graph 0.03, graph 0.03, 0, 0\n";
    if (panel.log_x) s += "set logscale x 10\n";
    if (panel.log_y) s += "set logscale y 10\n";
    if (!panel.log_y && panel.y_from_zero) s += "set yrange [0:*]\n";
    if (!panel.x_tics.empty()) {
      // Long labels (1k+8) slanted so they do not overlap; short ones (process counts) level.
      std::size_t longest = 0;
      for (const auto& tic : panel.x_tics) longest = std::max(longest, tic.second.size());
      s += longest > 3 ? "set xtics rotate by 45 right (" : "set xtics (";
      for (std::size_t i = 0; i < panel.x_tics.size(); ++i) {
        s += (i ? ", " : "") + gnuplot_quote(panel.x_tics[i].second) + " " +
             number(panel.x_tics[i].first);
      }
      s += ")\n";
    }
    std::vector<std::string> plots;
    int next_color = 1;
    bool hollow = false;
    for (const auto& series : panel.series) {
      if (!series_drawable(panel, series)) continue;
      // The palette's colour and the series' marker (FigureRules, rule 7).
      const std::string color =
          " lc rgb '" + FigureRules::colour(series.color > 0 ? series.color : next_color++) + "'";
      const std::string filled = " pt " + std::to_string(FigureRules::marker(series.marker, true));
      const std::string open = " pt " + std::to_string(FigureRules::marker(series.marker, false));
      const std::string source =
          gnuplot_quote(data_path) + " index " + std::to_string(block++) + " using 1:";
      const std::string dash = series.dashed ? " dt 2" : "";
      const bool lines = series.lines || !series.marks;
      // The line through every point, then the marks: filled where valid, hollow where not,
      // then the key entry (an undefined function draws only its key sample).
      if (lines) plots.push_back(source + "2 with lines lw 2" + dash + color + " notitle");
      if (series.marks) {
        plots.push_back(source + "($3>0?$2:1/0) with points" + filled + " ps 1.1" + color +
                        " notitle");
        if (any_not_valid(panel, series)) {
          hollow = true;
          plots.push_back(source + "($3>0?1/0:$2) with points" + open + " ps 1.1" + color +
                          " notitle");
        }
      }
      const std::string key = series.marks && lines ? "linespoints" + filled + " ps 1.1 lw 2"
                              : lines               ? std::string("lines lw 2")
                                                    : "points" + filled + " ps 1.1";
      plots.push_back("1/0 with " + key + dash + color + " title " + gnuplot_quote(series.title));
    }
    if (hollow) {
      plots.push_back("1/0 with points pt " + std::to_string(FigureRules::marker(0, false)) +
                      " ps 1.1 lc rgb '#000000' title " + gnuplot_quote(kNotValidKey));
    }
    for (std::size_t i = 0; i < plots.size(); ++i)
      s += (i == 0 ? "plot " : ", \\\n     ") + plots[i];
    s += "\n";
  }
  s += "unset multiplot\nset output\n";
  return s;
}

void require_gnuplot() {
  if (!process::command_exists("gnuplot")) {
    throw MissingProgramError(
        "gnuplot not found on PATH: pbench report draws its figures with gnuplot (Debian "
        "package gnuplot-nox: apt-get install gnuplot-nox)");
  }
}

std::filesystem::path GnuplotFigure::draw(const Figure& figure, const std::filesystem::path& dir) {
  const auto data = dir / (figure.name + ".dat");
  const auto script = dir / (figure.name + ".gp");
  const auto svg = dir / (figure.name + ".svg");
  auto write = [](const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw UsageError("cannot write '" + path.string() + "'");
  };
  write(data, gnuplot_data(figure));
  write(script, gnuplot_script(figure, data.string(), svg.string()));
  std::filesystem::remove(svg);
  const auto result = runner_.run({"gnuplot", script.string()}, std::chrono::seconds(120));
  if (result.exit_code != 0 || !std::filesystem::exists(svg)) {
    std::string message = printable_utf8(result.err);
    if (message.size() > 400) message = message.substr(0, 400) + "...";
    throw std::runtime_error("gnuplot failed to draw figure '" + figure.name + "' (exit " +
                             std::to_string(result.exit_code) + "): " + message);
  }
  return svg;
}

}  // namespace pbench::report
