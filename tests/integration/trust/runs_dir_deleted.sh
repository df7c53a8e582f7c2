#!/usr/bin/env bash
# The runs directory deleted while a sweep runs (issue 38): the running point fails saying its
# attempt directory was deleted (not a kill, not the scheduler: exit 1, not 5), the next point
# is not submitted (its job script is gone, said with the way back), and the same `pbench sweep`
# line writes the scripts again so that `submit --retry-failed` runs every point. Nothing stored
# before is lost.
source "$(dirname "$0")/common.sh"

"$PBENCH" run base --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null 2>&1 || fail "base run"
expect_results 1
# Two points, one at a time; the first long enough (a few seconds) to delete the runs under it.
LONG=(--partitions 2 --queue-depths 1,2 --set logp.eel_roundtrips=20000 --set logp.eel_runs=20
      --set logp.max_size=1024 --set logp.repetitions=1 --set logp.flood_messages=500)
# run_deleted NAME 'progress' TENTHS 'what': `pbench run NAME` of LONG, one point at a time
# (stderr in NAME.err), has its runs directory deleted once it says the progress (within TENTHS
# tenths of a second), and exits 1.
run_deleted() {
  "$PBENCH" run "$1" "${LONG[@]}" --max-parallel 1 > "$1.out" 2> "$1.err" &
  local runner=$! rc=0
  await_line "$1.err" "$2" "$3" "$4"
  rm -rf "runs/$1"
  wait "$runner" || rc=$?
  [[ $rc -eq 1 ]] || fail "run after the runs directory was deleted exited $rc, expected 1: $(cat "$1.err")"
}
run_deleted gone "1 running" 600 "a point running"
grep -q "is gone (its runs directory deleted?): write the scripts again with the same \`pbench sweep gone ...\` line" \
  gone.err || fail "run did not say how to write the scripts again: $(cat gone.err)"
grep -q "KILL\|vanished\|scheduler error" gone.err && fail "run blamed a kill or the scheduler: $(cat gone.err)"
# The point that ran: failed, its attempt directory named, no kill.
collect_exits 1 gone deleted
grep -q "was deleted while the job ran (the runs directory removed?)" deleted.err ||
  fail "collect did not say the attempt directory was deleted: $(cat deleted.err)"
grep -q "KILL\|vanished" deleted.err && fail "collect called it a kill: $(cat deleted.err)"
expect_results 1

# The same sweep line writes the scripts again; --retry-failed then runs both points.
"$PBENCH" sweep gone "${LONG[@]}" > /dev/null || fail "sweep gone again"
[[ -f $(echo runs/gone/points/*/job.sh | cut -d' ' -f1) ]] || fail "the scripts were not written again"
"$PBENCH" submit gone --retry-failed --foreground > retry.out 2>&1 || fail "retry: $(cat retry.out)"
"$PBENCH" collect gone > collect.out 2> collect.err || fail "collect gone: $(cat collect.out collect.err)"
grep -q "2 results stored" collect.out || fail "collect gone: $(cat collect.out)"
expect_results 3
# Deleted after a point finished (issue 51): the driver stored that point's result as it ended,
# so deleting the runs directory while the next point runs loses nothing finished; status keeps
# to 160 columns.
run_deleted later "1 done, 1 running" 1200 "its second point running"
expect_results 4
"$PBENCH" status later > status.out 2>&1 || true
awk 'length > 160 { print "line " NR ": " length " columns"; bad = 1 } END { exit bad }' status.out ||
  fail "status is wider than 160 columns: $(cat status.out)"
# The same through pbench submit's background driver: it too stores each result as its point
# ends, so the first point's result is in the store before any collect, and deleting the runs
# directory under the second loses nothing finished.
"$PBENCH" sweep bg "${LONG[@]}" > /dev/null
"$PBENCH" submit bg --max-parallel 1 > bg.out 2>&1 || fail "submit bg: $(cat bg.out)"
in_state() {
  sqlite3 "$PBENCH_DB" "select count(*) from points p join sweeps s on s.id = p.sweep_id
                         where s.name = 'bg' and p.state = '$1'"
}
for _ in $(seq 1200); do
  [[ $(in_state done) -eq 1 && $(in_state running) -eq 1 ]] && break
  sleep 0.1
done
[[ $(in_state done) -eq 1 && $(in_state running) -eq 1 ]] ||
  fail "submit bg never had its second point running: $(cat runs/bg/driver.log 2>/dev/null)"
# Stored by the driver in the poll that saw the point done (a moment after its state).
for _ in $(seq 100); do [[ $(results "$PBENCH_DB") -eq 5 ]] && break; sleep 0.1; done
expect_results 5
rm -rf runs/bg
"$PBENCH" wait bg > wait.out 2>&1 && fail "wait bg said every point done: $(cat wait.out)"
expect_results 5
echo "runs directory deleted: ok"
