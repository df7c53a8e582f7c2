#!/usr/bin/env bash
# pbench plan (issue 37): every worker planned, the time limits rendered per scheduler follow
# the plan (or a given --time-limit), planned against actual in status and history, the next
# plan learns from a run, and bad input (a negative limit, an unknown sweep) is refused clearly.
source "$(dirname "$0")/common.sh"

# The card's sweep on Slurm, never submitted: every worker, per point a time, basis and limit.
"$PBENCH" sweep card --scheduler slurm --partitions 8,32,128 \
  --workers logp,comm,io,bcast,links > card.out
grep -q "^sweep card: planned about .* node-hours (21 points one after another: 21 method rule)" \
  card.out || fail "no planned line from sweep: $(cat card.out)"
"$PBENCH" plan card --format json > card.json
# check_limits FILE DIRECTIVE_PREFIX [GIVEN]: each point's script has the plan's limit.
check_limits() {
  $PY - "$1" "$2" "$PBENCH_RUNS_DIR" "${3:-}" <<'PYEOF' || fail "limits of $1"
import json, math, sys, pathlib
# The one schema of --format json: the points' table, the partitions' under "partitions".
plan = json.load(open(sys.argv[1])); prefix = sys.argv[2]; runs = pathlib.Path(sys.argv[3])
given = int(sys.argv[4]) if sys.argv[4] else 0
name = pathlib.Path(sys.argv[1]).stem
assert [c["name"] for c in plan["columns"]][:3] == ["point", "worker", "partition"], plan["columns"]
points = plan["rows"]
sweep_row = [r for r in plan["partitions"]["rows"] if r["partition"] == "sweep"]
assert len(sweep_row) == 1 and sweep_row[0]["points"] == len(points), plan["partitions"]
workers = {p["worker"] for p in points}
assert workers == {"logp", "comm", "io", "bcast", "links"}, workers
total = 0
for p in points:
    assert p["planned_time"] > 0, p
    assert p["basis"] == "method rule", p
    limit = p["time_limit"]
    if given:
        assert limit == given and p["limit_from"] == "given", p
    elif p["worker"] == "io":  # its bound (T x k, 3 x 1,800 s): + 5 min; planned about T
        assert p["limit_from"] == "bound", p
        assert limit == 5700, p
        assert p["planned_time"] < 1800 + 10, p
    else:  # a guess (no run here, no longest stated): x 1.5 + 5 min, at least an hour
        assert p["limit_from"] == "guess", p
        assert limit == max(3600, math.ceil((p["planned_time"] * 1.5 + 300) / 60) * 60), p
    hms = "%02d:%02d:%02d" % (limit // 3600, limit % 3600 // 60, limit % 60)
    script = (runs / name / "points" / p["point"] / "job.sh").read_text()
    assert prefix + hms + "\n" in script, (p["point"], prefix + hms)
    assert "pbench_time_limit_s=%d\n" % limit in script, p["point"]
    total += p["nodes"] * p["planned_time"] / 3600
node_hours = sweep_row[0]["node_hours"]
assert abs(total - node_hours) < 1e-6 * total, (total, node_hours)
assert sum(q["node_hours"] for q in plan["partitions"]["rows"] if q != sweep_row[0]) \
    - node_hours < 1e-6
assert any("node-hours" in n for n in plan["notes"]), plan["notes"]
PYEOF
}
check_limits card.json "#SBATCH --time="
# PBS: the same plan in walltime; a given --time-limit wins, with a warning where it is short.
"$PBENCH" sweep cardpbs --scheduler pbs --partitions 8,32 --workers logp,comm,io,bcast,links \
  > /dev/null
"$PBENCH" plan cardpbs --format json > cardpbs.json
check_limits cardpbs.json "#PBS -l walltime="
"$PBENCH" sweep short --scheduler slurm --partitions 8 --workers logp,comm,io,bcast,links \
  --time-limit 2 > /dev/null 2> short.err
"$PBENCH" plan short --format json > short.json
check_limits short.json "#SBATCH --time=" 120
grep -q "warning: --time-limit 120 s is shorter than the .* comm at 8 is planned to run" short.err \
  || fail "no warning for a limit shorter than the plan: $(cat short.err)"
"$PBENCH" plan card > card.txt 2> card.err
grep -q "^    sweep      21 " card.txt || fail "no sweep row: $(cat card.txt)"
grep -q "node-hours" card.err || fail "no summary line: $(cat card.err)"

# Bad input: a clear one-line error, nothing stored.
expect_fail 2 "no sweep named 'nosuch' in the store" "$PBENCH" plan nosuch
expect_fail 2 "--time-limit: '-5' is negative: a time limit must be more than 0" \
  "$PBENCH" sweep neg --scheduler slurm --time-limit -5
expect_fail 2 "--time-limit: '-1:00' is negative" \
  "$PBENCH" sweep neg --scheduler slurm --time-limit=-1:00

# A small local run: the plan before it (method rule), planned against actual after it, and the
# next plan from its actual time (history).
"$PBENCH" run small --partitions 2 --queue-depths 1 "${SMALL[@]}" > small.out 2> small.err
grep -q "pbench: sweep small: planned about .* (1 points one after another: 1 method rule)" \
  small.err || fail "no planned line from run: $(cat small.err)"
"$PBENCH" status small --format json > status.json
$PY - <<'PYEOF' || fail "status: $(cat status.json)"
import json
rows = json.load(open("status.json"))["rows"]
assert len(rows) == 1 and rows[0]["planned_time"] > 0 and rows[0]["actual_time"] > 0, rows
PYEOF
"$PBENCH" plan small --format json > small.json
"$PBENCH" history small --times --format json > times.json
$PY - <<'PYEOF' || fail "plan after a run: $(cat small.json) $(cat times.json)"
import json
plan = json.load(open("small.json")); times = json.load(open("times.json"))["rows"]
point = plan["rows"][0]
assert point["basis"] == "history" and "sweep small run 1" in point["why"], point
assert len(times) == 1 and times[0]["basis"] == "method rule", times
assert abs(point["planned_time"] - times[0]["actual_time"]) < 1e-6, (point, times)
assert point["time_limit"] is None and point["limit_from"] is None  # the local scheduler: none
# Planned against charged node-hours: one node (local), charged by the job's own times.
hours = json.load(open("times.json"))["node_hours"]["rows"]
assert len(hours) == 1 and hours[0]["worker"] == "logp" and hours[0]["charged_points"] == 1, hours
assert hours[0]["charged_from"] == "the jobs' own times", hours
assert abs(hours[0]["charged_node_hours"] - times[0]["actual_time"] / 3600) < 1e-9, hours
assert abs(hours[0]["planned_node_hours"] - times[0]["planned_time"] / 3600) < 1e-9, hours
PYEOF
# Another sweep of the same worker at a partition this machine has not run: scaled from it.
"$PBENCH" sweep other --partitions 2 --queue-depths 8 "${SMALL[@]}" > other.out
grep -q "(1 points one after another: 1 scaled)" other.out || fail "not scaled: $(cat other.out)"
# The broadcast at scale (issue 49): at defaults the 1,024- and 8,192-node points plan below 50
# and 500 node-hours, each point's why naming the synchronized-clock method (OL_i alone was
# 19,924 and 1,654,829).
for spec in 1024:50 8192:500; do
  n=${spec%%:*} budget=${spec##*:}
  "$PBENCH" sweep "bcast$n" --workers bcast --partitions "${n}x1" --scheduler slurm > /dev/null ||
    fail "sweep bcast$n"
  "$PBENCH" plan "bcast$n" --format json > "bcast$n.json" || fail "plan bcast$n"
  $PY - "bcast$n.json" "$n" "$budget" <<'PYEOF' || fail "plan bcast$n: $(cat "bcast$n.json")"
import json, sys
plan, nodes, budget = json.load(open(sys.argv[1])), int(sys.argv[2]), float(sys.argv[3])
[point] = plan["rows"]
assert point["nodes"] == nodes and point["why"].startswith("bcast: method sync"), point
[part] = [r for r in plan["partitions"]["rows"] if r["partition"] == f"{nodes}x1"]
assert 0 < part["node_hours"] < budget, part
print(f"bcast at {nodes}x1: {part['node_hours']:.0f} node-hours (< {budget:.0f})")
PYEOF
done
echo "ok"
