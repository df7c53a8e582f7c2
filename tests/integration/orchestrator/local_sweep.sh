#!/usr/bin/env bash
# A real local sweep end to end: pbench run plans logp over partitions 1,2 and queue depths
# 1,8, runs it with mpiexec, collects into SQLite and prints the table read back from it.
source "$(dirname "$0")/common.sh"

"$PBENCH" run it --partitions 1,2 --queue-depths 1,8 "${SMALL[@]}" > table.txt
cat table.txt
grep -q "EEL \[us\]" table.txt || fail "no table heading"

"$PBENCH" query logp --sweep it --format json > table.json
"$PY" - table.json <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
rows = t["rows"]
assert [(r["partition"], r["queue_depth"]) for r in rows] == [(2, 1), (2, 8)], rows
for r in rows:
    assert r["eel"] > 0, r
    assert r["g"] > 0, r
    # G is positive with its reciprocal, or absent with the result marked not valid: a
    # disturbed flood curve must never show up as a negative or silent G.
    if r["big_g"] is None:
        assert r["valid"] == "no" and r["bandwidth"] is None, r
    else:
        assert r["big_g"] > 0 and abs(r["bandwidth"] * r["big_g"] - 1) < 1e-6, r
    assert r["o_s"] is not None and r["o_r"] is not None, r
    assert abs(r["latency_l"] - (r["eel"] - r["o_s"] - r["o_r"])) < 1e-12, r
units = {c["name"]: c["unit"] for c in t["columns"]}
assert units["eel"] == "s" and units["big_g"] == "s/B" and units["bandwidth"] == "B/s", units
assert any("partition 1" in n and "no pair" in n for n in t["notes"]), t["notes"]
PY

# The CSV form parses back with the same rows.
"$PBENCH" query logp --sweep it --format csv > table.csv
"$PY" -c "import csv,sys; r=list(csv.DictReader(open('table.csv'))); assert len(r)==2, r; assert float(r[0]['eel [s]'])>0"

# The store holds one result per point, with the raw document, and the attempts.
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
assert db.execute("select count(*) from points").fetchone()[0] == 4
assert db.execute("select count(*) from results").fetchone()[0] == 4
# Partition 1 has no pair and is never valid; partition 2 is valid unless the G fit failed.
for nprocs, valid, text in db.execute("select nprocs, valid, document(packed) from results"):
    reasons = json.loads(text)["validity"]["reasons"]
    if nprocs == 1:
        assert not valid and any("no pair" in r for r in reasons), reasons
    else:
        assert valid or all(r.startswith("physically impossible: G (q = ") for r in reasons), reasons
states = db.execute("select state from points").fetchall()
assert all(s == ("done",) for s in states), states
doc = json.loads(db.execute("select document(packed) from results where nprocs = 2 limit 1").fetchone()[0])
assert doc["worker"] == "logp" and doc["parameters"]["eel_roundtrips"]["value"] == 500
for a in db.execute("select exit_status, job_id, started_at, ended_at from attempts"):
    assert a[0] == 0 and a[1] and a[2] and a[3], a
# Physical sense, or a flag saying why not: o_s and o_r exceed g only with a warning naming it,
# a negative L only with a warning; 1/G is the reciprocal of G.
for (text,) in db.execute("select document(packed) from results where nprocs = 2"):
    doc = json.loads(text)
    m = {x["name"]: x["value"] for x in doc["summary"]}
    warnings = " ".join(doc["warnings"])
    assert m["eel_min"] > 0 and m["g_best"] > 0, m
    for name in ("o_s", "o_r"):
        if m[name] > m["g_best"]:
            assert f"{name} = " in warnings and "exceeds g_best" in warnings, (name, m, warnings)
    if m["latency_l"] < 0:
        assert "L = EEL - o_s - o_r" in warnings, (m, warnings)
PY

# Running it again changes nothing: every point is done and stays stored once.
before=$(sqlite3 "$PBENCH_DB" "select count(*) from results; select count(*) from attempts")
"$PBENCH" run it --partitions 1,2 --queue-depths 1,8 "${SMALL[@]}" > /dev/null
after=$(sqlite3 "$PBENCH_DB" "select count(*) from results; select count(*) from attempts")
[[ "$before" == "$after" ]] || fail "a second run changed the store: $before -> $after"

# The job scripts quote what they substitute and record an exit marker.
script=$(ls runs/it/points/*/job.sh | head -1)
grep -q "trap pbench_on_exit EXIT" "$script" || fail "no exit trap in $script"
ls runs/it/points/*/attempt-1/exit.json > /dev/null || fail "no exit markers"
echo "local sweep: ok"
