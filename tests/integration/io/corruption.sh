#!/usr/bin/env bash
# A chunk overwritten between the writes and the reads is found by the read check: one wrong
# chunk per file (the first stamp of each of the 5 types' files), counted and reported, and the
# run is invalid.
source "$(dirname "$0")/common.sh"

mpiexec -n 2 "$PBENCH_IO" -T 0.6 --partitions 2 --inject-corruption "${SMALL[@]}" \
  --output result.json > protocol.txt
checked result.json protocol.txt --partitions 2 --schedule-time 0.6
"$PY" - result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["measurements"]["patterns"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
bad = sorted((r["access"], r["pattern"]) for r in rows if r["errors"])
assert bad == [("read", 0), ("read", 9), ("read", 17), ("read", 25), ("read", 34)], bad
assert all(r["errors"] == 1 for r in rows if r["errors"]), bad
metrics = {m["name"]: m for m in doc["summary"]}
assert metrics["read_errors"]["value"] == 5, metrics["read_errors"]
reasons = doc["validity"]["reasons"]
assert doc["validity"]["valid"] is False
assert any(r.startswith("read check: 5 chunks in 5 patterns") for r in reasons), reasons
assert any("--inject-corruption" in r for r in reasons), reasons
PY
no_benchmark_files
echo "corruption detected: ok"
