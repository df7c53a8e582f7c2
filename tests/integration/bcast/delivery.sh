#!/usr/bin/env bash
# The broadcasts deliver the root's bytes to every rank: each implementation (MPI_Bcast and the
# worker's own linear, backward and binomial) on 3 and 4 ranks, for sizes of 1 B, an odd size
# and one above the eager limit, from every root (the worker's delivery check broadcasts from
# each rank in turn, after filling the other ranks' buffers with the complement of the pattern).
# The measurements themselves are tiny here (M = 1, 2 measurements): this test checks bytes.
source "$(dirname "$0")/common.sh"

sizes=1,1000,65537
for nprocs in 3 4; do
  for impl in mpi linear backward binomial; do
    run_worker "$nprocs" "$impl-$nprocs.json" --impl "$impl" --root $((nprocs - 2)) \
      --sizes "$sizes" --repetitions 1 --max-measurements 2
    "$PY" - "$impl-$nprocs.json" "$nprocs" "$sizes" <<'PY' || fail "$impl on $nprocs ranks: see above"
import json, sys
path, nprocs, sizes = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
doc = json.load(open(path))
rows = doc["measurements"]["delivery"]["rows"]
# One row per size and root, every root checked, nprocs - 1 receivers, none with wrong bytes.
assert sorted((r[0], r[1]) for r in rows) == sorted((s, root) for s in sizes for root in range(nprocs)), rows
assert all(r[2] == nprocs - 1 and r[3] == 0 for r in rows), rows
assert not any("delivery check" in reason for reason in doc["validity"]["reasons"]), doc["validity"]
# Every task i != root has an OL_i for every size.
root = doc["parameters"]["root"]["value"]
ol_i = doc["measurements"]["ol_i"]["rows"]
assert sorted((r[0], r[1]) for r in ol_i) == sorted((s, t) for s in sizes for t in range(nprocs) if t != root), ol_i
PY
  done
done
echo "bcast delivery: ok"
