#include "report/GnuplotFigure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "report/TextSafety.hpp"
#include "util/Error.hpp"

namespace pbench::report {
namespace {

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

std::string style(const Series& s) {
  std::string out = s.lines && s.marks ? "linespoints pt 7 ps 0.6"
                    : s.lines          ? "lines"
                                       : "points pt 7 ps 0.6";
  out += " lw 1.5";
  if (s.dashed) out += " dt 2";
  return out;
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
    for (const auto& series : panel.series) {
      if (!series_drawable(panel, series)) continue;
      if (!out.empty()) out += "\n\n";
      std::string block;
      bool gap = true;  // no blank line at the start, nor two in a row (that ends a block)
      for (const auto& [x, y] : series.points) {
        if (drawable(panel, x, y)) {
          block += number(x) + " " + number(y) + "\n";
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

std::string gnuplot_script(const Figure& figure, const std::string& data_path,
                           const std::string& svg_path) {
  const std::size_t columns = figure.panels.empty() ? 1 : figure.panels.size();
  // The key below the plots grows with the number of series, and a panel is at least as wide
  // as its longest key entry (gnuplot leaves out a title that does not fit).
  std::size_t most_series = 0, longest_title = 0;
  for (const auto& panel : figure.panels) {
    most_series = std::max(most_series, panel.series.size());
    for (const auto& series : panel.series)
      longest_title = std::max(longest_title, printable_utf8(series.title).size());
  }
  const std::size_t panel_width = std::max<std::size_t>(440, 7 * longest_title + 120);
  std::string s;
  s += "set terminal svg noenhanced size " + std::to_string(80 + panel_width * columns) + "," +
       std::to_string(380 + 16 * most_series) + " font 'sans,11' background '#ffffff'\n";
  s += "set output " + gnuplot_quote(svg_path) + "\n";
  s += "set encoding utf8\nset grid\nset key below\n";
  s += "set multiplot layout 1," + std::to_string(columns) + " title " +
       gnuplot_quote(figure.title) + "\n";
  int block = 0;
  for (const auto& panel : figure.panels) {
    s += "unset label\nunset logscale\nset autoscale\nset xtics autofreq norotate\n"
         "set ytics autofreq\nset format x '%g'\nset format y '%g'\n";
    s += "set title " + gnuplot_quote(panel.title) + "\n";
    s += "set xlabel " + gnuplot_quote(panel.x_label) + "\n";
    s += "set ylabel " + gnuplot_quote(panel.y_label) + "\n";
    if (!panel_drawable(panel)) {
      s += "set label 1 'no data' at graph 0.5,0.5 center font 'sans,16'\n"
           "set xrange [0:1]\nset yrange [0:1]\nunset xtics\nunset ytics\nplot NaN notitle\n";
      continue;
    }
    // A little room at the sides, so the first and last points are not on the frame.
    s += "set offsets graph 0.03, graph 0.03, 0, 0\n";
    if (panel.log_x) s += "set logscale x 10\n";
    if (panel.log_y) s += "set logscale y 10\n";
    if (!panel.x_tics.empty()) {
      s += "set xtics rotate by 45 right (";
      for (std::size_t i = 0; i < panel.x_tics.size(); ++i) {
        s += (i ? ", " : "") + gnuplot_quote(panel.x_tics[i].second) + " " +
             number(panel.x_tics[i].first);
      }
      s += ")\n";
    }
    std::string plot;
    int next_color = 1;
    for (const auto& series : panel.series) {
      if (!series_drawable(panel, series)) continue;
      const int color = series.color > 0 ? series.color : next_color++;
      plot += (plot.empty() ? "plot " : ", \\\n     ") + gnuplot_quote(data_path) + " index " +
              std::to_string(block++) + " using 1:2 with " + style(series) + " lc " +
              std::to_string(color) + " title " + gnuplot_quote(series.title);
    }
    s += plot + "\n";
  }
  s += "unset multiplot\nset output\n";
  return s;
}

void require_gnuplot() {
  if (!process::command_exists("gnuplot")) {
    throw SchedulerError(
        "gnuplot not found on PATH: pbench report draws its figures with gnuplot (Debian "
        "package gnuplot-nox)");
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
    throw SchedulerError("gnuplot failed to draw figure '" + figure.name + "' (exit " +
                         std::to_string(result.exit_code) + "): " + message);
  }
  return svg;
}

}  // namespace pbench::report
