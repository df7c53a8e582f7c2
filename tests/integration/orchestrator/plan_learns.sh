#!/usr/bin/env bash
# The plan learns (issues 37 and 51): once a sweep has run on this machine, each point of its next
# run is planned from history at exactly the time the point took in the run before (its stored
# start to end). The mechanism, not the clock: how close a plan comes to the next run's actual
# time is a figure, printed by bench/plan_vs_actual.sh (bench/README.md), never a test. Every
# worker on 2 processes with tiny settings through the local scheduler,
# or through the Slurm lab's sbatch as `slurm: plan_learns` (tests/integration/slurm/
# plan_learns.sh sources this file with PLAN_ARGS=(--scheduler slurm); "common.sh" is then the
# Slurm tests', which starts the lab).
source "$(dirname "$0")/common.sh"
[[ -v PLAN_ARGS ]] || PLAN_ARGS=()  # the local scheduler

# Tiny settings, as the other tests': what is checked is that run 2 is planned at run 1's stored
# times, which any time serves (bench/plan_vs_actual.sh runs seconds-long points, for the figure).
SETTINGS=("${SMALL[@]}" -T 0.5
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10
  --set io.memory_per_proc=1 --set io.cache_bytes=1000
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3
  --set links.latency_roundtrips=100 --set links.message_size=64KiB --set links.messages=2)
"$PBENCH" run learn --workers logp,comm,io,bcast,links --partitions 2 --queue-depths 1 \
  "${PLAN_ARGS[@]}" "${SETTINGS[@]}" > run1.out 2> run1.err || fail "run 1: $(tail -5 run1.err)"
"$PBENCH" run learn --again > run2.out 2> run2.err || fail "run 2: $(tail -5 run2.err)"
grep -q "planned about .* (5 points one after another: 5 history)" run2.err \
  || fail "run 2 not planned from run 1: $(grep planned run2.err)"
"$PBENCH" history learn --times --format json > times.json
"$PBENCH" history learn --times
$PY - <<'PYEOF' || fail "run 2 not planned at run 1's times: $(cat times.json)"
import json
rows = json.load(open("times.json"))["rows"]
first = {r["point"]: r for r in rows if r["run"] == 1}
second = [r for r in rows if r["run"] == 2]
assert len(first) == 5 and len(second) == 5, rows
for r in second:
    assert r["basis"] == "history", r
    took = first[r["point"]]["actual_time"]
    assert took is not None and took > 0, first[r["point"]]
    # The stored time itself (the JSON carries both to the last bit).
    assert abs(r["planned_time"] - took) <= 1e-9 * took, (r, took)
PYEOF
# The report shows each run's node-hours planned against charged (issue 50 item 4): the jobs'
# own times here, as sacct is not kept (the local scheduler; the Slurm lab has no accounting).
"$PBENCH" report learn -o report > report.out 2>&1 || fail "report: $(cat report.out)"
grep -q '<h2 id="cost">Cost: planned against charged</h2>' report/index.html \
  || fail "no cost section: $(grep -o '<h2[^>]*>[^<]*' report/index.html)"
for run in 1 2; do
  grep -Eq "Run $run: [0-9.e-]+ node-hours planned for 5 points, [0-9.e-]+ charged for the 5 that ended \(from the jobs(&#39;|&#x27;|') own times\)" \
    report/index.html || fail "run $run's sums not in the report: $(grep -o 'Run [12]: [^.]*' report/index.html)"
done
echo "ok"
