#pragma once
// A site profile applied to a sweep: the profile gives what the command line (or sweep file)
// leaves open — scheduler, dialect, account, queue, time limit, directives, launcher — and
// always its lines and variables; `--envs` picks its environments as a sweep dimension. The
// sweep records the profile's path and SHA-256, and copies what it used.
#include <functional>
#include <string>
#include <vector>

#include "site/SiteProfile.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::site {

/// True when the user gave the option ("--scheduler") for the sweep: the profile then yields.
using GivenOption = std::function<bool(const std::string& option)>;

/// Applies `profile` (none: only `env_names`, which then fail) to `spec`. Throws UsageError for
/// --envs without a profile, naming an environment the profile lacks, or naming one twice.
void apply_site_profile(sweep::SweepSpec& spec, const std::optional<SiteProfile>& profile,
                        const GivenOption& given, const std::vector<std::string>& env_names);

/// A warning when the site profile `site` (a sweep's record of it: {"path", "sha256"}) differs
/// from the file at that path now, or cannot be read: run or submit --again runs the sweep as
/// recorded, not as the file now says. Nothing for a sweep made without a profile, or when the
/// file is as recorded.
std::optional<std::string> profile_drift(const nlohmann::json& site, const std::string& sweep);

}  // namespace pbench::site
