#!/usr/bin/env bash
# comm through the orchestrator: pbench run plans comm on partitions 1 and 2 (1 is not run: b_eff
# needs a pair), runs the 2-process point with mpiexec, stores it and prints the Table 1 layout;
# pbench query comm gives the same figures as the stored document, in table, CSV and JSON.
source "$(dirname "$0")/common.sh"
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
DEMO=(--set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
      --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 --set comm.seed=5)

"$PBENCH" run cs --workers comm --partitions 1,2 "${DEMO[@]}" > table.txt
cat table.txt
# (wider than 160 columns with the units beside the titles: the units go under them)
grep -qE "^ *sweep +row +procs .* b_eff +b_eff/proc " table.txt && grep -q "\[MB/s\]" table.txt ||
  fail "no Table 1 heading"
grep -q "note: sweep cs, partition 1: not run, b_eff needs at least 2 processes" table.txt ||
  fail "partition 1 is not explained"

"$PBENCH" query comm --sweep cs --format json > table.json
"$PY" - table.json "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
t = json.load(open(sys.argv[1]))
rows = t["rows"]
assert [(r["row"], r["partition"]) for r in rows] == [("partition", 2), ("max", 2)], rows
db = sqlite3.connect(sys.argv[2])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
doc = json.loads(db.execute("select document(packed) from results").fetchone()[0])
assert doc["worker"] == "comm" and doc["nprocs"] == 2
assert doc["parameters"]["memory_per_proc"]["value"] == 1048576, doc["parameters"]["memory_per_proc"]
assert doc["seeds"] == {"random_patterns": 5}
t1 = doc["measurements"]["table1"]
t1 = dict(zip([c["name"] for c in t1["columns"]], t1["rows"][0]))
for r in rows:
    for name, value in t1.items():
        if name != "processes":
            assert r[name] == value, (name, r[name], value)
    assert r["valid"] == "no"  # a shrunk configuration is not the reference one
units = {c["name"]: c["unit"] for c in t["columns"]}
assert units["b_eff"] == "B/s" and units["l_max"] == "B" and units["latency_pingpong"] == "s", units
job = db.execute("select job_id from attempts").fetchone()[0]
assert any(n.startswith("sweep cs: the largest b_eff") and f"job {job})" in n for n in t["notes"]), t["notes"]
PY
"$PBENCH" query comm --sweep cs --format csv > table.csv
"$PY" -c "import csv; r=list(csv.DictReader(open('table.csv'))); assert len(r)==2 and float(r[0]['b_eff [B/s]'])>0, r"

# Bad input: an unknown sweep, a comm sweep without a partition of 2; nothing stored changes.
before=$(sha256sum "$PBENCH_DB")
expect_fail 2 "no sweep named 'nope'" "$PBENCH" query comm --sweep nope
expect_fail 2 "--partitions: comm needs at least 2 processes and no partition has that many" \
  "$PBENCH" sweep one --workers comm --partitions 1
[[ "$(sha256sum "$PBENCH_DB")" == "$before" ]] || fail "a refused command changed the store"
echo "sweep: ok"
