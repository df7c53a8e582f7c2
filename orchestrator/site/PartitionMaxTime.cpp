#include "site/PartitionMaxTime.hpp"

#include <chrono>
#include <sstream>

#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

namespace pbench::site {

namespace {

/// A time as Slurm and PBS print it ("1-00:00:00", "2:00:00", "30:00"); nothing for
/// "infinite", "UNLIMITED", "n/a" or anything else that is not a limit.
std::optional<int> limit_seconds(const std::string& text) {
  try {
    return sweep::parse_time_limit(text, "MaxTime");
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<ToldMaxTime> max_time_of_sinfo(const std::string& output, const std::string& queue) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string partition, limit;
    if (!(words >> partition >> limit)) continue;
    const bool is_default = !partition.empty() && partition.back() == '*';
    if (is_default) partition.pop_back();
    if (queue.empty() ? !is_default : partition != queue) continue;
    const auto seconds = limit_seconds(limit);
    if (!seconds) return std::nullopt;
    return ToldMaxTime{*seconds, "sinfo: MaxTime of partition " + partition};
  }
  return std::nullopt;
}

std::optional<ToldMaxTime> max_time_of_qstat(const std::string& output, const std::string& queue) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("resource_max.walltime");
    if (at == std::string::npos) continue;
    const auto equals = line.find('=', at);
    if (equals == std::string::npos) continue;
    std::istringstream value(line.substr(equals + 1));
    std::string limit;
    value >> limit;
    const auto seconds = limit_seconds(limit);
    if (!seconds) return std::nullopt;
    return ToldMaxTime{*seconds, "qstat: resource_max.walltime of queue " +
                                     (queue.empty() ? std::string("(default)") : queue)};
  }
  return std::nullopt;
}

std::optional<ToldMaxTime> partition_max_time(process::ProcessRunner& runner,
                                              const std::string& scheduler,
                                              const std::string& queue) {
  std::vector<std::string> argv;
  if (scheduler == "slurm") {
    argv = {"sinfo", "-h", "-o", "%P %l"};
  } else if (scheduler == "pbs") {
    argv = {"qstat", "-Qf"};
    if (!queue.empty()) argv.push_back(queue);
  } else {
    return std::nullopt;
  }
  if (!process::command_exists(argv[0])) return std::nullopt;
  try {
    const auto result = runner.run(argv, std::chrono::seconds(20));
    if (result.exit_code != 0) return std::nullopt;
    return scheduler == "slurm" ? max_time_of_sinfo(result.out, queue)
                                : max_time_of_qstat(result.out, queue);
  } catch (const std::exception&) {
    return std::nullopt;  // a scheduler that does not answer tells nothing
  }
}

}  // namespace pbench::site
