#pragma once
// The global clock of the synchronized-clock method (METHODS.md §5): every rank learns a
// ClockModel of rank 0's MPI_Wtime in ceil(log2 P) rounds of disjoint pairs (round j: rank r
// with lowest set bit 2^j learns from rank r - 2^j, as in Hunold & Carpen-Amarie's hierarchical
// scheme), then the models compose down the same tree, so rank r ends with its model to rank 0.
// A pair runs `fit_points` fit points spread over `fit_seconds`, each the best of
// `ping_pongs` ping-pongs: O(P) messages and O(log P) rounds per learning.
//
// check() measures the models' residual error the same way: each rank against its tree parent,
// both on their global clocks (the best of `ping_pongs` round trips), the differences summed
// along the path to rank 0 (a bound on the error against rank 0 by the triangle inequality).
#include <mpi.h>

#include <functional>
#include <vector>

#include "bcast/ClockModel.hpp"
#include "bcast/DuplicateComm.hpp"
#include "bcast/MessageWait.hpp"

namespace pbench::bcast {

/// What a rank knows of its clock after a learning and a check (gathered to rank 0).
struct ClockRecord {
  double offset = 0;             ///< local - global at the check [s]
  double drift_ppm = 0;          ///< against rank 0 [ppm]
  /// The drift's uncertainty as the model states it: three standard errors of the fits' slopes,
  /// added along the path to rank 0 [ppm]
  double drift_uncertainty_ppm = 0;
  double predicted_error = 0;    ///< at the check [s]
  double measured_error = 0;     ///< the check's bound against rank 0 [s]
  double check_uncertainty = 0;  ///< half the check's smallest round trips on the path [s]
};

class ClockSync {
 public:
  /// Over a duplicate of `comm` (collective), waiting for messages with `wait`.
  ClockSync(MPI_Comm comm, int fit_points, int ping_pongs, double fit_seconds, MessageWait wait);

  /// Learns every rank's model to rank 0 (collective).
  void learn();
  /// Measures the residual errors (collective); returns this rank's record.
  ClockRecord check();
  /// The largest predicted error over the ranks now (collective) [s].
  double largest_predicted_error() const;

  /// The global time now.
  double now() const { return model_.global(MPI_Wtime()); }
  /// Waits until the global clock reads `global` (sleeps, then spins the last 200 us); returns
  /// how late this rank was: the global time after the wait minus `global` (> 0: late).
  double wait_until(double global) const;
  const ClockModel& model() const { return model_; }
  /// How many learnings have run.
  int learnings() const { return learnings_; }

 private:
  /// As a client of `server`: the best of `ping_pongs` round trips, offset = server's stamp
  /// (its local clock, or global with `global`) minus the midpoint.
  FitPoint ping(int server, bool global) const;
  /// As the server of `client`: answers `count` pings with its clock.
  void answer(int client, int count, bool global) const;
  /// Rounds of the tree: `client` runs when this rank learns from its parent, `server` for each
  /// child (children in the order of the rounds).
  template <class Client, class Server>
  void rounds(Client&& client, Server&& server) const;
  /// Down the tree from rank 0: receives the parent's `count` values (rank 0: none), makes its
  /// own with `own` and sends them to its children; returns its own.
  std::vector<double> pass_down(
      int count, const std::function<std::vector<double>(const std::vector<double>&)>& own) const;

  DuplicateComm comm_;
  int fit_points_;
  int ping_pongs_;
  double fit_seconds_;
  MessageWait wait_;
  ClockModel model_;
  int learnings_ = 0;
};

}  // namespace pbench::bcast
