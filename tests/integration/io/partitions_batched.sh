#!/usr/bin/env bash
# Partitions 1,2 in one run (release-2 sequencing: all write, then rewrite, then read) with
# the batched termination rule, --rewrite-all and --keep; the system value is the maximum over
# the partitions with the partition that won.
source "$(dirname "$0")/common.sh"

mkdir files
mpiexec -n 2 "$PBENCH_IO" -T 1 --partitions 1,2 --termination batched --rewrite-all --keep \
  --dir files "${SMALL[@]}" --output result.json > protocol.txt
checked result.json protocol.txt --partitions 1,2 --rewrite-all \
  --schedule-time 1
"$PY" - result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["measurements"]["patterns"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
order = []
for r in rows:
    key = (r["access"], r["partition"])
    if not order or order[-1] != key:
        order.append(key)
assert order == [("write", 1), ("write", 2), ("rewrite", 1), ("rewrite", 2), ("read", 1),
                 ("read", 2)], order
run = dict(zip([c["name"] for c in doc["measurements"]["run"]["columns"]],
               doc["measurements"]["run"]["rows"][0]))
assert run["termination"] == "batched" and run["kept"] is True and run["rewrite_all"] is True
PY
# --keep left the files: 5 per partition plus one more file per process for type 2.
dir=$(ls -d files/pbench-io.*)
[[ $(ls "$dir" | wc -l) -eq 11 ]] || fail "expected 11 kept files in $dir: $(ls "$dir")"
[[ -f "$dir/p2_type2_rank1" && -f "$dir/p1_type0" ]] || fail "kept files misnamed: $(ls "$dir")"
echo "partitions and batched termination: ok"
