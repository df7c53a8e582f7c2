#!/usr/bin/env bash
# Three ranks (a tiny workload: more ranks than cores) with partitions given out of order, 3
# then 2: the distributed-array view, the ordered shared-pointer writes and the segments are
# laid out for an odd process count (every chunk read back carries its stamp), rank 2 idles
# during partition 2, and the reduction still recomputes. With fewer than 3 cores the run is
# oversubscribed: not valid, with that reason first.
source "$(dirname "$0")/common.sh"

mpiexec -n 3 "$PBENCH_IO" -T 0.3 --partitions 3,2 --termination batched "${SMALL[@]}" \
  --output result.json > protocol.txt
checked result.json protocol.txt --partitions 3,2 --schedule-time 0.3
"$PY" - result.json "$(nproc)" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cores = int(sys.argv[2])
oversubscribed = [r for r in doc["validity"]["reasons"] if r.startswith("oversubscribed")]
if cores < 3:
    assert not doc["validity"]["valid"] and doc["validity"]["reasons"][0] == oversubscribed[0], doc["validity"]
    assert oversubscribed[0].startswith(f"oversubscribed: 3 ranks on {cores} cores of "), oversubscribed
else:
    assert not oversubscribed, oversubscribed
metrics = {m["name"]: m for m in doc["summary"]}
assert metrics["read_errors"]["value"] == 0, metrics["read_errors"]
rows = doc["measurements"]["patterns"]["rows"]
assert [r[0] for r in rows[:43]] == [3] * 43 and rows[43][0] == 2, "partition order"
PY
no_benchmark_files
echo "three ranks: ok"
