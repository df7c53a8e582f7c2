# Shared by the orchestrator's integration tests and the others that drive pbench (query, report,
# bcast's sweep): a scratch directory (SCRATCH_NAME, pbench-it unless set) holding the store and
# the runs, the pbench binary, a small logp workload, and assertions that print what went wrong.
# Usage: [SCRATCH_NAME=pbench-<group>] source .../orchestrator/common.sh
SCRATCH_NAME=${SCRATCH_NAME:-pbench-it} source "$(dirname "${BASH_SOURCE[0]}")/../lib/scratch.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/job_template.sh"
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
# A logp run small enough for a test (the defaults are the method's).
SMALL=(--set logp.eel_roundtrips=500 --set logp.eel_runs=10 --set logp.max_size=131072
       --set logp.repetitions=1 --set logp.flood_messages=500)

# expect_fail CODE 'message part' command...: the command exits with CODE and says the message,
# with at most EXPECT_FAIL_LINES line breaks (3 unless set).
expect_fail() {
  local code=$1 message=$2 lines=${EXPECT_FAIL_LINES:-3}
  shift 2
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  [[ $rc -eq $code ]] || fail "'$*' exited $rc, expected $code; output: $out"
  [[ "$out" == *"$message"* ]] || fail "'$*' said '$out', expected it to contain '$message'"
  [[ $(printf '%s' "$out" | wc -l) -le $lines ]] || fail "'$*' said more than a clear line: $out"
}
# await_line FILE 'text' TENTHS 'what': waits up to TENTHS tenths of a second for a line with the
# text in FILE (a background run's stderr); fails saying "the run never had WHAT" and FILE if none.
await_line() {
  for _ in $(seq "$3"); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "the run never had $4: $(cat "$1")"
}
db_digest() { if [[ -f "$PBENCH_DB" ]]; then sha256sum "$PBENCH_DB" | cut -d' ' -f1; else echo none; fi; }
# interrupt_run SIGNAL NAME: starts 'pbench run NAME' of logp at its full settings (minutes) on
# partition 2 at queue depths 1 and 8, sends SIGNAL once a point runs, and sets rc to its exit
# status; its stderr is in NAME.err.
interrupt_run() {
  "$PBENCH" run "$2" --partitions 2 --queue-depths 1,8 > "$2.out" 2> "$2.err" &
  local runner=$!
  await_line "$2.err" "1 running" 600 "a point running"
  kill -"$1" "$runner"
  rc=0
  wait "$runner" || rc=$?
}
