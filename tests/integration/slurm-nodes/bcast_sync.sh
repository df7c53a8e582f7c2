#!/usr/bin/env bash
# The synchronized-clock method at 8 and 16 ranks on the four-node lab (issue 49), in real sbatch
# jobs through mpiexec: with a known delay d = 20 ms before each send (large against a loaded
# 2-core machine's noise, so the oversubscribed ranks do not matter), the sync OL of the linear
# chain at 8 ranks is (P-1)·d = 7d and of the binomial tree at 16 ranks ceil(log2 P)·d = 4d, within
# hop_delay.sh's band [0.85, 1.25]; the OL_i series of the cross-check finds the latest task at
# the same truth, and every task of the chain arrives at its own model's time. The ranks' clocks
# are the lab nodes' (one kernel): sync_clocks.sh tests clocks that disagree.
source "$(dirname "$0")/common.sh"
BCAST=${PBENCH_BCAST:?PBENCH_BCAST must name the pbench-bcast binary}
VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name the pbench-validate-result binary}

d_us=20000
SYNC=(--method sync --hop-delay-us "$d_us" --sizes 8 --repetitions 5 --max-measurements 2
  --clock-error-bound-us 2000 --clock-fit-seconds 0.05 --check-tasks 1)
# job NAME NODES PER-NODE IMPL: the worker on NODES x PER-NODE ranks in one sbatch job.
job() {
  cat > "$1.sh" <<SH
#!/bin/bash
cd "$work"
exec mpiexec -n $(($2 * $3)) "$BCAST" --impl $4 ${SYNC[*]} --output $1.json
SH
  sbatch_wait -o "$work/$1.out" -N "$2" --ntasks-per-node="$3" -t 10 "$work/$1.sh" \
    > /dev/null || fail "job $1 failed: $(tail -20 "$work/$1.out")"
  "$VALIDATE" --semantics "$1.json" > /dev/null || fail "$1.json does not validate"
}
job linear8 4 2 linear
job binomial16 4 4 binomial

"$PY" - "$d_us" <<'PY' || fail "see above"
import json, math, sys
from result_tables import rows as table
from truth_checks import check, problems
d = float(sys.argv[1]) * 1e-6
LOW, HIGH = 0.85, 1.25
for name, procs, hops in [("linear8", 8, 7), ("binomial16", 16, math.ceil(math.log2(16)))]:
    doc = json.load(open(f"{name}.json"))
    check(doc["nprocs"] == procs and table(doc, "method")[0]["method"] == "sync",
          f"{name}: the sync method on {procs} ranks")
    m = {x["name"]: x["value"] for x in doc["summary"] if x["labels"].get("size") == 8}
    ol = m["ol"]
    check(LOW * hops * d <= ol <= HIGH * hops * d,
          f"{name}: sync OL {ol*1e3:.1f} ms within [{LOW}, {HIGH}] x {hops}·d = {hops*d*1e3:.0f} ms")
    checks = table(doc, "sync_check")
    latest = max(checks, key=lambda c: c["sync_ol_i"])
    check(LOW * hops * d <= latest["ol_i"] <= HIGH * hops * d,
          f"{name}: the OL_i series of the latest task {latest['task']} {latest['ol_i']*1e3:.1f} "
          f"ms at the same truth")
    arrivals = [r for r in table(doc, "sync_arrival") if r["rank"] != 0]
    check(len(arrivals) == procs - 1, f"{name}: an arrival for every task")
    if name.startswith("linear"):
        for r in arrivals:
            check(LOW * r["model"] <= r["arrival"] <= HIGH * r["model"],
                  f"{name}: task {r['rank']} arrives {r['arrival']*1e3:.1f} ms ~ model "
                  f"{r['model']*1e3:.0f} ms")
sys.exit(1 if problems else 0)
PY
echo "slurm nodes bcast sync: ok"
