# Shared by the trust tests (issue 24: no silent wrong figure, no lost run): the orchestrator's
# scratch directory, pbench and a small logp workload (../orchestrator/common.sh), the built-in
# job templates to derive faulty ones from, and the store's result count, taken before and
# after each fault (nothing stored may be lost).
TEMPLATES="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../jobtemplates" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/../orchestrator/common.sh"
# A sweep of every worker on 2 processes, each at the smallest settings it measures with (a few
# seconds a point): the trust tests that edit every worker's document.
EVERY_WORKER=(--workers logp,comm,io,bcast,links --partitions 2 --queue-depths 1 -T 0.3
  --set logp.eel_roundtrips=500 --set logp.eel_runs=2 --set logp.max_size=1024
  --set logp.repetitions=1 --set logp.flood_messages=500
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 --set comm.sizes=1,13,21
  --set io.memory_per_proc=1 --set io.cache_bytes=1000
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3
  --set links.latency_roundtrips=20 --set links.message_size=4KiB --set links.messages=2
  --set links.repetitions=1)
# every_worker_run NAME: the sweep NAME of EVERY_WORKER made and run to its end (submit
# --foreground, its output in submit.out), not collected: its documents are
# runs/NAME/points/*/attempt-1/result.json.
every_worker_run() {
  "$PBENCH" sweep "$1" "${EVERY_WORKER[@]}" > /dev/null || fail "sweep $1"
  "$PBENCH" submit "$1" --foreground > submit.out 2>&1 || fail "submit $1: $(cat submit.out)"
}
# base_run: a small logp run (sweep base) stored before the faults, the store's one result:
# nothing stored may be lost.
base_run() {
  "$PBENCH" run base --partitions 1 --queue-depths 1 "${SMALL[@]}" > /dev/null 2>&1 || fail "base run"
  expect_results 1
}
# results [DB]: the number of results stored.
results() {
  "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from results").fetchone()[0])' \
    "${1:-$PBENCH_DB}"
}
# expect_results N [DB]: the store holds N results.
expect_results() {
  local n
  n=$(results "${2:-$PBENCH_DB}")
  [[ $n -eq $1 ]] || fail "the store holds $n results, expected $1"
}
# collect_exits CODE SWEEP NAME: `pbench collect SWEEP` exits CODE, its output in NAME.out and
# NAME.err (fails showing both otherwise).
collect_exits() {
  local rc=0
  "$PBENCH" collect "$2" > "$3.out" 2> "$3.err" || rc=$?
  [[ $rc -eq $1 ]] || fail "collect $2 exited $rc, expected $1: $(cat "$3.out" "$3.err")"
}
# launch_template NAME 'LINES': the local template with its launch line replaced by LINES (in
# which "$@" is the worker's command line without mpiexec -n P).
launch_template() {
  awk -v lines="$2" '/^\{\{command\}\}$/ { print "set -- {{command}}; shift 3"; print lines; next } { print }' \
    "$TEMPLATES/job.sh" > "$1"
  grep -q '^set -- ' "$1" || fail "could not make the test template $1"
}
