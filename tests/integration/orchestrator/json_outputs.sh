#!/usr/bin/env bash
# --format json on sweep, plan, submit, status, wait and collect (issue 39 item 5): one schema,
# as list, history and check give it ({"columns": [{"name", "unit"}], "rows": [{...}], "notes":
# [...]}, a command's further table under its name in the same form), each parsed and its keys
# checked; and a failed point's line quotes the worker's own error line (item 8), in collect's
# notes, the worker table's and status's, where the worker refused a parameter it read from its
# environment.
job_template="$(cd "$(dirname "$0")/../../../jobtemplates" && pwd)/job.sh"
source "$(dirname "$0")/common.sh"

# check_schema FILE [NESTED...]: FILE is the one schema, with each NESTED table in it too.
check_schema() {
  "$PY" - "$@" <<'PY' || fail "$1 is not of the one schema: $(head -c 600 "$1")"
import json, sys
doc = json.load(open(sys.argv[1]))
def table(t, where):
    assert set(t) >= {"columns", "rows", "notes"}, (where, sorted(t))
    names = [c["name"] for c in t["columns"]]
    assert all(set(c) == {"name", "unit"} for c in t["columns"]), where
    for r in t["rows"]:
        assert sorted(r) == sorted(names), (where, sorted(r), names)
    assert all(isinstance(n, str) for n in t["notes"]), where
table(doc, sys.argv[1])
for nested in sys.argv[2:]:
    table(doc[nested], sys.argv[1] + " " + nested)
PY
}

# sweep --dry-run: the summary row and the points as plan gives them; nothing stored.
"$PBENCH" sweep js --partitions 2 --queue-depths 1,8 "${SMALL[@]}" --dry-run --format json \
  > dry.json
check_schema dry.json points
"$PY" - <<'PY' || fail "sweep --dry-run --format json: $(cat dry.json)"
import json
d = json.load(open("dry.json"))
row, = d["rows"]
assert row["sweep"] == "js" and row["outcome"] == "dry run" and row["points"] == 2, row
assert row["store"] is None and row["planned_time"] > 0, row
points = d["points"]["rows"]
assert [p["worker"] for p in points] == ["logp", "logp"], points
assert all(p["partition"] == "2" and p["processes"] == 2 and p["planned_time"] > 0
           for p in points), points
assert any("planned about" in n for n in d["notes"]), d["notes"]
open("failing.key", "w").write(points[0]["point"])
PY
[[ ! -e $PBENCH_DB ]] || fail "sweep --dry-run --format json made a store"

# One point is made to fail by its worker: a parameter from the environment it cannot read.
failing=$(cat failing.key)
awk -v key="$failing" '/^\{\{command\}\}$/ {
  print "if [ \"$PBENCH_POINT\" = " key " ]; then export PBENCH_FLOOD_BYTES=abc; fi" } { print }' \
  "$job_template" > failing.sh
grep -q "PBENCH_FLOOD_BYTES=abc" failing.sh || fail "could not make the test template"

"$PBENCH" sweep js --partitions 2 --queue-depths 1,8 "${SMALL[@]}" --template failing.sh \
  --format json > sweep.json
check_schema sweep.json points
"$PY" - "$PBENCH_DB" <<'PY' || fail "sweep --format json: $(cat sweep.json)"
import json, sys
row, = json.load(open("sweep.json"))["rows"]
assert row["outcome"] == "planned" and row["points"] == 2 and row["store"] == sys.argv[1], row
assert row["directory"].endswith("/runs/js") and row["discarded_results"] == 0, row
PY
"$PBENCH" sweep js --partitions 2 --queue-depths 1,8 "${SMALL[@]}" --template failing.sh \
  --format json > again.json
"$PY" -c 'import json; r, = json.load(open("again.json"))["rows"]; assert r["outcome"] == "unchanged", r' \
  || fail "the same sweep again: $(cat again.json)"

