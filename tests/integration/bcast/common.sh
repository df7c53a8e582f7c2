# Shared by the bcast worker's integration tests: a scratch directory (lib/scratch.sh), the
# worker binary, and assertions that print what went wrong.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCRATCH_NAME=pbench-bcast-it source "$here/../lib/scratch.sh"
WORKER=${PBENCH_BCAST:?PBENCH_BCAST must name the pbench-bcast binary}
VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name the pbench-validate-result binary}
# expect_fail CODE 'message part' command...: the command exits with CODE, says the message in
# at most two lines, and writes no result document r.json.
RESULT_DOCUMENT=r.json
source "$here/../lib/expect_refused.sh"
# run_worker NPROCS OUTPUT ARGS...: runs the worker, keeps its protocol in OUTPUT.log, and checks
# the document against the result schema (with the semantic checks).
run_worker() {
  local nprocs=$1 output=$2
  shift 2
  mpiexec -n "$nprocs" "$WORKER" --output "$output" "$@" > "$output.log" 2>&1 ||
    fail "pbench-bcast -n $nprocs $* failed: $(cat "$output.log")"
  "$VALIDATE" --semantics "$output" > /dev/null || fail "$output is not a valid result document: $("$VALIDATE" --semantics "$output")"
}
