#include "sweep/Environment.hpp"

namespace pbench::sweep {

nlohmann::json Environment::to_json() const {
  nlohmann::json vars = nlohmann::json::array();
  for (const auto& [n, v] : variables) vars.push_back({n, v});
  nlohmann::json j = {
      {"name", name}, {"worker_dir", worker_dir}, {"lines", lines}, {"variables", vars}};
  if (launcher) j["launcher"] = launcher->to_json();
  return j;
}

Environment Environment::from_json(const nlohmann::json& j) {
  Environment env;
  env.name = j.at("name").get<std::string>();
  env.worker_dir = j.at("worker_dir").get<std::string>();
  env.lines = j.value("lines", std::vector<std::string>{});
  for (const auto& pair : j.value("variables", nlohmann::json::array())) {
    env.variables.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
  }
  if (j.contains("launcher")) env.launcher = schedulers::LaunchSpec::from_json(j["launcher"]);
  return env;
}

}  // namespace pbench::sweep
