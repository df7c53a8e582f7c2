#pragma once
// The parameters of pbench-comm: declared once (command line, PBENCH_<NAME>, --help, echo) and
// checked before MPI starts, so bad input ends every process alike with nothing written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "comm/Method.hpp"
#include "common/MethodRules.hpp"

namespace pbench::worker {
class Parameters;
}

namespace pbench::comm {

/// The reference configuration: what the paper runs and published tables rest on.
/// (common/MethodRules.hpp: ingest holds a document's echoed parameters to the same rules.)
inline constexpr int kReferenceRandomPatterns = worker::MethodRules::kCommRandomPatterns;
inline constexpr int kReferenceRepetitions = worker::MethodRules::kCommRepetitions;
inline constexpr std::int64_t kReferenceStartLooplength = worker::MethodRules::kCommStartLooplength;
inline constexpr double kReferenceWindowMin = worker::MethodRules::kCommWindowMin;
inline constexpr double kReferenceWindowMax = worker::MethodRules::kCommWindowMax;

/// The options as given.
struct CommOptions {
  std::uint64_t memory_per_proc = 0;  ///< B; 0: physical memory of the node / processes on it
  std::string seed;                   ///< seed of the random patterns; empty: drawn and recorded
  int random_patterns = kReferenceRandomPatterns;
  int repetitions = kReferenceRepetitions;
  std::vector<std::string> sizes;     ///< positions 1..21 ("1,13-15,21"); empty: all 21
  std::vector<std::string> methods;   ///< method names; empty: all three
  std::vector<double> target_window{kReferenceWindowMin, kReferenceWindowMax};  ///< s
  std::int64_t start_looplength = kReferenceStartLooplength;
  double max_time = 0;                ///< s; 0: no limit
  double rmax = 0;                    ///< flop/s (Linpack R_max); 0: no balance factor
  bool describe = false;
  int nprocs = 0;                     ///< with describe: the process count to describe
  std::string format = "text";        ///< with describe: text or json

  /// Declares every option on `parameters`, bound to the members above.
  void declare(worker::Parameters& parameters);
};

/// The options checked and converted to what a run uses.
struct CommConfig {
  std::optional<std::uint64_t> memory_per_process;
  std::optional<std::uint32_t> seed;
  int random_patterns = kReferenceRandomPatterns;
  int repetitions = kReferenceRepetitions;
  std::vector<int> positions;  ///< measured size positions, 0-based, ascending
  std::vector<Method> methods;
  double window_min = kReferenceWindowMin;
  double window_max = kReferenceWindowMax;
  std::int64_t start_looplength = kReferenceStartLooplength;
  double max_time = 0;
  std::optional<double> rmax;
  bool describe = false;
  int nprocs = 0;
  bool json = false;
  /// Each way this run departs from the reference configuration ("repetitions = 1 (reference 3)").
  std::vector<std::string> departures;

  /// Checks the options; throws worker::UsageError naming the first problem.
  static CommConfig check(const CommOptions& options);
  /// Parses a seed: a whole number 0..4294967295 (drand48 seeds take 32 bits).
  static std::uint32_t parse_seed(const std::string& text);
  /// Parses size positions "1,13-15,21" (1-based, 1..21) into 0-based ascending positions.
  static std::vector<int> parse_positions(const std::vector<std::string>& items);
};

}  // namespace pbench::comm
