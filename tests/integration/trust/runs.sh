#!/usr/bin/env bash
# Runs of a sweep (issue 24): a run submitted again before the first was collected is stored
# too (collect stores every finished attempt, each once), and history shows both; --again
# refuses options that would change the sweep's definition, saying how to make such a run;
# run and status warn when a parameter came from the environment with values that differ
# between runs. Nothing stored is lost.
source "$(dirname "$0")/common.sh"
runs() {
  "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs").fetchone()[0])' \
    "$PBENCH_DB"
}

# submit --again before collect: both runs' results are stored, once.
"$PBENCH" sweep s --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
"$PBENCH" submit s --foreground > /dev/null 2>&1 || fail "submit s"
"$PBENCH" submit s --again --foreground > /dev/null 2>&1 || fail "submit s --again"
expect_results 0
"$PBENCH" collect s > collect.out 2> collect.err || fail "collect: $(cat collect.out collect.err)"
grep -q "sweep s: 2 results stored" collect.out || fail "collect stored: $(cat collect.out)"
expect_results 2
"$PBENCH" collect s > collect.out 2>&1 || fail "a second collect failed: $(cat collect.out)"
grep -q "sweep s: 0 results stored" collect.out || fail "stored twice: $(cat collect.out)"
expect_results 2
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("select run_no from results order by run_no").fetchall()
assert rows == [(1,), (2,)], rows
PY
"$PBENCH" history s --metric "logp_g" --format json > history.json
"$PY" - <<'PY'
import json
rows = json.load(open("history.json"))["rows"]
runs = sorted({r["run"] for r in rows if r.get("value") is not None})
assert runs == [1, 2], rows
PY

# --again with an option that changes the definition: refused, no run started, nothing lost.
before_runs=$(runs)
for option in "--set logp.eel_runs=3" "--workers comm" "--partitions 1" "-T 60" \
  "--hints romio_cb_write=enable" "--queue-depths 8" "--launcher srun" "--time-limit 5"; do
  # shellcheck disable=SC2086
  expect_fail 2 "would change that definition and cannot be given with --again" \
    "$PBENCH" run s --again $option
done
out=$("$PBENCH" run s --again --set logp.eel_runs=3 2>&1) || true
[[ "$out" == *"--set"*"pbench check NEW --against s"*"pbench sweep s ... --force --discard-results"* ]] \
  || fail "the refusal does not say how to make such a run: $out"
[[ $(runs) -eq $before_runs ]] || fail "a refused --again started a run"
expect_results 2

# A parameter from the environment that differs between runs: run and status warn.
export PBENCH_FLOOD_BYTES=8MiB
"$PBENCH" run e --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null 2> e1.err || fail "e: $(cat e1.err)"
"$PBENCH" run e --again > /dev/null 2> e2.err || fail "e again: $(cat e2.err)"
grep -q "warning: .*differ" e2.err && fail "warned with one environment value: $(cat e2.err)"
PBENCH_FLOOD_BYTES=4MiB "$PBENCH" run e --again > /dev/null 2> e3.err || fail "e again: $(cat e3.err)"
expect_results 5
warning="pbench: warning: logp parameter flood_bytes came from the environment (PBENCH_FLOOD_BYTES) with values that differ between runs of sweep e: "
grep -qF "$warning" e3.err || fail "run did not warn: $(cat e3.err)"
grep -F "$warning" e3.err | grep -q "4194304 in run 3; 8388608 in runs 1, 2" \
  || fail "the warning does not name the values and runs: $(cat e3.err)"
"$PBENCH" status e > /dev/null 2> status.err || fail "status"
grep -qF "$warning" status.err || fail "status did not warn: $(cat status.err)"
"$PBENCH" status s > /dev/null 2> status-s.err || fail "status s"
grep -q "warning" status-s.err && fail "status of a sweep without environment values warned: $(cat status-s.err)"
echo "runs: ok"
