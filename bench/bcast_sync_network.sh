#!/usr/bin/env bash
# The synchronized-clock broadcast against OL_i on real shaped links (issue 49): pbench-bcast
# --method sync (whose cross-check runs OL_i on the same task) at 2 ranks, one on each of two
# nodes of the networked Slurm lab (tests/slurm-lab/up --network: each node its own network
# host, the link between them shaped by tc), at each RATE in turn, RUNS times each. Prints per
# rate and size the sync OL, OL_i, their ratio and the result's own verdict (table sync_check),
# and the window and the clock's measured error. Starts the lab (as the slurm-network tests do)
# if it is not running, and leaves it running with its links at 1 Gbit/s.
#   bench/bcast_sync_network.sh [RATES (default 1gbit,250mbit)] [RUNS (default 3)]
# Environment: PBENCH_BCAST_SIZES (default 8,65536,1048576), BENCH_M (windows per measurement and
# OL_i loop length, default 20), BENCH_MEASUREMENTS (at most, default 10), PBENCH_BUILD_DIR (./build),
# PBENCH_KEEP=1 keeps the result documents (their path is printed);
# PBENCH_SLURM_LAB_DIR / PBENCH_SLURM_LAB_PORT as the tests take them (the networked lab lives
# in PBENCH_SLURM_LAB_DIR-net on PBENCH_SLURM_LAB_PORT + 10). Needs root or sudo (the lab).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
rates=${1:-1gbit,250mbit}
runs=${2:-3}
sizes=${PBENCH_BCAST_SIZES:-8,65536,1048576}
m=${BENCH_M:-20}
most=${BENCH_MEASUREMENTS:-10}
bcast=$build/workers/bcast/pbench-bcast
preload=$build/tests/libpbench_lab_ucx_disconnect_now.so
for f in "$bcast" "$preload"; do
  [[ -e $f ]] || { echo "bcast_sync_network: $f is missing: run scripts/build" >&2; exit 2; }
done
for n in "$runs" "$m" "$most"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bcast_sync_network: RUNS, BENCH_M and BENCH_MEASUREMENTS must be positive numbers: '$n'" >&2; exit 2; }
done
[[ $rates =~ ^[0-9]+[kmg]?bit(,[0-9]+[kmg]?bit)*$ ]] ||
  { echo "bcast_sync_network: RATES must be tc rates such as 1gbit,250mbit: '$rates'" >&2; exit 2; }
export PBENCH_SLURM_LAB_DIR="${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}-net"
export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 10))
lab=$root/tests/slurm-lab
eval "$("$lab/up" --nodes 4 --network --preload "$preload")"
export SLURM_CONF
work=$(mktemp -d "$PBENCH_SLURM_LAB_DIR/bcast-sync.XXXXXX")
if [[ -n ${PBENCH_KEEP:-} ]]; then
  trap '"$lab/shape" 1gbit > /dev/null 2>&1 || true; echo "kept: $work"' EXIT
else
  trap '"$lab/shape" 1gbit > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for rate in ${rates//,/ }; do
  "$lab/shape" "node1=$rate" "node2=$rate" > /dev/null
  for run in $(seq 1 "$runs"); do
    cat > "$work/job.sh" <<SH
#!/bin/bash
set -e
cd "$work"
mpiexec.hydra -n 2 "$bcast" --method sync --impl mpi --sizes $sizes --repetitions $m --max-measurements $most --output "$work/$rate-$run.json" > "$work/$rate-$run.log"
SH
    sbatch --parsable --wait -o "$work/$rate-$run.out" -N2 -w node1,node2 --ntasks-per-node=1 \
      "$work/job.sh" > /dev/null || { tail -20 "$work/$rate-$run.out" >&2; exit 1; }
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$work" "$rates" "$runs" <<'PY'
import json, os, sys
work, rates, runs = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
def table(doc, name):
    t = doc["measurements"][name]
    return [dict(zip([c["name"] for c in t["columns"]], row)) for row in t["rows"]]
print("| rate | size [B] | run | sync OL [us] | OL_i [us] | sync / OL_i | agree (band + clock error) | window [us] | windows spoiled | clock error [us] |")
print("|---|---|---|---|---|---|---|---|---|---|")
for rate in rates:
    for run in range(1, runs + 1):
        doc = json.load(open(os.path.join(work, f"{rate}-{run}.json")))
        hosts = {r["host"] for r in table(doc, "ol_i")}
        assert hosts == {"node2"}, hosts  # the checked task is across the link
        sync = {r["size"]: r for r in table(doc, "sync")}
        errors = [r["measured_error"] for r in table(doc, "clock")]
        for check in table(doc, "sync_check"):
            s = check["size"]
            print(f"| {rate} | {s} | {run} | {1e6 * check['sync_ol_i']:.1f} | {1e6 * check['ol_i']:.1f} | "
                  f"{check['sync_ol_i'] / check['ol_i']:.3f} | {'yes' if check['agree'] else 'no'} | "
                  f"{1e6 * sync[s]['window']:.0f} | {sync[s]['spoiled']} of {sync[s]['windows']} | "
                  f"{1e6 * max(errors):.2f} |")
PY
