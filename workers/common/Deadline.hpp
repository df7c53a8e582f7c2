#pragma once
// The end a worker must keep to (issue 14, item 2): under a batch time limit the job is killed at
// its end and everything measured would be lost. A worker given a deadline (--deadline as epoch
// seconds, --time-left in seconds, or PBENCH_DEADLINE / PBENCH_TIME_LEFT from the job script)
// checks it at clean points of its loops. Rank 0 decides and the decision is broadcast, so every
// rank stops after the same step: the run stops when the next step, taking as long as the longest
// step so far, would end past the deadline minus a margin (the time to write the result and
// remove files). The worker then writes what it measured as a partial result, not valid, with a
// reason naming the deadline, and exits 0; the result's validity carries a "partial" marker.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>

namespace pbench::worker {

class Parameters;

/// Seconds since the epoch, now (the system clock; deadlines are wall-clock times).
double epoch_now();
/// An epoch time as "YYYY-MM-DDTHH:MM:SSZ".
std::string epoch_text(double epoch_seconds);

/// A deadline: an end (epoch seconds) and a margin kept free before it; or none.
class Deadline {
 public:
  /// The margin when none is given: a tenth of the time left at start, at least 1 s, at most
  /// 60 s.
  static double default_margin(double time_left);

  /// No deadline: never reached.
  Deadline() = default;
  /// A deadline at `end` (epoch seconds) keeping `margin` seconds free before it.
  Deadline(double end, double margin);

  /// From the parameters as given (0 meaning not given): the earlier of `deadline` (epoch
  /// seconds) and `now` + `time_left`; `margin` < 0 means the default margin. Returns the
  /// deadline, or a message naming the problem: a deadline not after `now`, a time left of zero
  /// or less, a negative margin, or a margin that leaves no time.
  static std::optional<Deadline> from(std::optional<double> deadline,
                                      std::optional<double> time_left, double margin, double now,
                                      std::string& problem);

  bool set() const { return end_.has_value(); }
  /// The end [epoch s]; only when set().
  double end() const { return end_.value_or(0); }
  double margin() const { return margin_; }
  /// When the run should have stopped: end - margin [epoch s].
  double stop_by() const { return end() - margin_; }

  /// Rank 0's decision at a clean point: true when a step starting at `now` and taking `step`
  /// seconds would end after stop_by(). Never true without a deadline.
  bool stop_before(double now, double step) const;

  /// The reason of a result it cut short: names the deadline, the margin and where it stopped.
  std::string reason(const std::string& where) const;

 private:
  std::optional<double> end_;
  double margin_ = 0;
};

/// Rank 0's side of the checks: the longest step between two clean points so far, so that the
/// next step is predicted to take as long; `clock` gives epoch seconds (a fake in tests).
class DeadlineDecision {
 public:
  DeadlineDecision(const Deadline& deadline, std::function<double()> clock = epoch_now);
  /// Called at a clean point: true when the run must stop here (and from then on).
  bool stop_here();
  /// The longest step seen [s].
  double longest_step() const { return longest_; }

 private:
  Deadline deadline_;
  std::function<double()> clock_;
  std::optional<double> last_;
  double longest_ = 0;
  bool stopped_ = false;
};

/// The collective check every worker uses: rank 0 of `comm` decides (DeadlineDecision), the
/// decision is broadcast, every rank of `comm` returns the same answer. Once it said stop, it
/// says so again without communicating (every rank knows). Without a deadline it returns false
/// and does not communicate.
class DeadlineWatch {
 public:
  explicit DeadlineWatch(const Deadline& deadline);
  /// Collective over `comm` (whose rank 0 is world rank 0): true when the run stops here;
  /// `where` names the clean point for the reason ("flood repetition 3 of 10").
  bool reached(MPI_Comm comm, const std::string& where);
  /// Records a stop that a collective step outside reached() made known (for example to the
  /// ranks that were not in the communicator of the check).
  void stop(const std::string& where) {
    stopped_ = true;
    where_ = where;
  }
  /// True once reached() said stop.
  bool stopped() const { return stopped_; }
  /// Where it stopped ("" before).
  const std::string& where() const { return where_; }
  const Deadline& deadline() const { return deadline_; }
  /// The reason for the result (only when stopped()).
  std::string reason() const { return deadline_.reason(where_); }

 private:
  Deadline deadline_;
  DeadlineDecision decision_;
  bool stopped_ = false;
  std::string where_;
};

}  // namespace pbench::worker
