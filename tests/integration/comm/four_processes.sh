#!/usr/bin/env bash
# A tiny real b_eff run on 4 processes (4 ranks on a small machine: sizes 1 B and L_max only):
# the result validates and its figures follow from its rows; the random rings are the ones
# --describe lists for the same seed without MPI, again in a second run, other for another seed.
# With fewer than 4 cores the run is oversubscribed: not valid, with that reason first.
source "$(dirname "$0")/common.sh"

orders() {  # the random patterns' orders of a result document, one line each
  "$PY" -c 'import json,sys
d = json.load(open(sys.argv[1])); t = d["measurements"]["patterns"]
k = [c["name"] for c in t["columns"]]
for r in t["rows"]:
    r = dict(zip(k, r))
    if r["kind"] == "random": print(r["pattern"], r["order"])' "$1"
}
run() {  # run SEED OUTPUT
  mpiexec -n 4 "$COMM" --memory-per-proc 1MiB --seed "$1" --sizes 1,21 --random-patterns 3 \
    --repetitions 1 --target-window 0.0002,0.0005 --start-looplength 5 --output "$2" > "$2.txt"
}

run 99 first.json
check_result first.json --expect-complete
"$PY" - first.json "$(nproc)" "$(hostname)" <<'PY'
import json, sys
d, cores, host = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
reasons = d["validity"]["reasons"]
# The node, and the machine it runs on: a hash of the kernel's boot id and its online CPUs.
[node] = d["node_cores"]
assert {k: node[k] for k in ("host", "ranks", "cores")} == {"host": host, "ranks": 4, "cores": cores}, node
assert len(node["machine"]) == 16 and int(node["machine"], 16) > 0, node
import os
assert node["machine_cpus"] == os.sysconf("SC_NPROCESSORS_ONLN"), node
if cores < 4:
    assert not d["validity"]["valid"], d["validity"]
    assert reasons[0] == f"oversubscribed: 4 ranks on {cores} cores of {host}", reasons
else:
    assert not [r for r in reasons if r.startswith("oversubscribed")], reasons
PY
run 99 second.json
run 100 other.json
[[ "$(orders first.json)" == "$(orders second.json)" ]] ||
  fail "the same seed gave other random rings: $(orders first.json) / $(orders second.json)"
[[ "$(orders first.json)" != "$(orders other.json)" ]] || fail "seeds 99 and 100 gave the same rings"
"$COMM" --describe --nprocs 4 --random-patterns 3 --seed 99 --format json > describe.json
"$PY" - describe.json <(orders first.json) <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
described = [f"{p['label']} {','.join(map(str, p['order']))}" for p in d["patterns"] if p["kind"] == "random"]
ran = open(sys.argv[2]).read().split("\n")[:-1]
assert described == ran, (described, ran)
labels = [p["label"] for p in d["patterns"] if p["kind"] == "ring"]
assert labels == ["ring1:2*2", "ring2:1*4", "ring3:1*4", "ring4:1*4", "ring5:1*4", "ring6:1*4"], labels
PY
echo "four processes: ok"
