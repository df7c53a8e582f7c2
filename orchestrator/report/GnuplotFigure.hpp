#pragma once
// Draws a Figure into an SVG file with gnuplot, run through the ProcessRunner (argv, no shell):
// the numbers go into a data file, every text into single-quoted gnuplot strings (no backquote
// or macro substitution happens there), both written into the report directory.
#include <filesystem>
#include <string>
#include <string_view>

#include "process/ProcessRunner.hpp"
#include "report/Figure.hpp"

namespace pbench::report {

/// Every figure's width in px: the page's width at 1400 px, so its text is drawn at its size.
constexpr std::size_t kFigureWidth = 1240;
/// The key entry of the hollow marker of a point from a result that is not valid.
constexpr const char* kNotValidKey = "not valid (hollow marker)";

/// How a figure's panels are laid out: at most two side by side, the height grown for the keys.
struct FigureLayout {
  std::size_t columns = 1;
  std::size_t rows = 1;
  std::size_t height = 0;  ///< px
  int font_size = 0;       ///< px
};
FigureLayout figure_layout(const Figure& figure);

/// How a heatmap of `cells` rows and columns is drawn so that its names stay legible (the link
/// matrix of 16 nodes and beyond): up to kHeatmapSideBySide cells, two panels side by side with
/// every value written in; above it, one panel per row with cells of `cell_px`, the values
/// written in while a cell holds four digits at the font size, and every `label_every`-th
/// name on the axes, so that no two names overlap (the colour bar says the values).
struct HeatmapScale {
  double cell_px = 0;
  bool values_written = true;
  std::size_t label_every = 1;
};
constexpr std::size_t kHeatmapSideBySide = 8;
HeatmapScale heatmap_scale(std::size_t cells);

/// `text` as a gnuplot single-quoted string literal: ' doubled, control characters (line
/// breaks) as spaces, invalid UTF-8 bytes as '?'.
std::string gnuplot_quote(std::string_view text);
/// The figure's data: a block per drawable series (panel by panel) separated by two blank
/// lines, each line "x y v" with v 1 for a point of a valid result and 0 for one that is not;
/// a gap (NaN, or a value <= 0 on a log axis) is one blank line, never a 0.
std::string gnuplot_data(const Figure& figure);
/// The gnuplot script that draws `figure` from `data_path` into `svg_path`: kFigureWidth wide,
/// the panels' titles only when there are several (the page heads the figure with its title),
/// lines through all points, filled marks for valid points and hollow ones (with a key entry)
/// for points that are not.
std::string gnuplot_script(const Figure& figure, const std::string& data_path,
                           const std::string& svg_path);

class GnuplotFigure {
 public:
  explicit GnuplotFigure(process::ProcessRunner& runner) : runner_(runner) {}
  /// Writes DIR/NAME.dat and DIR/NAME.gp and runs `gnuplot DIR/NAME.gp` to draw DIR/NAME.svg;
  /// throws SchedulerError when gnuplot fails or draws nothing (naming the figure and gnuplot's
  /// message).
  std::filesystem::path draw(const Figure& figure, const std::filesystem::path& dir);

 private:
  process::ProcessRunner& runner_;
};

/// Throws SchedulerError with the package to install when gnuplot is not on PATH.
void require_gnuplot();

}  // namespace pbench::report