# plan: the points' table, the partitions' (with the sweep's row) under "partitions".
"$PBENCH" plan js --format json > plan.json
check_schema plan.json partitions
"$PY" - <<'PY' || fail "plan --format json: $(cat plan.json)"
import json
d = json.load(open("plan.json"))
assert len(d["rows"]) == 2 and all(r["basis"] == "method rule" for r in d["rows"]), d["rows"]
sweep, = [r for r in d["partitions"]["rows"] if r["partition"] == "sweep"]
assert sweep["points"] == 2 and sweep["wall_time"] > 0, sweep
PY

"$PBENCH" submit js --format json > submit.json
check_schema submit.json
"$PY" - <<'PY' || fail "submit --format json: $(cat submit.json)"
import json
d = json.load(open("submit.json"))
row, = d["rows"]
assert row["sweep"] == "js" and row["points"] == 2 and row["exit_status"] == 0, row
assert any(n.startswith("sweep js: planned ") for n in d["notes"]), d["notes"]
assert any(n.startswith("sweep js: submitting ") and "pbench wait js" in n for n in d["notes"]), d["notes"]
PY
rc=0
"$PBENCH" wait js --timeout 240 --format json > wait.json || rc=$?
[[ $rc -eq 1 ]] || fail "wait with a failed point exited $rc, expected 1: $(cat wait.json)"
check_schema wait.json
"$PY" - <<'PY' || fail "wait --format json: $(cat wait.json)"
import json
row, = json.load(open("wait.json"))["rows"]
assert row["sweep"] == "js" and row["points"] == 2, row
assert (row["done"], row["failed"], row["planned"], row["running"]) == (1, 1, 0, 0), row
assert row["exit_status"] == 1, row
PY

"$PBENCH" status js --format json > status.json
check_schema status.json partitions
"$PY" - <<'PY' || fail "status --format json: $(cat status.json)"
import json
d = json.load(open("status.json"))
assert sorted(r["state"] for r in d["rows"]) == ["done", "failed"], d["rows"]
part, = d["partitions"]["rows"]
assert (part["partition"], part["done"], part["failed"]) == (2, 1, 1), part
# The failed point's line, as collect says it: the worker's own error line.
said = [n for n in d["notes"] if "failed, exit status" in n]
assert len(said) == 1 and "pbench-logp: error: " in said[0] and "abc" in said[0], d["notes"]
PY

rc=0
"$PBENCH" collect js --format json > collect.json 2> collect.err || rc=$?
[[ $rc -eq 1 ]] || fail "collect with a failed point exited $rc, expected 1: $(cat collect.json)"
[[ ! -s collect.err ]] || fail "collect --format json wrote to stderr: $(cat collect.err)"
check_schema collect.json
"$PY" - "$failing" <<'PY' || fail "collect --format json: $(cat collect.json)"
import json, sys
d = json.load(open("collect.json"))
row, = d["rows"]
assert (row["stored"], row["failed"], row["not_finished"], row["exit_status"]) == (1, 1, 0, 1), row
# The failed point's line: the worker's own error line, naming the value it could not read.
line, = [n for n in d["notes"] if sys.argv[1] in n]
assert "failed, exit status" in line, line
assert "pbench-logp: error: " in line and "abc" in line, line
PY
# The worker table's note of the cell without a result quotes the same line.
"$PBENCH" query logp --sweep js --format json > logp.json
"$PY" - <<'PY' || fail "the logp table's notes: $(cat logp.json)"
import json
notes = json.load(open("logp.json"))["notes"]
assert any("no result: failed" in n and "pbench-logp: error: " in n and "abc" in n
           for n in notes), notes
PY

# --format takes table or json on these commands; anything else is refused (exit 2).
for cmd in "collect js" "wait js" "sweep js --partitions 2"; do
  rc=0
  out=$("$PBENCH" $cmd --format csv 2>&1) || rc=$?
  [[ $rc -eq 2 && $out == *"--format"* ]] || fail "'$cmd --format csv' exited $rc: $out"
done
echo "ok"
