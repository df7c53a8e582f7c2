#pragma once
// `pbench query model SWEEP`: what the LogGP parameters pbench-logp measured predict for the
// sweep's other figures (comm's ping-pong and b_eff rings per size, the broadcast's OL per size,
// every link of the link matrix), beside what was measured, with the ratio and a named reading
// where the two differ by more than the band (LoggpModel.hpp; formulas in docs/model.md).
#include <optional>
#include <string>

#include "query/LoggpModel.hpp"
#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The LogGP parameters of one environment and shape, and where they come from.
struct LogpSource {
  std::string sweep;
  std::optional<std::string> env;
  std::int64_t partition = 0;
  std::int64_t nodes = 0;  ///< 0 when unknown
  std::int64_t ppn = 0;
  std::string asked;          ///< the shape the point asked for ("2x1"), "" for a plain partition
  Path path = Path::unknown;  ///< where its pairs ran
  bool valid = true;          ///< every logp result behind it valid
  bool same_sweep = true;     ///< from the queried sweep (else the store's latest logp)
  LoggpParameters parameters;
  /// "logp of sweep S, 2 procs 1x2, shared memory pair, EEL 1.2 us".
  std::string label() const;
};

/// The logp sources for `sweep`: its own logp results in the run the store reads, one per
/// environment and shape; when it has none, those of the sweep with the store's newest logp
/// result (same_sweep false). Throws UsageError for an unknown sweep, and when neither exists.
std::vector<LogpSource> logp_sources(store::Store& store, const std::string& sweep);

/// The table: a row per predicted figure (comm: pingpong_time, pingpong_bandwidth and
/// ring_bandwidth_per_process per pattern and size; bcast: bcast_ol per size; links:
/// link_bandwidth and link_latency per ordered pair) with predicted, measured, ratio
/// (measured / predicted), reading, the logp source and queue depth it used, samples and
/// validity; notes state the band, each source, and every reading in words.
QueryTable model_table(store::Store& store, const std::string& sweep);

}  // namespace pbench::query
