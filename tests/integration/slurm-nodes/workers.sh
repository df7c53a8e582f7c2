#!/usr/bin/env bash
# The workers on several nodes of the lab, in real sbatch jobs: the host of every rank matches
# the shape asked for (2x1 through mpiexec, 2x2 through srun --mpi=pmi2); logp's pairs cross
# nodes by default (and stay on a node with --pairs intranode); comm counts the messages that
# cross nodes and reports b_eff per node; bcast names each OL_i's host; io on 2 nodes sees its
# directory from both and verifies a chunk written on the other node; memory per process comes
# from the job's --mem. Tiny workloads: the lab's nodes share 2 cores.
source "$(dirname "$0")/common.sh"
LOGP=${PBENCH_LOGP:?PBENCH_LOGP must name the pbench-logp binary}
COMM=${PBENCH_COMM:?PBENCH_COMM must name the pbench-comm binary}
IO=${PBENCH_IO:?PBENCH_IO must name the pbench-io binary}
BCAST=${PBENCH_BCAST:?PBENCH_BCAST must name the pbench-bcast binary}
VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name the pbench-validate-result binary}
LOGP_TINY="--eel-roundtrips 200 --eel-runs 2 --queue-depths 1 --max-size 1024 --flood-messages 100 --repetitions 1"
COMM_TINY="--random-patterns 2 --repetitions 1 --target-window 0.0002,0.0005 --start-looplength 10 --sizes 1,2"

# run_job NAME SBATCH-OPTIONS... : runs NAME.sh (already written) as a batch job and waits.
run_job() {
  local name=$1
  shift
  sbatch_wait -o "$work/$name.out" "$@" "$work/$name.sh" > /dev/null ||
    fail "job $name failed: $(tail -20 "$work/$name.out")"
  for result in "$work/$name".*.json; do
    "$VALIDATE" --semantics "$result" > /dev/null || fail "$result does not validate"
  done
}

cat > two_by_one.sh <<SH
#!/bin/bash
set -e
cd "$work"
mpiexec -n 2 "$LOGP" $LOGP_TINY --output two_by_one.logp.json
mpiexec -n 2 "$COMM" $COMM_TINY --output two_by_one.comm.json
mpiexec -n 2 "$BCAST" --sizes 8 --repetitions 10 --max-measurements 3 --output two_by_one.bcast.json
mpiexec -n 2 "$IO" -T 0.3 --memory-per-proc 1 --cache-bytes 1000 --partitions 2 --dir "$work" --output two_by_one.io.json
mpiexec -n 2 "$IO" --suite consortium --transfer-size 1000 --block-size 4000 --dir "$work" --output two_by_one.consortium.json
SH
run_job two_by_one -N2 --ntasks-per-node=1 --mem=300

cat > two_by_two.sh <<SH
#!/bin/bash
set -e
cd "$work"
srun --mpi=pmi2 "$LOGP" $LOGP_TINY --output two_by_two.logp.json
srun --mpi=pmi2 "$LOGP" $LOGP_TINY --pairs intranode --output two_by_two.intranode.json
SH
run_job two_by_two -N2 --ntasks-per-node=2

"$PY" - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
def load(name):
    return json.load(open(os.path.join(work, name)))
def table(doc, name):
    t = doc["measurements"][name]
    return [dict(zip([c["name"] for c in t["columns"]], row)) for row in t["rows"]]
def metric(doc, name):
    found = [m for m in doc["summary"] if m["name"] == name and not m["labels"]]
    assert len(found) == 1, (name, found)
    return found[0]["value"]

# 2x1: two ranks on two nodes, in every worker's document.
first = load("two_by_one.logp.json")
a, b = first["rank_hosts"]
assert a != b and first["hosts"] == [a, b], first["rank_hosts"]
for worker in ("logp", "comm", "bcast", "io", "consortium"):
    doc = load(f"two_by_one.{worker}.json")
    assert doc["rank_hosts"] == [a, b], (worker, doc["rank_hosts"])

pairs = table(first, "pairs")
assert pairs == [{"pair": 0, "sender": 0, "receiver": 1, "sender_host": a, "receiver_host": b,
                  "placement": "internode"}], pairs
assert metric(first, "internode_pairs") == 1
assert not [w for w in first["warnings"] if w.startswith("--pairs")], first["warnings"]

comm = load("two_by_one.comm.json")
crossings = table(comm, "pattern_nodes")
assert crossings and all(r["crossing_messages"] == r["messages"] and r["crossing_neighbours"] == "0-1"
                         for r in crossings), crossings
if metric(comm, "b_eff") is not None:
    assert abs(metric(comm, "b_eff_per_node") - metric(comm, "b_eff") / 2) <= 1e-9 * metric(comm, "b_eff")
memory = table(comm, "l_max")[0]
assert memory["memory_source"] == "SLURM_MEM_PER_NODE=300 / 1 process on the node", memory
assert memory["memory_per_process"] == 300 * 2**20, memory

bcast = load("two_by_one.bcast.json")
assert [(r["task"], r["host"]) for r in table(bcast, "ol_i")] == [(1, b)], table(bcast, "ol_i")

for worker in ("io", "consortium"):
    doc = load(f"two_by_one.{worker}.json")
    rows = table(doc, "read_back_across_nodes")
    assert [(r["host"], r["source_host"], r["wrong_bytes"]) for r in rows] == [(a, b, 0), (b, a, 0)], rows
    assert not [r for r in doc["validity"]["reasons"] if "read-back" in r], doc["validity"]["reasons"]
    assert not [w for w in doc["warnings"] if "read-back check" in w], doc["warnings"]

# 2x2 through srun: block placement, internode pairs 0-2 and 1-3 by default, 0-1 and 2-3 asked
# intranode.
inter, intra = load("two_by_two.logp.json"), load("two_by_two.intranode.json")
for doc in (inter, intra):
    c, _, d, _ = doc["rank_hosts"]
    assert doc["rank_hosts"] == [c, c, d, d] and c != d, doc["rank_hosts"]
assert [(p["sender"], p["receiver"], p["placement"]) for p in table(inter, "pairs")] == \
    [(0, 2, "internode"), (1, 3, "internode")], table(inter, "pairs")
assert metric(inter, "internode_pairs") == 2
assert [(p["sender"], p["receiver"], p["placement"]) for p in table(intra, "pairs")] == \
    [(0, 1, "intranode"), (2, 3, "intranode")], table(intra, "pairs")
assert metric(intra, "internode_pairs") == 0
PY
echo "workers on several nodes: ok"
