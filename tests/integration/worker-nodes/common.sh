# Shared by the worker-nodes tests: the workers, the validator, a scratch directory, tiny
# workloads (the tests check behaviour, not timings) and assertions that print what went wrong.
SCRATCH_NAME=pbench-worker-nodes
source "$(dirname "${BASH_SOURCE[0]}")/../lib/workers.sh"
HOST=$(hostname)
LOGP_TINY=(--eel-roundtrips 200 --eel-runs 2 --queue-depths 1 --max-size 1024
           --flood-messages 100 --repetitions 1)
COMM_TINY=(--memory-per-proc 1MiB --random-patterns 2 --repetitions 1
           --target-window 0.0002,0.0005 --start-looplength 10)
IO_TINY=(-T 0.3 --memory-per-proc 1 --cache-bytes 1000)

# run NPROCS WORKER OUTPUT ARGS...: a real run whose result validates.
run() {
  local n=$1 worker=$2 output=$3
  shift 3
  mpiexec -n "$n" "${WORKER[$worker]}" --output "$output" "$@" > "$output.log" 2>&1 ||
    fail "pbench-$worker -n $n $* failed: $(tail -5 "$output.log")"
  "$VALIDATE" --semantics "$output" > /dev/null ||
    fail "$output does not validate: $("$VALIDATE" --semantics "$output")"
}
