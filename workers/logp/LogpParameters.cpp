#include "logp/LogpParameters.hpp"

#include <algorithm>
#include <set>

namespace pbench::logp {

namespace {

bool is_power_of_two(std::int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

}  // namespace

void LogpParameters::declare(worker::Parameters& parameters) {
  parameters.add("eel_roundtrips", eel_roundtrips, "count",
                 "Ping-pong round trips of an 8-byte message per EEL run");
  parameters.add("eel_runs", eel_runs, "count",
                 "EEL runs; the minimum and the median over runs are reported (the method asks "
                 "for at least 10)");
  parameters.add("queue_depths", queue_depths, "messages",
                 "Flood-test queue depths q: sends (and posted receives) kept outstanding, "
                 "comma-separated");
  parameters.add("min_size", min_size, "B",
                 "Smallest flood message, a power of two (g is the time per message at 8 B)");
  parameters.add("max_size", max_size, "B",
                 "Largest flood message, a power of two (the method asks for at least 128 KiB)");
  parameters.add("flood_messages", flood_messages, "count",
                 "Messages N per flood measurement, before the byte cap");
  parameters.add("flood_bytes", flood_bytes, "B",
                 "Cap on N * size per flood measurement (N never drops below max(16, 2q))");
  parameters.add("repetitions", repetitions, "count",
                 "Repetitions of every flood and overlap point; the minimum time is used");
  parameters
      .add("pairs", pairs, "",
           "Where the partners of each pair run: internode (different nodes, the network) or "
           "intranode (one node, shared memory); when no such pair exists the other kind is "
           "measured and the result says so")
      ->check(CLI::IsMember({"internode", "intranode"}));
}

std::optional<std::string> LogpParameters::problem() const {
  if (pairs != "internode" && pairs != "intranode") {
    return "--pairs: '" + pairs + "' is not internode or intranode";
  }
  if (queue_depths.empty()) return "--queue-depths: give at least one queue depth";
  std::set<int> seen;
  for (int q : queue_depths) {
    if (q < 1) {
      return "--queue-depths: " + std::to_string(q) +
             " is not a queue depth (each must be an integer >= 1)";
    }
    if (!seen.insert(q).second) return "--queue-depths: " + std::to_string(q) + " appears twice";
  }
  if (eel_roundtrips < 1) return "--eel-roundtrips: must be >= 1";
  if (eel_runs < 1) return "--eel-runs: must be >= 1";
  if (flood_messages < 1) return "--flood-messages: must be >= 1";
  if (flood_bytes < 1) return "--flood-bytes: must be >= 1";
  if (repetitions < 1) return "--repetitions: must be >= 1";
  if (!is_power_of_two(min_size)) {
    return "--min-size: " + std::to_string(min_size) + " is not a power of two";
  }
  if (!is_power_of_two(max_size)) {
    return "--max-size: " + std::to_string(max_size) + " is not a power of two";
  }
  if (max_size > kLargestSize) {
    return "--max-size: " + std::to_string(max_size) + " exceeds " + std::to_string(kLargestSize) +
           " bytes";
  }
  if (min_size > max_size) {
    return "--min-size: " + std::to_string(min_size) + " exceeds --max-size " +
           std::to_string(max_size);
  }
  return std::nullopt;
}

std::vector<std::string> LogpParameters::method_deviations() const {
  // The rules' one home: ingest applies them to the parameters a document echoes.
  return worker::MethodRules::logp(eel_runs, max_size, min_size);
}

}  // namespace pbench::logp
