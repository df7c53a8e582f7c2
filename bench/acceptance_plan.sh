#!/usr/bin/env bash
# The 1,024-node acceptance sweep, planned (issue 50 item 5): every worker at its full method
# settings on partitions 64, 256 and 1024 nodes (one process per node) and two shapes (256x4,
# 1024x4), on Slurm, never submitted, in an empty store, with a site profile of a modern fabric
# (its [machine] figures: 1.5 us, 20 GB/s per process, 25 GB/s per node, a 100 GB/s file system,
# 50,000 file operations/s, 1 ms start-up per process). Prints the plan's totals per partition
# and per worker (node-hours, wall time) and the points that cost most.
# Usage: bench/acceptance_plan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
export PBENCH_WORKER_DIR="$build/workers/logp"
cat > fabric.toml <<'TOML'
[scheduler]
name = "slurm"
max_time_limit = "24:00:00"
[launcher]
name = "srun"
[machine]
cluster = "modern"
latency_us = 1.5
process_bandwidth_gb_s = 20
node_bandwidth_gb_s = 25
fs_bandwidth_gb_s = 100
fs_metadata_ops_s = 50000
startup_s_per_process = 0.001
TOML
"$build/orchestrator/pbench" sweep accept --site fabric.toml --workers logp,comm,io,bcast,links \
  --partitions 64x1,256x1,1024x1,256x4,1024x4 > /dev/null
"$build/orchestrator/pbench" plan accept --format json > plan.json
python3 - plan.json <<'PY'
import json, sys, collections
plan = json.load(open(sys.argv[1]))
rows = plan["rows"]
print("partition  wall time   node-hours  | per worker node-hours")
by = collections.defaultdict(lambda: collections.defaultdict(float))
for p in rows:
    by[p["partition"]][p["worker"]] += p["nodes"] * p["planned_time"] / 3600
for q in plan["partitions"]["rows"]:
    w = by.get(q["partition"], {})
    top = max(w.items(), key=lambda kv: kv[1])[0] if w else "-"
    print("%-9s %6.2f h %12.1f  | %s  (dominated by %s)" % (
        q["partition"], q["wall_time"] / 3600, q["node_hours"],
        ", ".join("%s %.1f" % kv for kv in sorted(w.items())), top))
print("\ncostliest points:")
for p in sorted(rows, key=lambda p: -p["nodes"] * p["planned_time"])[:5]:
    print("  %-6s %-7s %8.0f s %8.1f node-hours  limit %s (%s)  %s" % (
        p["worker"], p["partition"], p["planned_time"], p["nodes"] * p["planned_time"] / 3600,
        p["time_limit"], p["limit_from"], p["why"][:90]))
print("\n" + "\n".join(plan["partitions"]["notes"]))
PY
