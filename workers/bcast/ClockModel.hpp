#pragma once
// A rank's clock against the reference clock (rank 0's MPI_Wtime, the "global" clock) as a
// linear model, global = slope * local + intercept, learned from ping-pongs (the synchronized-
// clock method, METHODS.md §5; Hunold & Carpen-Amarie's HCA, Schuchart, Hunold & Bosilca's
// MPIX_Harmonize). Pure arithmetic, no MPI: ClockSync runs the ping-pongs.
//
// One fit point is the offset of a partner's clock seen from this rank's at one local instant:
// of a few ping-pongs, the one with the smallest round trip (its error is at most half of it),
// offset = partner's stamp - the local midpoint of the round trip. A least-squares line through
// the points gives the partner's clock as a function of the local one; models compose along
// the tree of ranks that learned from each other, so every rank ends with a model to rank 0.
//
// The predicted error of a model at global time t is base + rate * |t - reference|: base is
// twice the fit's largest residual plus half the smallest round trip, rate three standard
// errors of the slope (the drift's uncertainty); both add up along the tree path.
#include <vector>

namespace pbench::bcast {

/// One fit point: at local time `local` [s], the partner's clock read `offset` [s] more.
struct FitPoint {
  double local = 0;
  double offset = 0;
  double round_trip = 0;  ///< of the ping-pong the point came from [s]
};

struct ClockModel {
  double slope = 1;       ///< d(global)/d(local)
  double intercept = 0;   ///< [s]
  double base_error = 0;  ///< predicted error at the reference time [s]
  double error_rate = 0;  ///< growth of the predicted error per second away from it [s/s]
  double reference = 0;   ///< global time of the fit (the mean of its points) [s]

  /// The global time of local time `local`.
  double global(double local) const { return slope * local + intercept; }
  /// The local time at which the global clock reads `global`.
  double local(double global) const { return (global - intercept) / slope; }
  /// The predicted error of global(...) at global time `global` [s].
  double predicted_error(double global) const;
  /// local - global at global time `global`: how far this clock is ahead of the reference [s].
  double offset_at(double global) const { return local(global) - global; }
  /// How much faster this clock runs than the reference, in parts per million.
  double drift_ppm() const { return (1 / slope - 1) * 1e6; }
  /// This model (local -> the partner's clock) followed by `partner` (the partner's clock ->
  /// global): local -> global, its errors added.
  ClockModel then(const ClockModel& partner) const;
};

/// A fit point is tight when its round trip is at most this many times the least of the fit's:
/// its offset's error (at most half its round trip) is then of the order of the best point's.
inline constexpr double kTightRoundTrips = 2;

/// The points of `points` that are tight, when at least half of them are; else all of them.
std::vector<FitPoint> tight_points(const std::vector<FitPoint>& points);

/// The least-squares model of the partner's clock (local -> partner) through the tight points
/// of `points` (tight_points; at least two with distinct local times, otherwise an offset-only
/// model of their mean); `reference` is the mean local time of the points fitted. A point whose
/// round trip a scheduler stretched (a rank waiting for a core) would move the line by up to
/// half of it: of 16 points over 0.1 s, one 100 us round trip is a drift of tens of ppm.
ClockModel fit_clock(const std::vector<FitPoint>& points);

}  // namespace pbench::bcast
