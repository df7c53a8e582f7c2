#pragma once
// The methods' rules on a run's parameters (METHODS.md), in one home: each worker applies them
// to the parameters it ran with, and the orchestrator applies them again at ingest to the
// parameters a result document echoes (orchestrator/ingest/DocumentRules.hpp), so that a
// document saying valid where its own parameters break a rule is stored not valid with the
// rule named. Pure C++ without MPI (library pbench_metric_catalogue, which both link).
//
// Which parameters a rule reads is the method's: logp's counts and message sizes (Bell et al.:
// the minimum over at least 10 EEL runs, a flood from 8 B to at least 128 KiB); comm's reference
// configuration (b_eff: 30 random patterns, 3 repetitions, the 2.5-5 ms window, a start loop
// length of 300); io's scheduled time per partition (b_eff_io rev 2.1: Tn >= 1800 s). bcast and
// links have no rule on their parameters that makes a run not valid (bcast's departures from
// the paper's M and measurement count are warnings; its 3% rule is on what it measured).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbench::worker {

class MethodRules {
 public:
  /// logp: EEL is the minimum over at least this many runs.
  static constexpr std::int64_t kLogpRuns = 10;
  /// logp: the flood test goes to at least 128 KiB ...
  static constexpr std::int64_t kLogpMaxSize = 128 * 1024;
  /// ... from 8-byte messages, at which g is defined.
  static constexpr std::int64_t kLogpMinSize = 8;
  /// comm's reference configuration.
  static constexpr int kCommRandomPatterns = 30;
  static constexpr int kCommRepetitions = 3;
  static constexpr std::int64_t kCommStartLooplength = 300;
  static constexpr double kCommWindowMin = 2.5e-3;
  static constexpr double kCommWindowMax = 5e-3;
  /// io: an official b_eff_io needs this scheduled time per partition [s] (rev 2.1's T_CRIT).
  static constexpr double kIoPartitionTime = 1800.0;

  /// Why a logp run with these parameters is not valid, one reason per rule broken:
  /// "eel_runs 3 < 10: the method takes the minimum over at least 10 runs".
  static std::vector<std::string> logp(std::int64_t eel_runs, std::int64_t max_size,
                                       std::int64_t min_size);
  /// comm's departures from its reference configuration among these parameters, each
  /// "random_patterns = 2 (reference 30)" (the worker adds its sizes and methods).
  static std::vector<std::string> comm(std::int64_t random_patterns, std::int64_t repetitions,
                                       double window_min, double window_max,
                                       std::int64_t start_looplength);
  /// How comm words its departures as one reason: "not the reference configuration: a; b".
  static std::string comm_reason(const std::vector<std::string>& departures);
  /// Why an io run whose `partitions` partitions each had `partition_time` seconds is not an
  /// official b_eff_io: "scheduled time per partition Tn = T / 2 = 0.5 s < 1800 s: ...".
  static std::optional<std::string> io(double partition_time, int partitions);
};

}  // namespace pbench::worker
