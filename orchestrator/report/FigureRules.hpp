#pragma once
// The rules every figure of the report follows so that a person reads it at a glance, written
// once here (and in docs/user-guide.md, "How the figures read"); the figure builders fill in
// values and what each series is, the rules decide how it is drawn:
//  1. units: values in the units the tables use (MB/s, us, ns/B: query::display_unit);
//  2. axes: a linear y axis whose values span kLogSpan or more (two decades) is logarithmic;
//  3. panels: environments whose values lie kPanelSpan or more apart (three orders) get a panel
//     each, so that the smaller is not drawn flat at zero beside the larger;
//  4. not valid points: hollow markers, with a key entry saying so (GnuplotFigure);
//  5. whole-number axes (runs): a tic at each whole number, never between;
//  6. legends: below the data area of their panel, never over it; panels side by side only when
//     the longest key entry fits in half the figure's width, else one panel a row;
//  7. colours and markers: one colour per environment, one marker per kind (a pattern type, a
//     queue depth), the same in every panel of a figure.
#include <string>

#include "report/Figure.hpp"

namespace pbench::report {

struct FigureRules {
  /// Rule 2: the ratio of the largest to the smallest value from which an axis is logarithmic.
  static constexpr double kLogSpan = 100;
  /// Rule 3: the ratio of two environments' medians from which they get a panel each.
  static constexpr double kPanelSpan = 1000;
  /// The colours of the palette (Okabe and Ito's, told apart by colour-blind readers, then
  /// more), in order.
  static constexpr int kColours = 9;
  /// The filled markers, in order; each has a hollow twin for not valid points.
  static constexpr int kMarkers = 6;

  /// Applies rules 2, 3, 5 and 7 to `figure` (rules 1, 4 and 6 are the builders' and the
  /// drawing's).
  static void apply(Figure& figure);
  /// The palette's colour `index` (1, 2, ...; cycled past kColours) as "#rrggbb".
  static std::string colour(int index);
  /// gnuplot's point type of marker `index` (0, 1, ...; cycled past kMarkers), filled or hollow.
  static int marker(int index, bool filled);
};

}  // namespace pbench::report
