#pragma once
// An environment of a sweep: one MPI library's build of the workers, with how to launch and set
// it up. A site profile defines them ([[environment]]); a sweep keeps a copy of each it runs in
// (--envs), so that it is reproducible when the profile changes.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "schedulers/Launcher.hpp"

namespace pbench::sweep {

/// Variables a job exports, NAME and value, in order.
using Variables = std::vector<std::pair<std::string, std::string>>;

/// A named set of worker directory, launcher, lines and variables: one MPI library's build.
struct Environment {
  std::string name;
  std::string worker_dir;                          ///< absolute
  std::optional<schedulers::LaunchSpec> launcher;  ///< none: the profile's
  std::vector<std::string> lines;
  Variables variables;

  nlohmann::json to_json() const;
  static Environment from_json(const nlohmann::json& j);
};

}  // namespace pbench::sweep
