#!/usr/bin/env bash
# pbench job script for the local scheduler, rendered by pbench; every substituted value is
# shell-quoted. Sweep {{sweep}}, point {{point_key}}: {{worker}} on {{partition}} processes.
set -u
# The job runs in its attempt directory (the scheduler starts it there).
pbench_now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
pbench_started=$(pbench_now)
pbench_signal=""
pbench_signal_source=""  # job: this script was signalled; command: its command was
# The exit marker: status, signal and times, written however the job ends (but SIGKILL of
# this shell itself, which the scheduler sees as a vanished job).
pbench_on_exit() {
  local status=$?
  if [[ -z "$pbench_signal" && $status -gt 128 ]]; then
    pbench_signal=$(kill -l $((status - 128)) 2>/dev/null || true)
    pbench_signal_source=command
  fi
  printf '{"status": %d, "signal": "%s", "signal_source": "%s", "started_at": "%s", "ended_at": "%s"}\n' \
    "$status" "$pbench_signal" "$pbench_signal_source" "$pbench_started" "$(pbench_now)" >exit.json.tmp
  mv -f exit.json.tmp exit.json
}
trap pbench_on_exit EXIT
trap 'pbench_signal=TERM pbench_signal_source=job; exit 143' TERM
trap 'pbench_signal=INT pbench_signal_source=job; exit 130' INT
echo $$ >job.pid.tmp && mv -f job.pid.tmp job.pid
export PBENCH_SWEEP={{sweep}} PBENCH_POINT={{point_key}}
# The site profile's lines and variables, the environment's, and the launch the worker records.
{{setup}}
{{command}}
