#!/usr/bin/env bash
# io through pbench: a sweep over partitions 1,2, two schedule times and two hint sets is
# planned, run with mpiexec, collected into SQLite, and `pbench query io` prints the table per
# partition and the system maximum with the partition that won.
source "$(dirname "$0")/common.sh"
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
export PBENCH_WORKER_DIR=$(dirname "$PBENCH_IO")

"$PBENCH" sweep s --workers io --partitions 1,2 -T 0.5,0.8 \
  --hints romio_cb_write=enable,romio_ds_write=disable --hints romio_cb_write=disable \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 --dry-run > plan.txt
grep -c -- "--schedule-time" plan.txt > /dev/null || fail "the plan has no --schedule-time"
"$PBENCH" run s --workers io --partitions 1,2 -T 0.5,0.8 \
  --hints romio_cb_write=enable,romio_ds_write=disable --hints romio_cb_write=disable \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 > table.txt
cat table.txt
grep -q "b_eff_io" table.txt || fail "no io table from pbench run"

"$PBENCH" query io --sweep s --format json > table.json
"$PY" - table.json "$PBENCH_DB" <<'PY'
import json, math, sqlite3, sys
t = json.load(open(sys.argv[1]))
rows = t["rows"]
assert len(rows) == 8, rows  # 2 partitions x 2 T x 2 hint sets
cells = sorted((r["partition"], r["schedule_time"], r["hints"]) for r in rows)
want = sorted((p, T, h) for p in (1, 2) for T in (0.5, 0.8)
              for h in ("romio_cb_write=enable,romio_ds_write=disable", "romio_cb_write=disable"))
assert cells == want, cells
for r in rows:
    assert r["b_eff_io"] > 0 and r["write"] > 0 and r["rewrite"] > 0 and r["read"] > 0, r
    # b_eff_io is rev 2.1's sqrt(WR * R); the paper's arithmetic value stands beside it.
    assert abs(r["b_eff_io_paper"] - (0.25 * r["write"] + 0.25 * r["rewrite"] + 0.5 * r["read"])) <= 1e-6 * r["b_eff_io_paper"], r
    assert r["valid"] == "no", r  # T < 15 minutes
system = [n for n in t["notes"] if n.startswith("system b_eff_io of sweep s")]
assert len(system) == 4, t["notes"]
for T in (0.5, 0.8):
    for h in ("romio_cb_write=enable,romio_ds_write=disable", "romio_cb_write=disable"):
        group = [r for r in rows if r["schedule_time"] == T and r["hints"] == h]
        best = max(group, key=lambda r: r["b_eff_io"])
        note = [n for n in system if "(T %g s, hints %s)" % (T, h) in n]
        assert len(note) == 1, (T, h, system)
        # No result is valid (T < 15 minutes): the note marks the best with its first reason,
        # and the notes list every reason of every result.
        assert note[0].endswith("at partition %d, the best of the not valid results (not valid: %s)"
                                % (best["partition"], best["reason"])), (note, best)
        assert best["reason"].startswith("scheduled time per partition"), best
        assert "sweep s, partition %d: not valid: %s" % (best["partition"], best["reason"]) in t["notes"], t["notes"]
        # In MB/s with the tables' 4 significant digits.
        mb = best["b_eff_io"] / 1e6
        digits = max(0, 3 - math.floor(math.log10(mb)))
        shown = ("%.*f" % (digits, mb)).rstrip("0").rstrip(".") if digits else "%.0f" % mb
        assert shown + " MB/s" in note[0], (note, shown, best)
# The hints reached the worker: the result of each point records them as given and in effect.
db = sqlite3.connect(sys.argv[2])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
docs = [json.loads(d) for (d,) in db.execute("select document(packed) from results")]
assert len(docs) == 8
for doc in docs:
    given = doc["parameters"]["hint"]["value"]
    h = doc["measurements"]["file_hints"]
    names = [c["name"] for c in h["columns"]]
    hrows = [dict(zip(names, r)) for r in h["rows"]]
    cb = {r["value"] for r in hrows if r["key"] == "romio_cb_write"}
    want = "enable" if "romio_cb_write=enable" in given else "disable"
    assert cb == {want}, (given, cb)
    assert doc["nprocs"] == doc["measurements"]["partitions"]["rows"][0][0]
PY
echo "io through pbench: ok"
