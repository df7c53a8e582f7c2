#pragma once
// T as a bound on any host (issue 41), and spent (issue 52). Rev 2.1 shares T out among the
// patterns (Schedule.hpp) and leaves out what it cannot cut: opening and closing the files, the
// syncs that end the writing patterns, and deleting the files at the end of their read (seconds
// per GB on a file system that discards freed blocks). A guarded run plans them: they are
// measured as the run goes, and each pattern's share is what is left of T, after what is still to
// come of them, over the time units still to run, each unit weighed by what it costs.
//
// Only the time-driven rows (types 0-2 write) keep to a share; the rest replay the counts those
// wrote, and take what that takes: rewrites about what the writes took, reads from the page cache
// a fraction of it. Counting every unit at the time-driven rows' cost left a fifth to two fifths
// of T unspent (issue 52). So each kind of row (RowCost) has a cost ratio c: its seconds per unit
// over the time-driven rows' seconds per unit, as the run's own rows of that kind measured it,
// before that the untimed probe's read over its write for the reads, and 1 for the rest. With
// per-unit time s of the time-driven rows, remaining units U_k of kind k, d seconds of deletion
// per byte, w the write bandwidth and A the time left after the reserve:
//   s * sum_k(c_k * U_k) + d * w * s * (U_timed + c_sized * U_sized) = A,
// s = A / (sum_k(c_k * U_k) + d * w * (U_timed + c_sized * U_sized)), and s is at most
// kMostUnitTimeFactor times rev 2.1's T_pattern per unit (the original's own time-driven rows
// ran to 2.1 times their shares on the hosts measured: bench/README.md).
//
// T is for all partitions, Tn = T / partitions each (rev 2.1): every partition keeps its own
// account. Its budget is Tn less its part of the time no partition's rows took (set-up, the
// probe), plus an equal part of the slack partitions that have ended left unspent; its shares
// come from what is left of its own budget over its own units, so a partition whose rows ran
// long pays for them with its own later rows (issue 52: the first partition's writes and
// rewrites took the second's reads to one call each). The whole run's s (what is left of T over
// every partition's units) caps it, so that the run as a whole still keeps to T; a rewrite or
// read row is never held to less than rev 2.1's T_pattern (TypeRun), so a run short of time
// shrinks the time-driven rows still to come and never cuts a read to nothing. What the run
// learns (cost ratios, syncs, deletion, opens, closes, bookkeeping) is one machine's and shared.
//
// TimeAccount is rank 0's record of where the run's time went: contiguous intervals on one
// clock, so its parts add up to the elapsed time.
#include <array>
#include <cstdint>
#include <vector>

#include "io/Schedule.hpp"

namespace pbench::io {

/// The parts of a run's time. Every moment from making the run's directory to removing its files
/// falls in one: setup (directory, read-back check, buffers, communicators), the untimed deletion
/// probe, file opens, patterns (from the barrier before the first call to the barrier after the
/// sync), file closes, deletion (the read's, inside the read types' time as rev 2.1's close that
/// deletes), bookkeeping (the barriers and reductions between them) and the final removal.
enum class TimePart {
  setup,
  deletion_probe,
  opens,
  patterns,
  closes,
  deletion,
  bookkeeping,
  removal
};
inline constexpr int kTimeParts = 8;
inline constexpr TimePart kTimePartList[kTimeParts] = {
    TimePart::setup,  TimePart::deletion_probe, TimePart::opens,       TimePart::patterns,
    TimePart::closes, TimePart::deletion,       TimePart::bookkeeping, TimePart::removal};

/// "setup", "deletion_probe", "opens", "patterns", "closes", "deletion", "bookkeeping",
/// "removal".
const char* time_part_name(TimePart part);

class TimeAccount {
 public:
  /// An account whose first interval starts at `start` (a clock reading [s]).
  explicit TimeAccount(double start = 0) : last_(start), start_(start) {}

  /// Charges the time from the last mark (or the start) to `now` to `part`, and counts it.
  void mark(TimePart part, double now);
  double seconds(TimePart part) const { return seconds_[index(part)]; }
  std::int64_t count(TimePart part) const { return counts_[index(part)]; }
  /// The sum of the parts: the last mark minus the start [s].
  double total() const;

 private:
  static std::size_t index(TimePart part) { return static_cast<std::size_t>(part); }
  std::array<double, kTimeParts> seconds_{};
  std::array<std::int64_t, kTimeParts> counts_{};
  double last_;
  double start_;
};

/// The kinds of pattern row by what decides their length: time-driven (types 0-2 write), sized
/// from those counts (types 3-4 write), replayed by the rewrite, replayed by the read. Rows of
/// one call (U = 0) count nowhere.
enum class RowCost { timed, sized, rewrite, read };
inline constexpr int kRowCosts = 4;

/// The units still to run of each kind at the start of a run (all partitions; each partition
/// runs the same rows, so every count is a multiple of the partitions).
struct PlanUnits {
  int timed = 0;
  int sized = 0;
  int rewrite = 0;
  int read = 0;
  int total() const { return timed + sized + rewrite + read; }
};

/// The most a share grows: s <= this * rev 2.1's T_pattern per unit.
inline constexpr double kMostUnitTimeFactor = 2.0;

/// The size of the untimed deletion probe: a file written, synced and deleted before the timed
/// part, which gives the deletion rate until the run's own deletions give it at scale [B].
inline constexpr std::int64_t kDeletionProbeBytes = 32LL * 1024 * 1024;

class TimePlan {
 public:
  /// The plan of a run shared out as `schedule` says (its partitions each run the same rows),
  /// running `rows` pattern rows of `units` time units by kind (all partitions and access
  /// methods), with `files` opens and as many closes; `deleting`: the read deletes the files
  /// (not --keep). Partitions are numbered 0 .. schedule.partitions - 1 in the order they run.
  TimePlan(const Schedule& schedule, int rows, PlanUnits units, int files, bool deleting);

