#include "site/ProfileSweep.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::site {

void apply_site_profile(sweep::SweepSpec& spec, const std::optional<SiteProfile>& profile,
                        const GivenOption& given, const std::vector<std::string>& env_names) {
  if (!profile) {
    if (!env_names.empty()) {
      throw UsageError(
          "--envs needs a site profile that defines the environments (--site FILE, "
          "PBENCH_SITE, or ~/.config/pbench/site.toml)");
    }
    return;
  }
  if (profile->scheduler && !given("--scheduler")) spec.scheduler = *profile->scheduler;
  if (profile->dialect && spec.scheduler == "pbs") spec.dialect = *profile->dialect;
  if (profile->account && !given("--account")) spec.account = *profile->account;
  if (profile->queue && !given("--queue")) spec.queue = *profile->queue;
  if (profile->time_limit_seconds && !given("--time-limit")) {
    spec.time_limit_seconds = *profile->time_limit_seconds;
  }
  if (!profile->directives.empty() && !given("--directive")) spec.directives = profile->directives;
  if (profile->launcher && !given("--launcher")) spec.launcher = *profile->launcher;
  spec.lines = profile->lines;
  spec.variables = profile->variables;
  std::set<std::string> seen;
  for (const auto& name : env_names) {
    if (!seen.insert(name).second) {
      throw UsageError("--envs names the environment '" + name + "' twice");
    }
    spec.environments.push_back(profile->environment(name));
  }
  spec.site = {{"path", profile->path}, {"sha256", profile->sha256}};
  // The machine's figures and the longest limit, copied so the sweep's plan keeps them.
  if (profile->machine && !profile->machine->empty()) spec.machine = profile->machine->to_json();
  if (profile->max_time_limit_seconds) {
    spec.max_time_limit_seconds = *profile->max_time_limit_seconds;
  }
}

std::optional<std::string> profile_drift(const nlohmann::json& site, const std::string& sweep) {
  if (!site.is_object() || !site.contains("path") || !site["path"].is_string()) return std::nullopt;
  const std::string path = site["path"].get<std::string>();
  const std::string recorded = site.value("sha256", std::string());
  const std::string runs_recorded =
      ": --again runs the sweep as it was recorded then (its scheduler, launcher, lines, "
      "variables and environments), not as the file says now";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return "the site profile " + path + " that sweep " + sweep + " was made with cannot be read" +
           runs_recorded;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string now = sha256_hex(text.str());
  if (now == recorded) return std::nullopt;
  return "the site profile " + path + " has changed since sweep " + sweep + " was made (SHA-256 " +
         recorded.substr(0, 12) + "... then, " + now.substr(0, 12) + "... now)" + runs_recorded +
         "; for the file's, make a new sweep (pbench run NEW --site " + path +
         " ...; then pbench check NEW --against " + sweep + ")";
}

}  // namespace pbench::site
