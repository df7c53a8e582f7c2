#pragma once
// LogGP as a model of the machine: what the parameters pbench-logp measured (Bell et al.) predict
// for the other workers' figures, and the rule that names why a measured figure differs from its
// prediction by more than the band. Pure arithmetic, unit-tested on hand-computed inputs; the
// formulas and their sources are in docs/model.md, and `pbench query model` (ModelQuery.hpp)
// feeds them from the store.
//
// The model, with m the message size in bytes and the 8-byte EEL as its anchor:
//   one_way(m)      = EEL + max(0, m - 8) * G(1)               a lone message (LogGP's
//                     o_s + L + o_r + (m-1)G with L = EEL - o_s - o_r measured at 8 B)
//   gap(m, q)       = g(q) + max(0, m - 8) * G(q)              time per message in a flood of q
//   train(m, k)     = one_way(m) + (k - 1) * gap(m, q(k))       k messages started at once, the
//                     last one received; q(k) = the measured queue depth for k outstanding
// comm's ping-pong: one_way(m), bandwidth m / one_way(m). A b_eff ring of size s: each process
// sends k = 2 messages at once (1 in a ring of 2), an iteration lasts train(m, k); per process
// k * m / train(m, k) (the slowest ring sets a pattern's time). The broadcast's OL: the tree of
// the implementation (workers/bcast/BroadcastShape.hpp) with HopCost {gap(m, 1) + d,
// one_way(m) + d} (d: the synthetic hop delay). A link of the matrix: n messages at once,
// n * m / train(m, n); its latency EEL.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BroadcastShape.hpp"

namespace pbench::query {

/// The band: a measured figure agrees with its prediction when measured / predicted lies within
/// [1 / kModelBand, kModelBand]. 1.25 is the factor by which pbench-logp's own gap fit must see
/// two slopes differ before it calls a protocol switch (GapFitOptions::slope_ratio), and its
/// inverse 0.8 the 20% by which query links calls a link weak (OutlierRule::share): a smaller
/// difference is one pbench does not call a difference elsewhere either.
inline constexpr double kModelBand = 1.25;
/// The message size of EEL and g [B].
inline constexpr double kEelSize = 8;

/// g and G measured at one queue depth.
struct LoggpDepth {
  int queue_depth = 1;
  double g = 0;      ///< [s] time per 8-byte message in the flood
  double big_g = 0;  ///< [s/B] the fitted gap per byte
};

struct LoggpParameters {
  double eel = 0;                  ///< [s] end-to-end latency of an 8-byte message
  std::vector<LoggpDepth> depths;  ///< by increasing queue depth; at least one

  /// The measured depth for `outstanding` messages started at once: the largest measured depth
  /// not above it, else the smallest measured.
  const LoggpDepth& depth_for(int outstanding) const;
  /// A lone message of `size` bytes from start to receipt [s].
  double one_way(double size) const;
  /// Time per message of `size` bytes in a flood at `depth` [s].
  double gap(double size, const LoggpDepth& depth) const;
  /// `count` messages of `size` bytes started at once, until the last is received [s].
  double train(double size, int count) const;
};

/// comm's ping-pong: half the round trip of `size` bytes [s].
double predicted_pingpong_time(const LoggpParameters& p, double size);
/// comm's ping-pong bandwidth of `size` bytes [B/s].
double predicted_pingpong_bandwidth(const LoggpParameters& p, double size);
/// Messages a process of a b_eff ring of `ring_size` processes sends in one iteration.
int ring_messages_per_process(int ring_size);
/// A b_eff ring pattern of rings of `ring_sizes` processes: bandwidth per participating process
/// at `size` bytes [B/s] (all messages of all rings over the slowest ring's iteration).
double predicted_ring_bandwidth_per_process(const LoggpParameters& p, double size,
                                            const std::vector<int>& ring_sizes);
/// The queue depth the ring prediction reads for `ring_sizes` (the largest ring's senders').
int ring_queue_depth(const LoggpParameters& p, const std::vector<int>& ring_sizes);
/// The broadcast's OL over `nprocs` processes along `algorithm`'s tree, at `size` bytes, with a
/// synthetic delay `hop_delay` before each send [s]: the largest completion over the tasks but
/// the root.
double predicted_broadcast_ol(const LoggpParameters& p, double size, bcast::Algorithm algorithm,
                              int nprocs, double hop_delay);
/// One link of the matrix: `messages` messages of `size` bytes at once [B/s].
double predicted_link_bandwidth(const LoggpParameters& p, double size, int messages);

/// Where a figure's messages ran, against where logp's pair ran.
enum class Path { unknown, shared_memory, network, mixed };
/// "shared memory", "network", "shared memory and network", "unknown".
std::string path_name(Path path);
/// True when a figure over `figure` cannot be predicted by a logp pair over `logp`: one of them
/// crosses nodes and the other does not (a mixed figure against a shared-memory pair too).
bool paths_differ(Path logp, Path figure);

/// One figure of a series (one pattern, one broadcast, one link matrix), by increasing size.
struct ModelPoint {
  double size = 0;  ///< [B]
  /// measured / predicted as a rate: > 1 is faster than the model (for a time, predicted /
  /// measured).
  double speed = 1;
  /// The measurement's own spread as speeds (its repetitions' lowest and highest, or a stated
  /// confidence interval), and how many samples it rests on; `samples` below 2 (or a NaN
  /// bound): the spread is unknown, and no difference from the model is established.
  double low = NAN, high = NAN;
  int samples = 0;
  /// Why the figure cannot be compared with the model at all ("4 ranks on 2 cores", "not
  /// valid", "logp not valid"); "" when it can.
  std::string not_comparable;
  bool path_differs = false;  ///< logp's pair ran on another path (paths_differ)
  bool weak = false;          ///< a link the link rule names weak (LinkOutliers.hpp)
  bool ring = false;          ///< a b_eff ring pattern
  /// Rings: the ping-pong's lowest speed over its repetitions at the same size in the same
  /// result, when measured on the ring's path.
  std::optional<double> pingpong_speed;
  /// Rings: the ping-pong ran on another path than the ring (inside a node against a ring
  /// across nodes): not compared.
  bool pingpong_elsewhere = false;
};

/// The reading of one point: `name` is "" when measured and predicted agree within the band,
/// else "not comparable: ..." (an oversubscribed or not valid result), "uncertain" (outside
/// the band, but the spread does not establish it), one of the causes "shared memory vs
/// network", "weak link", "contention", "protocol switch", or "unexplained" (established, no
/// cause fits); `why` says it in words (the same for every point of one cause, so that a note
/// can name them together).
struct ModelReading {
  std::string name;
  std::string why;
};

/// True when `speed` lies within the band.
bool within_band(double speed);
/// -1 when the point's whole spread lies below the band, +1 when above it, 0 when not
/// established (fewer than 2 samples, no spread, or a spread that reaches into the band).
int established_side(const ModelPoint& point);
/// The readings of a series, one per point, in its order (the rule of docs/model.md, "The
/// readings"). A point not comparable is read so, whatever its ratio; within the band it
/// agrees; outside it: its path differs from logp's pair; a weak link; else, unless its own
/// spread establishes the difference, uncertain; a ring below the model (and below the
/// ping-pong's lowest speed at that size by more than the band, where the ping-pong ran on its
/// path) at this size and a neighbouring one is contention; a level of at least two
/// neighbouring sizes, all established on one side of the band, that a jump whose spreads do
/// not overlap separates from its neighbours is a protocol switch; else unexplained.
std::vector<ModelReading> read_series(const std::vector<ModelPoint>& series);

}  // namespace pbench::query
