#!/usr/bin/env bash
# A worker rank killed with SIGKILL mid-run under the local scheduler, through `pbench run` and
# through `pbench submit` + `wait`: its point is failed with the signal (KILL, from mpiexec's
# report) shown by status, `query points` and collect; the other points are done with their
# results stored whole; `submit --retry-failed` then fills the point in, keeping every attempt.
source "$(dirname "$0")/../orchestrator/common.sh"
source "$(dirname "$0")/faults.sh"

slow_template slow.sh
args=(kl --partitions 2 --queue-depths 1,8,64 --template slow.sh "${FAST[@]}")
key=$(point_key 8 "${args[@]}")
[[ "$key" =~ ^[0-9a-f]+$ ]] || fail "no key for the q=8 point: '$key'"
echo "$key" > "$slow_points"

# pbench run: plans, drives, collects, prints the table; the q=8 point's rank 0 is killed.
"$PBENCH" run "${args[@]}" > run.out 2> run.err &
run_pid=$!
kill_rank 8
rc=0
wait "$run_pid" || rc=$?
[[ $rc -eq 1 ]] || fail "run exited $rc, expected 1: $(cat run.err)"
no_ranks_left 8
grep -qF "logp p=2 q=8 [$key]: failed, exit status 9, signal KILL" run.err \
  || fail "run does not report the killed point: $(cat run.err)"
grep -qF "2 results stored" run.err || fail "run did not store the other results: $(cat run.err)"
check_sweep kl "1:done:0::1 8:failed:9:KILL:1 64:done:0::1"

# status and query points show the signal.
"$PBENCH" status kl --format json > status.json
"$PBENCH" query points --sweep kl --format json > points.json
"$PY" - status.json points.json "$key" <<'PY'
import json, sys
for path in sys.argv[1:3]:
    rows = {r["point"]: r for r in json.load(open(path))["rows"]}
    killed = rows[sys.argv[3]]
    assert (killed["state"], killed["exit_status"], killed["signal"]) == ("failed", 9, "KILL"), killed
    assert all(r["state"] == "done" and not r["signal"] for k, r in rows.items() if k != sys.argv[3]), rows
PY
# (Into a file first: `grep -q` in a pipe may close it early, and pipefail then fails.)
rc=0
"$PBENCH" collect kl > collect.txt 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "collect of a killed point exited $rc, expected 1: $(cat collect.txt)"
grep -F "failed, exit status 9, signal KILL" collect.txt >/dev/null ||
  fail "collect does not name the signal: $(cat collect.txt)"

# pbench submit (background driver) + wait: the retried point is killed again.
"$PBENCH" submit kl --retry-failed > submit.out
kill_rank 8
rc=0
"$PBENCH" wait kl --timeout 120 > wait.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "wait exited $rc, expected 1: $(cat wait.out)"
no_ranks_left 8
check_sweep kl "1:done:0::1 8:failed:9:KILL:2 64:done:0::1"

# Without the slow point, --retry-failed fills it in; the killed attempts stay recorded.
: > "$slow_points"
"$PBENCH" submit kl --retry-failed --foreground > retry.out 2>&1 || fail "retry failed: $(cat retry.out)"
"$PBENCH" collect kl > collect.out
grep -qF "1 results stored" collect.out || fail "collect after the retry: $(cat collect.out)"
check_sweep kl "1:done:0::1 8:done:0::3 64:done:0::1"
attempts=$(sqlite3 "$PBENCH_DB" "select group_concat(a.state || '/' || ifnull(a.exit_status, '') || '/' ||
           ifnull(a.signal, ''), ' ') from attempts a join points p on p.id = a.point_id
           where p.point_key = '$key' order by a.attempt_no")
[[ "$attempts" == "failed/9/KILL failed/9/KILL done/0/" ]] || fail "attempts of the killed point: $attempts"
echo "worker killed: ok"
