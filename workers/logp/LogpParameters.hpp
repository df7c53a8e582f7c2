#pragma once
// The logp worker's parameters (METHODS.md §4): defaults reproduce Bell et al.; each is an
// option, an environment variable and an entry of the result's parameter echo.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/MethodRules.hpp"
#include "common/Parameters.hpp"

namespace pbench::logp {

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;
/// The paper's flood test goes from 8 bytes to at least 128 KB (common/MethodRules.hpp).
inline constexpr std::int64_t kPaperMaxSize = worker::MethodRules::kLogpMaxSize;
/// The paper's minimum message: 8 bytes, so no layer can optimise the message away.
inline constexpr std::int64_t kPaperMinSize = worker::MethodRules::kLogpMinSize;
/// The paper's counts: 10,000 messages per test, minimum over at least 10 runs.
inline constexpr std::int64_t kPaperRoundtrips = 10000;
inline constexpr std::int64_t kPaperRuns = worker::MethodRules::kLogpRuns;
/// The largest message an int count can carry in this worker (1 GiB, a power of two).
inline constexpr std::int64_t kLargestSize = 1024 * kMiB;

struct LogpParameters {
  std::int64_t eel_roundtrips = kPaperRoundtrips;
  std::int64_t eel_runs = kPaperRuns;
  std::vector<int> queue_depths{1, 2, 4, 8, 16, 32, 64};
  std::int64_t min_size = kPaperMinSize;
  std::int64_t max_size = 4 * kMiB;
  std::int64_t flood_messages = 10000;
  std::int64_t flood_bytes = 16 * kMiB;
  std::int64_t repetitions = 3;
  /// Where the partners of a pair run: "internode" (different nodes) or "intranode".
  std::string pairs = "internode";

  /// Declares every parameter, bound to the members above (their values are the defaults).
  void declare(worker::Parameters& parameters);
  /// Throws worker::UsageError naming the option of the first problem with the values.
  void check() const;
  /// Why a run with these values is not valid by the method's rules (empty when it is).
  std::vector<std::string> method_deviations() const;
};

}  // namespace pbench::logp
