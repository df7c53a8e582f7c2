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

/// The real asker: runs the binary (found by locate_worker) through `runner`.
DescribeWorker describe_worker_with(process::ProcessRunner& runner);

/// The parameter names in a --describe-parameters answer.
std::vector<std::string> parameter_names(const nlohmann::json& description);

/// Checks every --set of `spec`: the name against the worker's parameters (with the closest
/// name suggested), then the values as the worker reads them. Throws UsageError.
void check_worker_settings(const sweep::SweepSpec& spec, const DescribeWorker& describe);

}  // namespace pbench::run
