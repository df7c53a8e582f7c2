#include "logp/LogpParameters.hpp"

#include <algorithm>
#include <set>

namespace pbench::logp {

namespace {

/// The ranges (issue 51): wide enough for any run a person means, narrow enough that no count
/// overflows a product with another.
constexpr worker::Range kCountRange{1, 1e9};
constexpr worker::Range kRunsRange{1, 1e6};
constexpr worker::Range kQueueDepthRange{1, 65536};
constexpr worker::Range kSizeRange{1, static_cast<double>(kLargestSize)};
constexpr worker::Range kFloodBytesRange{1, static_cast<double>(1LL << 40)};

bool is_power_of_two(std::int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

}  // namespace

void LogpParameters::declare(worker::Parameters& parameters) {
  parameters.add("eel_roundtrips", eel_roundtrips, "count", kCountRange,
                 "Ping-pong round trips of an 8-byte message per EEL run");
  parameters.add("eel_runs", eel_runs, "count", kRunsRange,
                 "EEL runs; the minimum and the median over runs are reported (the method asks "
                 "for at least 10)");
  parameters.add("queue_depths", queue_depths, "messages", kQueueDepthRange,
                 "Flood-test queue depths q: sends (and posted receives) kept outstanding, "
                 "comma-separated");
  parameters.add("min_size", min_size, "B", kSizeRange,
                 "Smallest flood message, a power of two (g is the time per message at 8 B)");
  parameters.add("max_size", max_size, "B", kSizeRange,
                 "Largest flood message, a power of two (the method asks for at least 128 KiB)");
  parameters.add("flood_messages", flood_messages, "count", kCountRange,
                 "Messages N per flood measurement, before the byte cap");
  parameters.add("flood_bytes", flood_bytes, "B", kFloodBytesRange,
                 "Cap on N * size per flood measurement (N never drops below max(16, 2q))");
  parameters.add("repetitions", repetitions, "count", kRunsRange,
                 "Repetitions of every flood and overlap point; the minimum time is used");
  parameters
      .add("pairs", pairs, "",
           "Where the partners of each pair run: internode (different nodes, the network) or "
           "intranode (one node, shared memory); when no such pair exists the other kind is "
           "measured and the result says so")
      ->check(CLI::IsMember({"internode", "intranode"}));
}

void LogpParameters::check() const {
  if (pairs != "internode" && pairs != "intranode") {
    throw worker::UsageError("--pairs: '" + pairs + "' is not internode or intranode");
  }
  if (queue_depths.empty())
    throw worker::UsageError("--queue-depths: give at least one queue depth");
  std::set<int> seen;
  for (int q : queue_depths) {
    if (q < 1) {
      throw worker::UsageError("--queue-depths: " + std::to_string(q) +
                               " is not a queue depth (each must be an integer >= 1)");
    }
    if (!seen.insert(q).second)
      throw worker::UsageError("--queue-depths: " + std::to_string(q) + " appears twice");
  }
  if (eel_roundtrips < 1) throw worker::UsageError("--eel-roundtrips: must be >= 1");
  if (eel_runs < 1) throw worker::UsageError("--eel-runs: must be >= 1");
  if (flood_messages < 1) throw worker::UsageError("--flood-messages: must be >= 1");
  if (flood_bytes < 1) throw worker::UsageError("--flood-bytes: must be >= 1");
  if (repetitions < 1) throw worker::UsageError("--repetitions: must be >= 1");
  if (!is_power_of_two(min_size)) {
    throw worker::UsageError("--min-size: " + std::to_string(min_size) + " is not a power of two");
  }
  if (!is_power_of_two(max_size)) {
    throw worker::UsageError("--max-size: " + std::to_string(max_size) + " is not a power of two");
  }
  if (max_size > kLargestSize) {
    throw worker::UsageError("--max-size: " + std::to_string(max_size) + " exceeds " +
                             std::to_string(kLargestSize) + " bytes");
  }
  if (min_size > max_size) {
    throw worker::UsageError("--min-size: " + std::to_string(min_size) + " exceeds --max-size " +
                             std::to_string(max_size));
  }
}

std::vector<std::string> LogpParameters::method_deviations() const {
  // The rules' one home: ingest applies them to the parameters a document echoes.
  return worker::MethodRules::logp(eel_runs, max_size, min_size);
}

}  // namespace pbench::logp
