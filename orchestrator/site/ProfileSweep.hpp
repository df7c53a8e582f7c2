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

}  // namespace pbench::site
