#!/usr/bin/env bash
# A launch that starts other processes than the point asked for (issue 24): a job template whose
# launch line starts 2 processes for partition 4, and singletons (each a world of 1: what a
# launcher whose PMI does not match the MPI library starts). With the partition exported by the
# job script, the worker refuses before measuring, naming the likely cause; from a template that
# does not export it, the result is stored not valid with the launch as its first reason, and
# collect says so and exits 4. Nothing stored before is lost.
source "$(dirname "$0")/common.sh"

# Something stored first, to count.
"$PBENCH" run base --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null 2>&1 || fail "base run"
expect_results 1

# refused_launch SWEEP TEMPLATE PARTITION 'WORKER MESSAGE' COUNT: pbench run with TEMPLATE fails
# its point (exit 1); COUNT worker processes said MESSAGE, no result was written, and run named
# the launch in its message.
refused_launch() {
  local rc=0
  "$PBENCH" run "$1" --template "$2" --partitions "$3" --queue-depths 1 "${SMALL[@]}" \
    > "$1.out" 2> "$1.err" || rc=$?
  [[ $rc -eq 1 ]] || fail "run $1 exited $rc: $(cat "$1.err")"
  local log
  log=$(echo runs/"$1"/points/*/attempt-1/stderr.log)
  [[ $(grep -cF "$4" "$log") -eq $5 ]] || fail "run $1: not $5 refusals '$4': $(cat "$log")"
  grep -q "PMI" "$log" || fail "run $1: the worker's error does not name the launcher's PMI"
  grep -q "launch: the job launches partition $3" "$1.err" || fail "run $1 did not say why: $(cat "$1.err")"
  [[ ! -e $(dirname "$log")/result.json ]] || fail "run $1: a refusing worker wrote a result"
  expect_results 1
}
# 1. Fewer processes, PBENCH_PARTITION exported by the job script: the worker refuses.
launch_template fewer.sh 'mpiexec -n 2 "$@"'
refused_launch fewer fewer.sh 4 "pbench-logp: error: launch: the job launches partition 4 (PBENCH_PARTITION), but this worker's MPI world has 2 processes: the launcher started singletons or fewer processes than asked" 1
# 2. Singletons, PBENCH_PARTITION exported: every one refuses.
launch_template singletons.sh '"$@" & first=$!; "$@"; rc=$?; wait $first || rc=$?; exit $rc'
refused_launch single singletons.sh 2 "but this worker's MPI world has 1 process: the launcher started singletons" 2

# 3. The same launches from templates that do not export the partition (written before it was):
# the results are stored, not valid, with the launch first; collect says so and exits 4.
launch_template fewer-old.sh 'unset PBENCH_PARTITION; mpiexec -n 2 "$@"'
launch_template singletons-old.sh 'unset PBENCH_PARTITION; "$@" & first=$!; "$@"; rc=$?; wait $first || rc=$?; exit $rc'
"$PBENCH" sweep fewer-old --template fewer-old.sh --partitions 4 --queue-depths 1 "${SMALL[@]}" > /dev/null
"$PBENCH" sweep single-old --template singletons-old.sh --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
for s in fewer-old single-old; do
  "$PBENCH" submit "$s" --foreground > /dev/null 2>&1 || fail "submit $s"
done
collect_exits 4 fewer-old collect
grep -q "stored not valid: launch: partition 4 asked, the result is from 2 processes" collect.err \
  || fail "collect did not say why: $(cat collect.err)"
grep -q "1 not launched as asked" collect.out || fail "collect's summary: $(cat collect.out)"
collect_exits 4 single-old collect1
grep -q "launch: partition 2 asked, the result is from 1 process" collect1.err \
  || fail "collect did not say why: $(cat collect1.err)"
expect_results 3
# Collected again: nothing new, nothing lost, exit 0.
"$PBENCH" collect fewer-old > /dev/null 2>&1 || fail "a second collect failed"
expect_results 3
# The tables show it not valid with the launch first.
"$PBENCH" query logp --sweep fewer-old --format json > fewer.json
"$PBENCH" query points --sweep single-old --format json > single.json
"$PY" - <<'PY'
import json
t = json.load(open("fewer.json"))
assert [r["valid"] for r in t["rows"]] == ["no"], t["rows"]
assert any("not valid: launch: partition 4 asked, the result is from 2 processes" in n for n in t["notes"]), t["notes"]
p = json.load(open("single.json"))["rows"]
assert len(p) == 1 and p[0]["placement"] == "launch: partition 2 asked, the result is from 1 process", p
PY
echo "wrong launch: ok"
