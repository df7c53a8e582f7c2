#!/usr/bin/env bash
# A sweep a centre can afford (issue 50): --budget and --wall refuse a plan over them before
# anything is written or submitted, naming the costliest points and what fits; the site
# profile's [machine] figures plan before any run, each named by its source; its longest limit
# is what a guess gets; --set numbers out of their range are refused, the range named.
source "$(dirname "$0")/common.sh"
ALL=(--workers logp,comm,io,bcast,links --partitions 8,32,128)

# Over budget: refused, nothing written, nothing stored.
expect_fail 2 "sweep big is over its budget of 5 node-hours: planned" \
  "$PBENCH" sweep big --scheduler slurm "${ALL[@]}" --budget 5
out=$("$PBENCH" sweep big --scheduler slurm "${ALL[@]}" --budget 5 2>&1) || true
[[ "$out" == *"costliest: "*"; "*"; "*"fits"* ]] || fail "no costliest points or fit: $out"
# With room for all but the largest partition: that is what fits.
out=$("$PBENCH" sweep big --scheduler slurm --workers logp --partitions 8,32,128 --budget 0.6 \
  --set logp.eel_runs=2 2>&1) || true
[[ "$out" == *"without partition 128 it fits: "*"(--partitions 8,32)"* ]] ||
  [[ "$out" == *"without partitions 128, 32 it fits: "*"(--partitions 8)"* ]] ||
  fail "no partition dropped: $out"
[[ "$out" == *"Nothing was written or submitted"* ]] || fail "not said: $out"
[[ ! -e "$PBENCH_RUNS_DIR/big" && ! -e "$PBENCH_DB" ]] || fail "something was written"
expect_fail 2 "over its budget of 1m 00s of wall time" \
  "$PBENCH" sweep big --scheduler slurm "${ALL[@]}" --wall 1
expect_fail 2 "--budget: 'lots' is not a node-hour budget (a number more than 0, at most 1e9)" \
  "$PBENCH" sweep big --scheduler slurm --budget lots
# run: refused before a job is submitted or the store opened.
expect_fail 2 "sweep tiny is over its budget of 1e-06 node-hours" \
  "$PBENCH" run tiny --partitions 2 --queue-depths 1 "${SMALL[@]}" --budget 0.000001
[[ ! -e "$PBENCH_RUNS_DIR/tiny" && ! -e "$PBENCH_DB" ]] || fail "run wrote something"
# Within budget: planned; pbench plan says when a stored sweep is over another budget (exit 2).
"$PBENCH" sweep big --scheduler slurm "${ALL[@]}" --budget 100000 > big.out
rc=0
"$PBENCH" plan big --budget 10 > over.out 2> over.err || rc=$?
[[ $rc -eq 2 ]] || fail "plan over budget exited $rc"
grep -q "error: sweep big is over its budget of 10 node-hours" over.err || fail "$(cat over.err)"
grep -q "^    sweep      21 " over.out || fail "no plan shown: $(cat over.out)"
"$PBENCH" plan big --budget 100000 > /dev/null 2> plan.err || fail "$(cat plan.err)"
# Every job of it has a time limit.
for script in "$PBENCH_RUNS_DIR"/big/points/*/job.sh; do
  grep -q "^#SBATCH --time=" "$script" || fail "$script has no --time"
done

# A --set number out of its range: refused, the range named, nothing stored.
expect_fail 2 "--set logp.eel_runs=99999999999999999999: '99999999999999999999' is outside its range" \
  "$PBENCH" sweep huge --scheduler slurm --set logp.eel_runs=99999999999999999999
# In range but a plan past a year: refused, naming the point.
expect_fail 2 "(bcast at 2) is planned at" \
  "$PBENCH" sweep huge --scheduler slurm --workers bcast --partitions 2 \
  --set bcast.repetitions=10000000 --set bcast.max_measurements=1000000

# The site profile's [machine]: the plan names where each figure came from; its longest limit
# is what a point with no run to go by gets, and a bound past it is cut with a warning.
cat > site.toml <<'TOML'
[scheduler]
name = "slurm"
max_time_limit = "1:00:00"
[launcher]
name = "srun"
[machine]
cluster = "big"
latency_us = 1.5
process_bandwidth_gb_s = 20
node_bandwidth_gb_s = 25
fs_bandwidth_gb_s = 100
TOML
"$PBENCH" sweep fabric --site site.toml "${ALL[@]}" > fabric.out 2> fabric.err
grep -q "warning: point .* (io at 8): its time limit 1h 35m (bound) is past the longest the site allows, 1h 00m (the site profile's scheduler.max_time_limit)" \
  fabric.err || fail "no warning for io's bound past the longest: $(cat fabric.err)"
"$PBENCH" plan fabric --format json > fabric.json
$PY - <<'PYEOF' || fail "fabric plan: $(cat fabric.json)"
import json
plan = json.load(open("fabric.json"))
notes = " ".join(plan["partitions"]["notes"])
assert "latency 1.5 us (site profile site.toml [machine])" in notes, notes
assert "20 GB/s per process (site profile site.toml [machine])" in notes, notes
assert "ms per file operation (stated default)" in notes, notes
for p in plan["rows"]:
    assert p["time_limit"] == 3600, p
    assert p["limit_from"] == ("maximum" if p["worker"] == "io" else "guess"), p
PYEOF
expect_fail 2 "machine: latency_us: 0 is outside its range" \
  "$PBENCH" sweep bad --site <(printf '[machine]\nlatency_us = 0\n')
echo "ok"
