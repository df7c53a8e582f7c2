#pragma once
// A result held to the attempt that collects it: the sweep, point, attempt and nonce the worker
// wrote into its document ("origin", from the job's PBENCH_SWEEP, PBENCH_POINT, PBENCH_ATTEMPT
// and PBENCH_NONCE), and the arguments it ran with against the ones its point fixed.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pbench::ingest {

/// What the attempt that collects a result expects its document to name.
struct AttemptIdentity {
  std::string sweep;
  std::string point;    ///< the point key
  std::string attempt;  ///< the attempt's directory name, "attempt-N"
  /// The nonce the attempt's job made (its job.env), when it recorded one: a job rendered by
  /// this pbench always does, so its worker's document must carry it.
  std::optional<std::string> nonce;
  /// The worker arguments the point fixed (sweep::worker_arguments): queue depth, partition,
  /// T, hints, pattern, sizes and every --set.
  std::vector<std::string> arguments;
};

/// Why `doc` is not the result of `expected`'s attempt, naming what it says and what was
/// expected; "" when it is. A document without "origin" is the attempt's only when the job
/// recorded no nonce (a job script without the identity lines).
std::string origin_mismatch(const nlohmann::json& doc, const AttemptIdentity& expected);

/// The arguments a point fixed that `doc` did not run with ("ran with --queue-depths 1, its point
/// fixed 64"; "ran without --hint, its point fixed romio_cb_write=enable"), or that it cannot
/// tell (no "arguments"); "" when every fixed argument is the document's.
std::string argument_mismatch(const nlohmann::json& doc, const std::vector<std::string>& fixed);

/// Options and their values in command-line arguments: "--name=value" and "--name value" (a
/// value does not start with "--"); a later value of an option wins, as the worker reads them.
std::map<std::string, std::string> option_values(const std::vector<std::string>& arguments);

}  // namespace pbench::ingest
