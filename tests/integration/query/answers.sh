#!/usr/bin/env bash
# pbench query on a store filled by real tiny runs of all four workers (pbench run on partitions
# 1 and 2): `query system` names the winning cell of each headline figure and matches the
# stored metrics, `query points --missing` lists the cells of a planned sweep and none of the
# run one, --where with SQL metacharacters matches nothing and changes nothing, `query sql`
# reads but cannot write, and every format parses back.
set -euo pipefail
SCRATCH_NAME=pbench-query-it source "$(dirname "$0")/../orchestrator/common.sh"

# logp at its default sizes (to 4 MiB), queue depths, EEL runs and repetitions: G (query system's
# logp_G) is the slope over the bandwidth-bound sizes, whose floods the 16 MiB cap sets from 32
# KiB up either way; only the EEL round trips and the messages of the smaller floods are fewer
# (500 each, as SMALL's), which were most of logp's time.
"$PBENCH" run q --workers logp,comm,io,bcast --partitions 1,2 -T 0.5 \
  --set logp.eel_roundtrips=500 --set logp.flood_messages=500 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  > run.txt 2> run.err || { cat run.err; fail "pbench run failed"; }
"$PBENCH" sweep later --workers comm --partitions 2,4 > /dev/null

"$PBENCH" query system --sweep q --format json > system.json
"$PBENCH" query system --sweep q --format csv > system.csv
"$PBENCH" query system --sweep q --format markdown > system.md
"$PBENCH" query points --sweep q --missing --format json > missing-q.json
"$PBENCH" query points --sweep later --missing --format csv > missing-later.csv
"$PY" - "$PBENCH_DB" <<'PY'
import csv, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
system = json.load(open("system.json"))
rows = {r["figure"]: r for r in system["rows"]}
for figure in ["b_eff_io", "b_eff", "b_eff_per_process", "logp_g", "logp_G", "bcast_ol"]:
    assert figure in rows and rows[figure]["value"] is not None, (figure, system)

def newest(worker, name):
    # (value, partition label or point partition, point key) of every newest result's metric.
    return db.execute(
        "select m.value, coalesce(json_extract(m.labels, '$.partition'), p.partition), p.point_key, "
        "m.labels from points p join results r on r.id = (select max(id) from results "
        "where point_id = p.id) join metrics m on m.result_id = r.id and m.name = ? "
        "where p.worker = ? and m.value is not null", (name, worker)).fetchall()

for figure, worker in [("b_eff_io", "io"), ("b_eff", "comm")]:
    values = newest(worker, figure)
    top = max(v for v, _, _, _ in values)
    r = rows[figure]
    assert abs(r["value"] - top) <= 1e-9 * top, (figure, r, values)
    assert any(k == r["point"] and p == r["partition"] for v, p, k, _ in values if v == top)
    assert r["job"] == db.execute("select a.job_id from attempts a join points p on "
                                  "p.id = a.point_id where p.point_key = ?", (r["point"],)).fetchone()[0]
g = [(v, json.loads(l)["queue_depth"]) for v, p, k, l in newest("logp", "g") if p == 2]
assert abs(rows["logp_g"]["value"] - min(v for v, _ in g)) < 1e-15, (rows["logp_g"], g)
assert rows["b_eff_io"]["at"].startswith("T=0.5 s"), rows["b_eff_io"]

with open("system.csv") as f:
    back = list(csv.DictReader(f))
assert [r["figure"] for r in back] == [r["figure"] for r in system["rows"]], back
for c, j in zip(back, system["rows"]):
    assert (c["value"] == "" and j["value"] is None) or float(c["value"]) == j["value"], (c, j)
md = open("system.md").read().splitlines()
assert md[0].startswith("| sweep | figure | value |") and md[1].startswith("| --- |"), md[:2]

assert json.load(open("missing-q.json"))["rows"] == [], "the run sweep has missing cells"
with open("missing-later.csv") as f:
    later = list(csv.DictReader(f))
