#!/usr/bin/env bash
# Memory per process from the allocation: comm and io under SLURM_MEM_PER_NODE (as a Slurm job
# sets it) size L_max and M_PART from it, divided by the ranks on the node, and record where it
# came from; without it the source is the cgroup limit or the node's memory.
source "$(dirname "$0")/common.sh"
COMM_NO_MEMORY=("${COMM_TINY[@]:2}")   # without --memory-per-proc
IO_NO_MEMORY=(-T 0.3 --cache-bytes 1000 --partitions 2)

SLURM_MEM_PER_NODE=512 run 2 comm comm.json "${COMM_NO_MEMORY[@]}" --sizes 1
SLURM_MEM_PER_NODE=512 run 2 io io.json "${IO_NO_MEMORY[@]}"
run 2 comm plain.json "${COMM_NO_MEMORY[@]}" --sizes 1
"$PY" - comm.json io.json plain.json <<'PY'
import json, sys
def row(doc, table):
    t = doc["measurements"][table]
    return dict(zip([c["name"] for c in t["columns"]], t["rows"][0]))
comm, io, plain = (json.load(open(p)) for p in sys.argv[1:4])
expected = "SLURM_MEM_PER_NODE=512 / 2 processes on the node"
lmax = row(comm, "l_max")
assert lmax["memory_source"] == expected and lmax["memory_per_process"] == 256 * 2**20, lmax
assert lmax["l_max"] == 2 * 2**20, lmax
run = row(io, "run")
assert run["memory_source"] == expected and run["memory_per_process"] == 256 * 2**20, run
source = row(plain, "l_max")["memory_source"]
assert source.startswith(("cgroup limit ", "physical memory of the node (/proc/meminfo)")), source
assert source.endswith(" / 2 processes on the node"), source
PY
echo "memory per process from the allocation: ok"
