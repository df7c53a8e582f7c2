#include "collect/EnvironmentDrift.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

namespace pbench::run {

std::vector<std::string> environment_drift(store::Store& store, const store::SweepRecord& sweep) {
  // Every setting that defines a chosen result of the sweep (the store's view result_settings):
  // worker, name, source, value (as JSON text) and run.
  auto s = store.db().prepare(
      "SELECT worker, name, coalesce(source, ''), coalesce(value, 'null'), run "
      "FROM result_settings WHERE sweep_id = ?1 ORDER BY run");
  s.bind(1, sweep.id);
  struct Seen {
    bool from_environment = false;
    std::map<std::string, std::set<int>> runs_by_value;
  };
  std::map<std::pair<std::string, std::string>, Seen> parameters;
  while (s.step()) {
    const std::string name = s.text(1);
    auto& seen = parameters[{s.text(0), name}];
    seen.from_environment = seen.from_environment || s.text(2) == "environment";
    seen.runs_by_value[s.text(3)].insert(static_cast<int>(s.int64(4)));
  }
  std::vector<std::string> lines;
  for (const auto& [key, seen] : parameters) {
    if (!seen.from_environment || seen.runs_by_value.size() < 2) continue;
    std::string variable = "PBENCH_" + key.second;
    std::transform(variable.begin(), variable.end(), variable.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::string values;
    for (const auto& [value, runs] : seen.runs_by_value) {
      std::string in;
      for (int run : runs) in += (in.empty() ? "" : ", ") + std::to_string(run);
      values +=
          (values.empty() ? "" : "; ") + value + (runs.size() == 1 ? " in run " : " in runs ") + in;
    }
    lines.push_back(key.first + " parameter " + key.second + " came from the environment (" +
                    variable + ") with values that differ between runs of sweep " + sweep.name +
                    ": " + values + "; those runs' figures are not of one definition");
  }
  return lines;
}

}  // namespace pbench::run
