"""Checks that a store holds only whole result documents.

usage: store_check.py DB SWEEP [REFERENCE_DB]

- the SQLite file passes its integrity check;
- every result of SWEEP has exactly the metric rows its document's summary lists (name, value,
  unit, samples, labels): none missing, none extra;
- no point has more than one result, and no document is stored twice;
- with REFERENCE_DB (the same documents ingested by one uninterrupted collect), every stored
  result is there too, with the same metric rows.
Prints "RESULTS METRICS" (the sweep's counts).
"""
import json
import sqlite3
import sys


def row(name, value, unit, samples, labels):
    return (name, repr(value), unit, samples, labels)


def metric_rows(db, result_id):
    return sorted(
        row(name, value, unit, samples, json.dumps(json.loads(labels), sort_keys=True))
        for name, value, unit, samples, labels in db.execute(
            "select name, value, unit, samples, labels from metrics where result_id = ?",
            (result_id,)))


db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
sweep = sys.argv[2]
reference = sqlite3.connect(sys.argv[3]) if len(sys.argv) > 3 else None
assert db.execute("pragma integrity_check").fetchone()[0] == "ok", "integrity check failed"
rows = db.execute(
    "select r.id, r.point_id, r.document_hash, document(r.packed) from results r "
    "join points p on p.id = r.point_id join sweeps s on s.id = p.sweep_id where s.name = ?",
    (sweep,)).fetchall()
metrics = 0
for result_id, point_id, doc_hash, document in rows:
    expected = sorted(
        row(m["name"], None if m["value"] is None else float(m["value"]), m["unit"], m["samples"],
            json.dumps(m["labels"], sort_keys=True))
        for m in json.loads(document)["summary"])
    stored = metric_rows(db, result_id)
    assert expected and stored == expected, (
        f"result {result_id} (point {point_id}): {len(stored)} metric rows, "
        f"its document has {len(expected)}")
    metrics += len(stored)
    if reference is not None:
        ref = reference.execute("select id from results where document_hash = ?",
                                (doc_hash,)).fetchone()
        assert ref, f"result {result_id} is not in the reference store"
        assert metric_rows(reference, ref[0]) == stored, f"result {result_id} differs"
per_point = db.execute(
    "select max(n) from (select count(*) n from results r join points p on p.id = r.point_id "
    "join sweeps s on s.id = p.sweep_id where s.name = ? group by r.point_id)",
    (sweep,)).fetchone()[0]
assert per_point in (None, 1), f"a point has {per_point} results"
hashes = db.execute("select count(*) - count(distinct document_hash) from results").fetchone()[0]
assert hashes == 0, f"{hashes} documents stored twice"
orphans = db.execute("select count(*) from metrics where result_id not in "
                     "(select id from results)").fetchone()[0]
assert orphans == 0, f"{orphans} metric rows without a result"
print(len(rows), metrics)