assert [(r["worker"], r["partition"], r["state"], r["result"]) for r in later] == \
    [("comm", "2", "planned", "no"), ("comm", "4", "planned", "no")], later
PY

# compare: the run sweep against the planned one; its figures there are missing, so no ratio.
"$PBENCH" query compare q later --format json > compare.json
"$PY" - <<'PY'
import json
system = {r["figure"]: r for r in json.load(open("system.json"))["rows"]}
rows = {r["figure"]: r for r in json.load(open("compare.json"))["rows"]}
assert rows["b_eff"]["a"] == system["b_eff"]["value"], (rows["b_eff"], system["b_eff"])
assert rows["b_eff"]["b"] is None and rows["b_eff"]["ratio"] is None, rows["b_eff"]
assert rows["b_eff_io"]["b"] is None and rows["b_eff_io"]["a"] is not None, rows["b_eff_io"]
PY

# --where: SQL metacharacters match literally (nothing here), a real value matches; no change.
before=$(sha256sum "$PBENCH_DB")
for value in "x' OR '1'='1" "; DROP TABLE results; --"; do
  "$PBENCH" query system --sweep q --where "hints=$value" --format json > where.json
  "$PY" -c "import json; r=json.load(open('where.json'))['rows']; assert r and all(x['value'] is None for x in r), r"
  "$PBENCH" query comm --sweep q --where "partition=$value" --format json > where.json
  "$PY" -c "import json; assert json.load(open('where.json'))['rows'] == []"
done
"$PBENCH" query system --sweep q --where memory_per_proc=1MiB --format json > where.json
"$PY" -c "
import json; r={x['figure']: x for x in json.load(open('where.json'))['rows']}
assert r['b_eff']['value'] is not None and r['b_eff_io']['value'] is None, r"
"$PBENCH" query logp --sweep q --where queue_depth=8 --format json > where.json
"$PY" -c "import json; r=json.load(open('where.json'))['rows']; assert r and all(x['queue_depth']==8 for x in r), r"

# sql reads, and every write is refused with a clear error; the store is unchanged.
"$PBENCH" query sql "SELECT count(*) AS n FROM results" --format json > sql.json
"$PY" - "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
n = sqlite3.connect(sys.argv[1]).execute("select count(*) from results").fetchone()[0]
assert n >= 8 and json.load(open("sql.json"))["rows"][0]["n"] == n, n
PY
for statement in "DELETE FROM results" "DROP TABLE results" "INSERT INTO meta VALUES ('a','b')" \
  "ATTACH DATABASE 'other.db' AS o"; do
  rc=0
  out=$("$PBENCH" query sql "$statement" 2>&1) || rc=$?
  [[ $rc -ne 0 ]] || fail "'$statement' was allowed"
  [[ $(printf '%s\n' "$out" | grep -c .) -eq 1 && "$out" == *"query sql"* ]] ||
    fail "'$statement' said: $out"
done
[[ ! -e other.db ]] || fail "ATTACH created a file"
[[ "$(sha256sum "$PBENCH_DB")" == "$before" ]] || fail "a query changed the store"

# The export of this sweep of all four workers passes Prometheus's own checker (issue 26): names
# without abbreviated units or _count, no run or point label.
"$PBENCH" export q --format openmetrics > q.prom
promtool check metrics < q.prom || fail "promtool refused the export of a four-worker sweep"
for family in pbench_logp_g_seconds pbench_logp_send_overhead_seconds \
    pbench_comm_effective_bandwidth_bytes_per_second pbench_comm_ring_bandwidth_bytes_per_second \
    pbench_io_effective_io_bandwidth_bytes_per_second pbench_io_read_errors \
    pbench_bcast_ol_seconds pbench_headline_seconds; do
  grep -q "^$family{" q.prom || fail "no $family in the export: $(grep -c '^pbench' q.prom) series"
done
! grep -Eq '[{,](run|point)="' q.prom || fail "a run or point label: $(grep -Em1 '(run|point)="' q.prom)"
echo "answers: ok"
