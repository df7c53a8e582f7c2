#include "site/ProfileSweep.hpp"

#include <set>

#include "util/Error.hpp"

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
}

}  // namespace pbench::site
