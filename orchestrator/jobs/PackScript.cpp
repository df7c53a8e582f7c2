#include "jobs/PackScript.hpp"

#include "common/EnumName.hpp"
#include "jobs/ShellQuote.hpp"
#include "util/Error.hpp"

namespace pbench::run {

namespace {

constexpr EnumName<PackMode> kPackModeNames[] = {
    {PackMode::point, "point"}, {PackMode::partition, "partition"}, {PackMode::sweep, "sweep"}};

}  // namespace

PackMode pack_mode_from(const std::string& name) {
  if (const auto mode = value_named(kPackModeNames, name)) return *mode;
  throw UsageError("--pack: '" + name + "' is not one of point, partition, sweep");
}

std::string to_string(PackMode mode) {
  return name_of(kPackModeNames, mode, "point");
}

std::string render_pack_script(const std::vector<std::string>& directives,
                               const std::vector<std::string>& start, const std::string& sweep,
                               const std::vector<PackStep>& steps) {
  std::string s = "#!/usr/bin/env bash\n";
  s += "# pbench packed job of sweep " + sweep + ": " + std::to_string(steps.size()) +
       " points, one after another, each by its own job script in its attempt directory.\n";
  for (const auto& d : directives) s += d + "\n";
  for (const auto& line : start) s += line + "\n";
  s += R"SH(set -u
pbench_now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
pbench_started=$(pbench_now)
pbench_failed=0
pbench_signal=""
pbench_marker() {  # directory status signal started: the exit marker a job script writes
  printf '{"status": %d, "signal": "%s", "reason": "", "started_at": "%s", "ended_at": "%s"}\n' \
    "$2" "$3" "$4" "$(pbench_now)" >"$1/exit.json.tmp"
  mv -f "$1/exit.json.tmp" "$1/exit.json"
}
pbench_on_exit() {
  local status=$?
  ((status == 0 && pbench_failed)) && status=1
  pbench_marker . "$status" "$pbench_signal" "$pbench_started"
}
trap pbench_on_exit EXIT
trap 'pbench_signal=TERM; wait; exit 143' TERM
trap 'pbench_signal=INT; wait; exit 130' INT
# A step: the point's own job script in its attempt directory. It writes its own exit marker;
# when it could not (killed outright), the step writes one for it.
pbench_step() {  # key script directory
  local started status
  started=$(pbench_now)
  (cd "$3" && exec bash "$2" >stdout.log 2>stderr.log) &
  wait $!
  status=$?
  [[ -f "$3/exit.json" ]] || pbench_marker "$3" "$status" "" "$started"
  if ((status != 0)); then
    pbench_failed=1
    echo "pbench: point $1 exited $status" >&2
  fi
}
)SH";
  for (const auto& step : steps) {
    s += "pbench_step " + jobs::shell_quote(step.point_key) + " " +
         jobs::shell_quote(step.script_path) + " " + jobs::shell_quote(step.job_dir) + "\n";
  }
  return s;
}

}  // namespace pbench::run
