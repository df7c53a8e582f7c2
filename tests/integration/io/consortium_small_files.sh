#!/usr/bin/env bash
# The consortium suite's many-small-files test with 2 processes: create, stat, open/close and
# remove rates in a shared and in per-process directories, recomputed from the rows; every
# small file is gone afterwards; zero files is refused.
source "$(dirname "$0")/common.sh"

mpiexec -n 2 "$PBENCH_IO" --suite consortium --transfer-size 1000 --block-size 2000 \
  --small_files 1 --files_per_process 40 --small-file-size 100 --iterations 2 --keep \
  --output result.json >protocol.txt 2>&1 || fail "exit $?: $(cat protocol.txt)"
validate result.json
[[ -z "$(find pbench-io.* -name 'small.*' -o -name 'f.*')" ]] || fail "small files left behind"
"$PY" - result.json <<'PYEOF' || fail "the small-files rows do not add up"
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["measurements"]["consortium_small_files"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
phases = ["create", "stat", "open_close", "remove"]
seen = sorted((r["directory"], r["phase"], r["iteration"]) for r in rows)
want = sorted((d, p, i) for d in ("shared", "per_process") for p in phases for i in (0, 1))
assert seen == want, seen
best = {}
for r in rows:
    assert r["files"] == 80, r
    assert r["aggregate_time"] == r["time_max"] > 0, r
    assert r["time_min"] <= r["time_mean"] <= r["time_max"], r
    assert abs(r["rate"] - 80 / r["aggregate_time"]) <= 1e-9 * r["rate"], r
    key = (r["directory"], r["phase"])
    best[key] = max(best.get(key, 0), r["rate"])
metrics = [m for m in doc["summary"] if m["unit"] == "1/s"]
assert len(metrics) == 8, metrics
for m in metrics:
    assert m["name"] == m["name"].split("_rate")[0] + "_rate"
    phase = m["name"][: -len("_rate")]
    assert abs(m["value"] - best[(m["labels"]["directory"], phase)]) <= 1e-9 * m["value"], m
    assert m["samples"] == 2
PYEOF
grep -q 'small files, per_process directory: remove' protocol.txt || fail "no protocol line"
rm -rf pbench-io.* result.json
out=$(mpiexec -n 2 "$PBENCH_IO" --suite consortium --small-files 1 --files-per-process 0 \
  --output result.json 2>&1) && fail "zero files accepted"
[[ "$out" == *"--files-per-process: must be >= 1 for the small-files test"* ]] ||
  fail "zero files: '$out'"
[[ ! -e result.json ]] || fail "zero files wrote a result"
no_benchmark_files
echo "consortium small files: ok"
