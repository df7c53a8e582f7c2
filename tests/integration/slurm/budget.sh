#!/usr/bin/env bash
# A sweep kept to its budget in the Slurm lab (issue 50 item 3): a run over its budget is refused
# before anything is written or reaches sbatch; a run whose jobs are charged more than planned
# stops submitting once the next point would pass the budget, says so, and keeps every result
# it stored; the points it did not submit stay planned, and `pbench wait` submits them.
source "$(dirname "$0")/common.sh"
# Every pbench job the lab knows (named pb-...; finished ones stay visible for MinJobAge).
jobs_known() { squeue -h -t all -o %j | grep -c '^pb-' || true; }

# Over budget: refused by run, nothing written or stored, no job submitted.
before=$(jobs_known)
expect_fail 2 "sweep big is over its budget of 0.001 node-hours: planned" \
  "$PBENCH" run big --scheduler slurm --share-nodes --workers logp,comm,io,bcast,links \
  --partitions 2 "${SMALL[@]}" --budget 0.001
[[ ! -e "$PBENCH_RUNS_DIR/big" && ! -e "$PBENCH_DB" ]] || fail "run wrote something"
[[ $(jobs_known) -eq $before ]] || fail "a job reached sbatch: $(squeue -h -t all)"

# Within its plan's budget, but every job sleeps 10 s first, far past the plan (the method
# rule's few seconds): the first point is charged its 10 s, and the second would pass the budget.
# (Only while slow.flag exists: the points `pbench wait` runs at the end need not be slow.)
touch "$work/slow.flag"
template_with "if [ -e '$work/slow.flag' ]; then sleep 10; fi" slow.sh
SLOW=(--scheduler slurm --share-nodes --partitions 2 --queue-depths 1,2,4 --template slow.sh
      "${SMALL[@]}")
# The budget: the plan's own total (a sweep of the same points, never submitted), and 1% more.
"$PBENCH" sweep slowplan "${SLOW[@]}" > /dev/null
"$PBENCH" plan slowplan --format json > plan.json
budget=$($PY - <<'PYEOF'
import json
rows = json.load(open("plan.json"))["rows"]
# Each point planned at a few seconds on 2 nodes: after the first job's 10 s, the charge and
# the next point's plan pass 1% over the three points' plan.
assert len(rows) == 3 and all(r["planned_time"] < 3 for r in rows), rows
print(f"{sum(r['nodes'] * r['planned_time'] for r in rows) / 3600 * 1.01:.9f}")
PYEOF
) || fail "plan: $(cat plan.json)"
before=$(jobs_known)
rc=0
"$PBENCH" run slow "${SLOW[@]}" --budget "$budget" --max-parallel 1 > slow.out 2> slow.err || rc=$?
grep -q "stopped submitting: .* node-hours charged and 0 committed, with point .* the run would pass its budget of 0.00[0-9]* node-hours" \
  slow.err || fail "run did not say it stopped: $(cat slow.err)"
[[ $(jobs_known) -eq $((before + 1)) ]] || fail "not one job submitted: $(squeue -h -t all)"
[[ $(point_states slow | tr '\n' ' ') == "2:done 2:planned 2:planned " ]] \
  || fail "states after the stop: $(point_states slow)"
grep -q "1 results stored" slow.err || fail "the ended point not stored: $(cat slow.err)"
[[ $rc -ne 0 ]] || fail "a run that stopped short exited 0"
"$PBENCH" history slow --times --format json > times.json
$PY - <<'PYEOF' || fail "charged: $(cat times.json)"
import json
doc = json.load(open("times.json"))
hours = doc["node_hours"]["rows"]
assert len(hours) == 1 and hours[0]["points"] == 3 and hours[0]["charged_points"] == 1, hours
# The lab keeps no accounting (sacct is off), so the charge is the job's own times.
assert hours[0]["charged_from"] == "the jobs' own times", hours
assert hours[0]["charged_node_hours"] > hours[0]["planned_node_hours"] / 3, hours
PYEOF
# Nothing stored was lost: the stopped points run without a budget.
rm "$work/slow.flag"
"$PBENCH" wait slow > wait.out 2>&1 || fail "wait: $(cat wait.out)"
[[ $(point_states slow | tr '\n' ' ') == "2:done 2:done 2:done " ]] \
  || fail "states after wait: $(point_states slow)"
echo "ok"
