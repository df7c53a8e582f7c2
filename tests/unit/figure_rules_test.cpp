// The rules every figure of the report follows (report/FigureRules.hpp), on made-up figures:
// log axes over decades, a panel per environment orders apart, whole-number run tics, one colour
// per environment and one marker per kind; and how they are drawn (GnuplotFigure): the
// palette's colours, hollow twins of the markers, panels one a row when a key entry is wide.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "report/FigureRules.hpp"
#include "report/GnuplotFigure.hpp"

using namespace pbench::report;

namespace {

Series series(const std::string& title, const std::string& env, const std::string& kind,
              std::vector<std::pair<double, double>> points) {
  Series s;
  s.title = title;
  s.env = env;
  s.kind = kind;
  s.points = std::move(points);
  return s;
}

}  // namespace

TEST_CASE("figure rules: a linear axis over two decades becomes logarithmic") {
  Figure f;
  Panel p;
  p.y_from_zero = true;
  p.series.push_back(series("a", "", "", {{1, 0.3}, {2, 4000}}));
  f.panels = {p};
  FigureRules::apply(f);
  CHECK(f.panels[0].log_y);
  CHECK_FALSE(f.panels[0].y_from_zero);
  // Within two decades it stays linear; a value of 0 keeps it linear (log would hide it).
  Figure near;
  p.series[0].points = {{1, 10}, {2, 900}};
  near.panels = {p};
  FigureRules::apply(near);
  CHECK_FALSE(near.panels[0].log_y);
  Figure zero;
  p.series[0].points = {{1, 0}, {2, 4000}, {3, 1}};
  zero.panels = {p};
  FigureRules::apply(zero);
  CHECK_FALSE(zero.panels[0].log_y);
}

TEST_CASE("figure rules: environments orders apart get a panel each, with their colours") {
  // MPICH at 0.3 us beside Open MPI's 4 ms (issue 52).
  Figure f;
  Panel p;
  p.title = "OL";
  p.series.push_back(series("OL, mpich", "mpich (MPICH 4.0.2)", "OL", {{1, 0.3}, {2, 0.31}}));
  p.series.push_back(
      series("OL, openmpi", "openmpi (Open MPI 4.1.4)", "OL", {{1, 4000}, {2, 4100}}));
  f.panels = {p};
  FigureRules::apply(f);
  REQUIRE(f.panels.size() == 2);
  CHECK(f.panels[0].title == "OL: mpich (MPICH 4.0.2)");
  CHECK(f.panels[1].title == "OL: openmpi (Open MPI 4.1.4)");
  REQUIRE(f.panels[0].series.size() == 1);
  CHECK(f.panels[0].series[0].color != f.panels[1].series[0].color);
  // Within three orders: one panel.
  Figure close;
  p.series[1].points = {{1, 3}, {2, 4}};
  close.panels = {p};
  FigureRules::apply(close);
  CHECK(close.panels.size() == 1);
}

TEST_CASE("figure rules: one colour per environment, one marker per kind, in every panel") {
  // io's patterns: types 0 and 3 in two environments (issue 52: type 0 of MPICH and type 3 of
  // Open MPI both purple).
  Figure f;
  for (const char* access : {"write", "read"}) {
    Panel p;
    p.title = access;
    for (const char* env : {"mpich", "openmpi"}) {
      for (const char* type : {"type 0", "type 3"}) {
        auto s = series(std::string(type) + ", " + env, env, type, {{1, 10}, {2, 12}});
        s.color = 4;  // the builder's wish, overruled where environments are several
        p.series.push_back(s);
      }
    }
    f.panels.push_back(p);
  }
  FigureRules::apply(f);
  for (const auto& p : f.panels) {
    REQUIRE(p.series.size() == 4);
    CHECK(p.series[0].color == p.series[1].color);  // mpich
    CHECK(p.series[2].color == p.series[3].color);  // openmpi
    CHECK(p.series[0].color != p.series[2].color);
    CHECK(p.series[0].marker == p.series[2].marker);  // type 0
    CHECK(p.series[1].marker == p.series[3].marker);  // type 3
    CHECK(p.series[0].marker != p.series[1].marker);
  }
  CHECK(f.panels[0].series[3].color == f.panels[1].series[3].color);
  // Drawn with the palette's colours, never gnuplot's cycling indices, and the markers' pt.
  const auto script = gnuplot_script(f, "d", "s");
  CHECK(script.find("lc rgb '" + FigureRules::colour(f.panels[0].series[0].color) + "'") !=
        std::string::npos);
  CHECK(script.find("lc rgb '" + FigureRules::colour(f.panels[0].series[2].color) + "'") !=
        std::string::npos);
  CHECK(script.find(" pt " + std::to_string(FigureRules::marker(1, true)) + " ") !=
        std::string::npos);
  CHECK(script.find(" lc 1") == std::string::npos);
  std::set<std::string> colours;
  for (int i = 1; i <= FigureRules::kColours; ++i) colours.insert(FigureRules::colour(i));
  CHECK(colours.size() == static_cast<std::size_t>(FigureRules::kColours));
  // Each filled marker has a hollow twin of its own.
  std::set<int> types;
  for (int i = 0; i < FigureRules::kMarkers; ++i) {
    types.insert(FigureRules::marker(i, true));
    types.insert(FigureRules::marker(i, false));
  }
  CHECK(types.size() == static_cast<std::size_t>(2 * FigureRules::kMarkers));
}

TEST_CASE("figure rules: runs get a tic at each whole number") {
  Figure f;
  Panel p;
  p.integer_x = true;
  p.series.push_back(series("b_eff", "", "", {{1, 5}, {2, 6}, {3, 6}, {4, 7}}));
  f.panels = {p};
  FigureRules::apply(f);
  const auto& tics = f.panels[0].x_tics;
  REQUIRE(tics.size() == 4);
  CHECK(tics[0] == std::pair<double, std::string>{1, "1"});
  CHECK(tics[3] == std::pair<double, std::string>{4, "4"});
}

TEST_CASE("figure rules: panels side by side only when their key entries fit in half the width") {
  Figure f;
  Panel p;
  p.series.push_back(series("type 0 scatter", "", "", {{1, 1}}));
  f.panels = {p, p, p};
  CHECK(figure_layout(f).columns == 2);
  for (auto& panel : f.panels)
    panel.series[0].title = "type 0 scatter, openmpi (Open MPI 4.1.4), 2 processes, hints -";
  CHECK(figure_layout(f).columns == 1);
  CHECK(figure_layout(f).rows == 3);
  // The key below the data, in as many columns as fit.
  CHECK(gnuplot_script(f, "d", "s").find("set key below maxcols ") != std::string::npos);
}
