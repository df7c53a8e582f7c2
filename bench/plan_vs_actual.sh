#!/usr/bin/env bash
# Planned against actual (issue 37): runs one sweep of every worker RUNS times through the local
# scheduler (small settings, seconds a point; the test orchestrator/plan_learns.sh runs tinier) and
# prints per run and point the planned time, its basis and the actual time (pbench history
# --times), with the largest |actual - planned| / actual of the runs planned from history; then
# the load average, and how long `pbench sweep` + `pbench plan` take for sweeps of 128, 1,024
# and 8,192 nodes that are never submitted.
# Usage: bench/plan_vs_actual.sh [RUNS (default 3)] [BUILD_DIR (default ./build)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
build=${2:-$root/build}
pbench=$build/orchestrator/pbench
[[ -x $pbench ]] || { echo "plan_vs_actual: $pbench not built (run scripts/build)" >&2; exit 2; }
[[ $runs =~ ^[2-9][0-9]*$ ]] || { echo "plan_vs_actual: RUNS must be 2 or more" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/plan-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PBENCH_DB=$work/pbench.db PBENCH_RUNS_DIR=$work/runs
settings=(--set logp.eel_roundtrips=500 --set logp.eel_runs=10 --set logp.max_size=131072
  --set logp.repetitions=1 --set logp.flood_messages=500 -T 3
  --set comm.memory_per_proc=16MiB --set comm.random_patterns=2 --set comm.repetitions=1
  --set io.memory_per_proc=1 --set io.cache_bytes=1000
  --set bcast.sizes=8,256,65536 --set bcast.repetitions=20 --set bcast.max_measurements=8
  --set links.latency_roundtrips=100 --set links.message_size=64KiB --set links.messages=2)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$pbench" run learn --workers logp,comm,io,bcast,links --partitions 2 --queue-depths 1 \
  "${settings[@]}" > /dev/null 2> run-1.err
for run in $(seq 2 "$runs"); do "$pbench" run learn --again > /dev/null 2> "run-$run.err"; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$pbench" history learn --times
"$pbench" history learn --times --format json > times.json
/usr/bin/python3 - <<'PY'
import json
rows = [r for r in json.load(open("times.json"))["rows"] if r["basis"] == "history"]
worst = max(rows, key=lambda r: abs(r["actual_time"] - r["planned_time"]) / r["actual_time"])
within = sum(abs(r["actual_time"] - r["planned_time"]) <= 0.25 * r["actual_time"] for r in rows)
print(f"planned from history: {within} of {len(rows)} points within 25% of their actual time; "
      f"worst {worst['worker']} in run {worst['run']}: planned {worst['planned_time']:.2f} s, "
      f"actual {worst['actual_time']:.2f} s")
PY
for sweep in "card 8,32,128" "n1024 1024x1" "n8192 8192x1"; do
  set -- $sweep
  start=$(date +%s%N)
  "$pbench" sweep "$1" --scheduler slurm --partitions "$2" --workers logp,comm,io,bcast,links \
    | tail -1
  "$pbench" plan "$1" > /dev/null 2>&1
  echo "  sweep + plan: $((($(date +%s%N) - start) / 1000000)) ms"
done
