#!/usr/bin/env bash
# Physics at ingest (issue 38): a real tiny sweep of every worker (logp, comm, io, bcast, links),
# each result document edited to say valid with a figure that cannot be (a negative gap, a
# bandwidth above the ceiling, a latency below the floor, a zero bandwidth, a negative OL, a
# negative count); collect stores each not valid with the reason naming the metric, counts them
# and exits 4; the worker tables, `query points`, the notes and `query system` say it, and no
# impossible figure is a valid headline. Nothing stored before is lost.
source "$(dirname "$0")/common.sh"

base_run

every_worker_run phys

# Each worker's document: valid, no reasons, and one figure that cannot be.
"$PY" - runs/phys/points/*/attempt-1/result.json <<'PY'
import sys
from said_valid import edit_said_valid
bad = {
    "logp": ("g", -1e-6),
    "comm": ("b_eff", 5e20),
    "io": ("b_eff_io", 0.0),
    "bcast": ("ol", -2e-6),
    "links": ("link_latency", 1e-12),
}
def impossible_figure(doc):
    name, value = bad[doc["worker"]]
    hits = [m for m in doc["summary"] if m["name"] == name]
    assert hits, (doc["worker"], name, [m["name"] for m in doc["summary"]])
    hits[0]["value"] = value
edit_said_valid(sys.argv[1:], impossible_figure, bad)
PY

collect_exits 4 phys collect
grep -q "5 results stored" collect.out || fail "collect: $(cat collect.out)"
grep -q "5 with figures that cannot be (stored not valid)" collect.out || fail "collect: $(cat collect.out)"
for words in "g = -1 us is not positive" \
    "b_eff = 5e+20 B/s is above 2e+13 B/s (1e+13 B/s per process x 2 processes)" \
    "b_eff_io = 0 B/s is not positive" "ol = -2 us is not positive" \
    "link_latency = 1e-06 us is below 0.01 us"; do
  grep -qF "physically impossible: $words" collect.err ||
    fail "collect did not say '$words': $(cat collect.err)"
done
grep -q "its document says valid, but physically impossible" collect.err || fail "$(cat collect.err)"
expect_results 6

# The store: every result of the sweep not valid, with the reason first.
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT f.worker, f.valid, f.reason, r.ingest_reason FROM result_facts f "
                  "JOIN results r ON r.id = f.result_id JOIN sweeps s ON s.id = f.sweep_id "
                  "WHERE s.name = 'phys'").fetchall()
assert len(rows) == 5, rows
for worker, valid, reason, ingest_reason in rows:
    assert valid == 0, (worker, valid)
    assert reason.startswith("physically impossible: "), (worker, reason)
    assert reason == ingest_reason, (worker, reason, ingest_reason)
# The base sweep's result is as it was.
assert db.execute("SELECT count(*) FROM results r JOIN points p ON p.id = r.point_id "
                  "JOIN sweeps s ON s.id = p.sweep_id WHERE s.name = 'base'").fetchone()[0] == 1
PY

# Every worker's table and notes say why; no headline shows an impossible figure as valid.
for w in logp comm io bcast links; do
  "$PBENCH" query "$w" --sweep phys > "q-$w.txt" 2>&1 || fail "query $w: $(cat "q-$w.txt")"
  grep -q "physically impossible" "q-$w.txt" || fail "query $w does not say why: $(cat "q-$w.txt")"
done
"$PBENCH" query system --sweep phys --format json > system.json || fail "query system"
"$PY" - system.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
seen = set()
for r in rows:
    if r["figure"] in ("logp_g", "b_eff", "b_eff_io", "bcast_ol", "links_bandwidth_median"):
        assert r["valid"] == "no", r
        seen.add(r["figure"])
assert seen == {"logp_g", "b_eff", "b_eff_io", "bcast_ol", "links_bandwidth_median"}, (seen, rows)
PY
echo "physics at ingest: ok"