  /// The untimed probe deleted `bytes` in `seconds`.
  void probed_deletion(double bytes, double seconds);
  /// The untimed probe wrote (and synced) its bytes in `write_seconds` and read them back in
  /// `read_seconds`: the reads' cost ratio until the run's own reads give it.
  void probed_read(double write_seconds, double read_seconds);
  /// A file open, a close, a deletion of `bytes` measured in partition `part`.
  void opened(int part, double seconds);
  void closed(int part, double seconds);
  void deleted(int part, double bytes, double seconds);
  /// A sync after `bytes` written by all processes took `seconds`.
  void synced(double bytes, double seconds);
  /// The bookkeeping between the parts (barriers, reductions) has taken `seconds` so far; the
  /// rows still to come are planned to take as much each as the rows after the first (whose
  /// share includes the first collectives on a new communicator) so far. What it grew by since
  /// the last row is charged to the partition of the next row that ends.
  void bookkeeping(double seconds) { bookkeeping_seconds_ = seconds; }
  /// A pattern of partition `part`, kind `cost` and `units` time units ended after `seconds`; a
  /// writing one (timed, sized) added `bytes` (all processes) to the files.
  void pattern_done(int part, RowCost cost, int units, double bytes, double seconds);

  /// Rev 2.1's T_pattern per time unit (Schedule::unit_time) [s].
  double rev21_unit_time() const { return schedule_.unit_time(); }
  /// The per-unit time of partition `part`'s patterns still to run, `elapsed` seconds into the
  /// run: the smaller of s over its own budget and units and s over what is left of T and every
  /// partition's units, between 0 and kMostUnitTimeFactor times rev 2.1's [s].
  double unit_time(int part, double elapsed) const;
  /// The cost ratio c of a kind of row (1 for the time-driven ones).
  double cost_ratio(RowCost cost) const;
  /// A pattern's share: unit_time(part, elapsed) * units [s].
  double share(int part, int units, double elapsed) const {
    return unit_time(part, elapsed) * units;
  }
  /// Partition `part`'s budget `elapsed` seconds into the run: Tn less its part of the time no
  /// partition took, plus its part of what ended partitions left [s].
  double budget(int part, double elapsed) const;
  /// The time partition `part`'s rows, opens, closes, deletions and bookkeeping took so far [s].
  double spent(int part) const { return parts_.at(static_cast<std::size_t>(part)).spent; }
  /// What is held back now for partition `part`'s opens, closes, bookkeeping and deletion still
  /// to come (the deletion of its bytes already in the files; that of bytes still to be written
  /// is in unit_time) [s].
  double reserve(int part) const;

  /// The sync's fixed part: the shortest sync so far (0 before any) [s].
  double sync_fixed() const;
  /// Seconds of sync per byte written beyond the fixed part, from the syncs so far (0 before
  /// any) [s/B].
  double sync_per_byte() const;
  /// Seconds of deletion per byte: the run's own deletions once they have deleted at least the
  /// probe's bytes, before that the probe's (0 without either, or when not deleting) [s/B].
  double deletion_per_byte() const;
  /// Bytes written (all processes) per second of writing patterns so far (0 before any) [B/s].
  double write_bandwidth() const;

 private:
  /// One partition's account.
  struct Part {
    int rows_left = 0;
    std::array<int, kRowCosts> units_left{};
    int opens = 0;
    int closes = 0;
    double spent = 0;
    double written_bytes = 0;
    double deleted_bytes = 0;
  };
  static std::size_t index(RowCost cost) { return static_cast<std::size_t>(cost); }
  /// sum_k c_k * U_k: the units `left` by kind, each weighed by its kind's cost ratio.
  double weighted_units(const std::array<int, kRowCosts>& left) const;
  /// s for `available` seconds over the units `left` by kind, weighted, with the deletion of
  /// what they write [s].
  double per_unit(double available, const std::array<int, kRowCosts>& left) const;
  Part& part(int p) { return parts_.at(static_cast<std::size_t>(p)); }
  const Part& part(int p) const { return parts_.at(static_cast<std::size_t>(p)); }
  Schedule schedule_;
  std::vector<Part> parts_;
  int files_;      ///< per partition
  int rows_done_ = 0;
  std::array<int, kRowCosts> units_done_{};
  std::array<double, kRowCosts> seconds_done_{};
  double probe_write_seconds_ = 0;
  double probe_read_seconds_ = 0;
  bool deleting_;
  int opens_ = 0;
  int closes_ = 0;
  double open_seconds_ = 0;
  double close_seconds_ = 0;
  double probe_bytes_ = 0;
  double probe_seconds_ = 0;
  double deleted_bytes_ = 0;
  double deletion_seconds_ = 0;
  double synced_bytes_ = 0;
  double sync_seconds_ = 0;
  int syncs_ = 0;
  double shortest_sync_ = 0;
  double written_bytes_ = 0;
  double write_seconds_ = 0;
  double bookkeeping_seconds_ = 0;
  double charged_bookkeeping_ = 0;  ///< charged to partitions so far
  double first_bookkeeping_ = 0;    ///< up to the end of the first row
};

}  // namespace pbench::io
