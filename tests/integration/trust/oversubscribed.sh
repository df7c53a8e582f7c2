#!/usr/bin/env bash
# Oversubscription is detected and stated by every worker (issue 36, item 2): ranks that outnumber
# the cores they may use on a node time the scheduler, not the method. `taskset -c 0` gives the
# ranks one core on any machine: 2 ranks of each worker on it are not valid with the reason
# "oversubscribed: 2 ranks on 1 core of HOST" first, and node_cores records the node; the same
# 2 ranks with the machine's cores (2 or more) have no such reason. Tiny workloads: MPICH's
# ranks busy-poll, so two of them on one core pass the core back and forth at each message.
SCRATCH_NAME=pbench-trust source "$(dirname "$0")/../lib/workers.sh"
WORKER[links]=${PBENCH_LINKS:?PBENCH_LINKS must name the pbench-links binary}
declare -A TINY=(
  [logp]="--eel-roundtrips 20 --eel-runs 1 --max-size 64 --repetitions 1 --flood-messages 20 --queue-depths 1"
  [comm]="--memory-per-proc 1MiB --random-patterns 1 --repetitions 1 --start-looplength 2 --sizes 1"
  [io]="-T 0.3 --memory-per-proc 1 --cache-bytes 1000"
  [bcast]="--sizes 8 --repetitions 5 --max-measurements 2"
  [links]="--latency-roundtrips 5 --message-size 1KiB --messages 2 --repetitions 1")
cores=$(nproc)
host=$(hostname)

# run WORKER OUTPUT [taskset -c 0]: 2 ranks of the worker with its tiny settings.
run() {
  local w=$1 output=$2
  shift 2
  # shellcheck disable=SC2086
  "$@" mpiexec -n 2 "${WORKER[$w]}" ${TINY[$w]} --output "$output" > "$output.log" 2>&1 ||
    fail "pbench-$w on 2 ranks ($*) failed: $(tail -5 "$output.log")"
  "$VALIDATE" --semantics "$output" > /dev/null ||
    fail "$output does not validate: $("$VALIDATE" --semantics "$output")"
}

for w in logp comm io bcast links; do
  run "$w" "$w-one-core.json" taskset -c 0
  run "$w" "$w.json"
  "$PY" - "$w" "$host" "$cores" <<'PY' || fail "pbench-$w: see above"
import json, sys
worker, host, cores = sys.argv[1], sys.argv[2], int(sys.argv[3])
one = json.load(open(f"{worker}-one-core.json"))
want = f"oversubscribed: 2 ranks on 1 core of {host}"
node_of = lambda doc: [{k: n[k] for k in ("host", "ranks", "cores")} for n in doc["node_cores"]]
assert node_of(one) == [{"host": host, "ranks": 2, "cores": 1}], one["node_cores"]
# The machine: a hash of the kernel's boot id, the same for every worker's run here.
assert len(one["node_cores"][0]["machine"]) == 16, one["node_cores"]
assert not one["validity"]["valid"], one["validity"]
assert one["validity"]["reasons"][0] == want, one["validity"]["reasons"]
assert sum(r.startswith("oversubscribed") for r in one["validity"]["reasons"]) == 1
both = json.load(open(f"{worker}.json"))
assert node_of(both) == [{"host": host, "ranks": 2, "cores": cores}], both["node_cores"]
assert both["node_cores"][0]["machine"] == one["node_cores"][0]["machine"], (one, both)
if cores >= 2:
    assert not any(r.startswith("oversubscribed") for r in both["validity"]["reasons"]), both["validity"]
print(f"{worker}: 2 ranks on 1 core: {want}; on {cores} cores: no oversubscription")
PY
done
for w in logp comm io bcast links; do
  grep -q "^pbench-$w: not valid: oversubscribed: 2 ranks on 1 core of $host$" "$w-one-core.json.log" ||
    fail "pbench-$w did not say it on stderr: $(tail -5 "$w-one-core.json.log")"
done
echo "every worker states its oversubscription: ok"
