#pragma once
// Everything one logp run measured, collected on rank 0: the raw rows every table and every
// summary figure is computed from.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logp/LogpParameters.hpp"

namespace pbench::logp {

enum class OverlapSide { send, recv };

/// "send" or "recv".
const char* side_name(OverlapSide side);

struct EelRow {
  int pair = 0;
  int run = 0;
  std::int64_t roundtrips = 0;
  double total = 0;  ///< elapsed time of the run [s]
  /// EEL = total / roundtrips / 2 [s].
  double eel() const { return total / static_cast<double>(roundtrips) / 2.0; }
};

struct FloodRow {
  int pair = 0;
  int queue_depth = 1;
  std::size_t size = 0;      ///< [B]
  std::size_t messages = 0;  ///< N
  int repetition = 0;
  double total = 0;  ///< first send to the reply [s]
  /// Time per message = total / N [s].
  double per_message() const { return total / static_cast<double>(messages); }
};

struct OverlapRow {
  int pair = 0;
  OverlapSide side = OverlapSide::send;
  int step = 0;  ///< 0 for the baselines (no busy work), k for busy = k * t0 / 16
  int repetition = 0;
  double busy_target = 0;    ///< busy time asked for [s]
  double busy = 0;           ///< busy time per message, measured on the busy side [s]
  std::size_t messages = 0;  ///< N
  double total = 0;          ///< [s]
  double per_message() const { return total / static_cast<double>(messages); }
};

struct CalibrationRow {
  int rank = 0;
  std::string role;  ///< "send", "recv" or "idle"
  int trial = 0;
  std::uint64_t iterations = 0;
  double seconds = 0;
  double rate = 0;  ///< the rate the rank uses (fastest trial) [1/s]
};

/// Where the partners of one pair ran.
struct PairRow {
  int pair = 0;
  int sender = 0;
  int receiver = 0;
  std::string sender_host;
  std::string receiver_host;
  /// "internode" or "intranode", from the hosts.
  const char* placement() const { return sender_host == receiver_host ? "intranode" : "internode"; }
};

struct LogpMeasurements {
  LogpParameters parameters;
  int nprocs = 1;
  int pairs = 0;
  std::vector<int> idle_ranks;
  std::vector<PairRow> placement;            ///< one row per pair
  std::vector<std::string> placement_notes;  ///< fallback to the other kind, idle ranks
  std::vector<EelRow> eel;
  std::string eel_communicator;  ///< the name of the communicator the ping-pong ran on
  std::vector<FloodRow> flood;
  std::vector<OverlapRow> overlap;
  std::vector<CalibrationRow> calibration;
  std::size_t data_errors = 0;  ///< received messages with wrong first or last byte, all ranks
  double seconds = 0;           ///< wall time of the measurement on rank 0 [s]
};

}  // namespace pbench::logp
