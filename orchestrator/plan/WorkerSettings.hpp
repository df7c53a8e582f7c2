#pragma once
// `pbench --set WORKER.NAME=VALUE` checked when planning against the worker's own parameters:
// the worker binary says which it has (--describe-parameters, JSON) and reads the values as it
// will in the job (units, numbers, lists), so a mistyped name or a bad value fails at once.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::run {

/// Asks a worker binary: `binary [ARGS] --describe-parameters`. Returns its JSON; throws
/// UsageError with the worker's own message when it refuses ARGS, or when it cannot answer.
using DescribeWorker =
    std::function<nlohmann::json(const std::string& binary, const std::vector<std::string>& args)>;

/// The real asker: runs the binary (found by locate_worker) through `runner`, once per binary
/// (unchanged on disk) and ARGS per process: the answers are kept (WorkerAnswers::shared()).
DescribeWorker describe_worker_with(process::ProcessRunner& runner);

/// The parameter names in a --describe-parameters answer.
std::vector<std::string> parameter_names(const nlohmann::json& description);

/// The range a --set value must lie in: the worker's own (its description's "minimum" and
/// "maximum") where it states one, else by the parameter's unit: a size 0 to 1 PiB, a time
/// -366 to 366 days, a time since the epoch up to 2100, flop/s up to 1e21, any other number
/// (a count) -1e9 to 1e9.
struct SettingRange {
  double least = -1e9;
  double most = 1e9;
  std::string unit;  ///< "B", "s", ... or empty (a count)
};
inline constexpr double kMostSettingBytes = 1125899906842624.0;      // 1 PiB
inline constexpr double kMostSettingSeconds = 366.0 * 24 * 3600;     // 366 days
SettingRange setting_range(const nlohmann::json& parameter);

/// Refuses a --set value (every number of a list) outside its parameter's range, naming the
/// range: UsageError. Words (a choice, a switch) are left to the worker.
void check_setting_range(const std::string& worker, const std::string& name,
                         const std::string& value, const nlohmann::json& parameter);

/// Checks every --set of `spec`: the name against the worker's parameters (with the closest
/// name suggested), its numbers against their range, then the values as the worker reads them.
/// Throws UsageError.
void check_worker_settings(const sweep::SweepSpec& spec, const DescribeWorker& describe);

}  // namespace pbench::run
