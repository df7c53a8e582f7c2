#!/usr/bin/env bash
# A full runs directory loses nothing finished (issue 51 item 4): the runs directory on a small
# tmpfs of its own, a sweep of three logp points one at a time, the file system filled while the
# second runs. The first point's result was stored as that point ended (the driver collects each
# point's result then, not only at the end); `run` exits non-zero, says the runs directory is
# full, leaves no partial exit marker (exit.json.tmp) unnamed, and status keeps to 160 columns.
# Needs to mount a tmpfs (root): skipped (77) where it cannot.
source "$(dirname "$0")/common.sh"

mnt="$work/mnt"
mkdir -p "$mnt"
mount -t tmpfs -o size=16m tmpfs "$mnt" 2> /dev/null || { echo "cannot mount a tmpfs: skipped"; exit 77; }
trap 'umount -l "$mnt" 2> /dev/null || true; rm -rf "$work"' EXIT
export PBENCH_RUNS_DIR="$mnt/runs"

base_run
# Three points, one at a time. The second is held before its command, by a template line, until
# the test has filled the file system, so that it is certainly running then whatever this
# machine's speed (unheld, a fast point ended before it was seen running, or wrote its result
# before the fill).
hold="if mkdir '$work/first' 2> /dev/null; then :; elif mkdir '$work/second' 2> /dev/null; then"
hold+=" touch '$work/held'; while [ ! -e '$work/release' ]; do sleep 0.1; done; fi"
template_with "$hold" held.sh
LONG=(--partitions 2 --queue-depths 1,2,4 --set logp.eel_roundtrips=500 --set logp.eel_runs=2
      --set logp.max_size=1024 --set logp.repetitions=1 --set logp.flood_messages=500)
"$PBENCH" run full "${LONG[@]}" --max-parallel 1 --template held.sh > full.out 2> full.err &
runner=$!
for _ in $(seq 6000); do [[ -e held ]] && break; sleep 0.1; done
[[ -e held ]] || fail "the second point was never held: $(cat full.err)"
await_line full.err "1 done, 1 running" 600 "its second point running"
# Fill the file system: nothing more can be written in the runs directory. Then the held point
# runs its command.
dd if=/dev/zero of="$mnt/filler" bs=64k 2> /dev/null || true
touch release
rc=0
wait "$runner" || rc=$?
[[ $rc -ne 0 ]] || fail "run with a full runs directory exited 0: $(cat full.err)"
# The point that had finished is stored.
n=$("$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
  "select count(*) from results r join points p on p.id = r.point_id join sweeps s on "
  "s.id = p.sweep_id where s.name = ?", ("full",)).fetchone()[0])' "$PBENCH_DB")
[[ $n -ge 1 ]] || fail "the finished point's result was lost ($n stored): $(cat full.err)"
expect_results $((1 + n))
# No partial exit marker left unnamed: each is removed, and its attempt says so.
left=$(find "$mnt/runs" -name exit.json.tmp)
[[ -z "$left" ]] || fail "partial exit markers were left: $left"
"$PBENCH" status full > status.out 2>&1 || true
awk 'length > 160 { print "line " NR ": " length " columns"; bad = 1 } END { exit bad }' status.out ||
  fail "status is wider than 160 columns: $(cat status.out)"
# Space again: the sweep goes on and stores the rest.
rm -f "$mnt/filler"
"$PBENCH" submit full --retry-failed --foreground > retry.out 2>&1 || fail "retry: $(cat retry.out)"
"$PBENCH" collect full > collect.out 2>&1 || fail "collect: $(cat collect.out)"
# Every point has its result now (the second and third measured by the retry), and nothing
# stored before was lost.
points=$("$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
  "select count(distinct r.point_id) from results r join points p on p.id = r.point_id join "
  "sweeps s on s.id = p.sweep_id where s.name = ?", ("full",)).fetchone()[0])' "$PBENCH_DB")
[[ $points -eq 3 ]] || fail "$points of the 3 points have a result after the retry: $(cat retry.out)"
expect_results 4
echo "full runs directory: ok"
