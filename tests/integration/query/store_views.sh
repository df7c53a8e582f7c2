#!/usr/bin/env bash
# The store answers from outside (docs/store.md): on a store filled by
# real tiny runs of all four workers (valid and not valid results, a plain partition and a
# shape, two runs), the sqlite3 command line on the views gives the rows `pbench query system
# --format csv` prints (latest run and run 1), and so does each worker table; Python's standard
# sqlite3 module (no pbench code) reads the headlines exactly as `--format json` gives them, the
# catalogue holds every stored metric, and the worked examples of docs/store.md run.
set -euo pipefail
SCRATCH_NAME=pbench-views-it source "$(dirname "$0")/../orchestrator/common.sh"

# logp as small as sweep_shapes' (200 EEL round trips, 100 flood messages, one repetition): what
# is checked here is how the views read what is stored, which any figure serves; at logp's
# defaults (10,000 of each, three repetitions) its four points took most of the test's time.

"$PBENCH" run v --workers logp,comm,io,bcast --partitions 2,1x3 -T 0.3 --queue-depths 1,8 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=1024 \
  --set logp.flood_messages=100 --set logp.repetitions=1 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 --set comm.sizes=1,13,21 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  > run1.txt 2> run1.err || { cat run1.err; fail "pbench run failed"; }
"$PBENCH" run v --again > run2.txt 2> run2.err || { cat run2.err; fail "pbench run --again failed"; }
# Tiny runs are not valid; two results of the latest run are made valid here, so that the
# headline has both (a valid result must win over a better one that is not).
sqlite3 "$PBENCH_DB" "UPDATE results SET valid = 1 WHERE id IN (SELECT result_id FROM run_results
  WHERE sweep = 'v' AND latest AND worker IN ('comm', 'bcast') AND partition = 3)"

# The headline view with the sqlite3 command line against query system's CSV. sqlite3 prints a
# real with 15 significant digits, pbench's CSV with 17: numbers are compared to 1e-14.
order="ORDER BY sweep_id, run, group_order, group_partition, group_nodes, group_ppn, row_order"
columns="sweep, figure, value, unit, partition, at, point, job, valid, reason, nodes, ppn"
same() {  # same CSV_FROM_PBENCH CSV_FROM_SQLITE3 (the first without its header)
  "$PY" - "$1" "$2" <<'PY'
import csv, sys
def rows(path, skip):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return r[skip:]
a, b = rows(sys.argv[1], 1), rows(sys.argv[2], 0)
assert len(a) == len(b) and a, (sys.argv[1], len(a), len(b), a, b)
def same_cell(x, y):
    if x == y:
        return True
    try:
        fx, fy = float(x), float(y)
    except ValueError:
        return False
    return abs(fx - fy) <= 1e-14 * max(abs(fx), abs(fy))
for ra, rb in zip(a, b):
    assert len(ra) == len(rb) and all(same_cell(x, y) for x, y in zip(ra, rb)), (ra, rb)
PY
}
"$PBENCH" query system --sweep v --format csv > system-latest.csv
sqlite3 -csv "$PBENCH_DB" "SELECT $columns FROM headlines WHERE sweep = 'v' AND latest $order" \
  > view-latest.csv
same system-latest.csv view-latest.csv || fail "headlines (latest run) differ from query system"
"$PBENCH" query system --sweep v --run 1 --format csv > system-1.csv
sqlite3 -csv "$PBENCH_DB" "SELECT $columns FROM headlines WHERE sweep = 'v' AND run = 1 $order" \
  > view-1.csv
same system-1.csv view-1.csv || fail "headlines (run 1) differ from query system --run 1"
# The sweep has valid and not valid figures, a figure per shape, and two runs that differ.
grep -q ',yes,' view-latest.csv || fail "no valid headline figure: $(cat view-latest.csv)"
grep -q ',no,' view-latest.csv || fail "no headline figure that is not valid"
[[ $(grep -c '^v,logp_g,' view-latest.csv) -eq 2 ]] || fail "logp_g not per shape: $(cat view-latest.csv)"
cmp -s view-1.csv view-latest.csv && fail "run 1 and run 2 gave the same headline"

# Each worker table: its view with the sqlite3 command line against pbench query WORKER, every
# column the table shows (its CSV header, "key [unit]": the worker's description) read from the view.
declare -A table_order=(
  [logp]="sweep, partition, coalesce(nodes, 0), coalesce(ppn, 0), point_id, queue_depth"
  [comm]="sweep_id, run, row_order, partition, point_id"
  [io]="sweep_id, point_partition, point_id, partition"
  [bcast]="sweep_id, partition, point_id, size")
for worker in logp comm io bcast; do
  for run in latest 1; do
    if [[ $run == latest ]]; then which="latest"; args=(); else which="run = $run"; args=(--run "$run"); fi
    "$PBENCH" query "$worker" --sweep v "${args[@]}" --format csv > "$worker-$run.csv" 2> /dev/null
    keys=$(head -n 1 "$worker-$run.csv" | sed 's/ \[[^]]*\]//g; s/[^,]*/"&"/g')
    [[ $keys == '"sweep","partition",'* || $keys == '"sweep","row",'* ]] ||
      fail "query $worker: unexpected header $keys"
    sqlite3 -csv "$PBENCH_DB" "SELECT $keys FROM ${worker}_table
      WHERE sweep = 'v' AND $which ORDER BY ${table_order[$worker]}" > "$worker-$run-view.csv"
    same "$worker-$run.csv" "$worker-$run-view.csv" || fail "${worker}_table ($run) differs from query $worker"
  done
done

# A user who may only read the store, after an upgrade of pbench whose views and catalogue differ
# from the store's: every worker's table (links too, from a tiny link matrix) and the headlines
# read through this pbench's views made for the one command give what the owner reads, and the
# file is left as it was (orchestrator: error_paths holds the rest of this case).
"$PBENCH" run l --workers links --partitions 2 --set links.latency_roundtrips=100 \
  --set links.message_size=64KiB --set links.messages=2 --set links.repetitions=1 \
  > runl.txt 2> runl.err || { cat runl.err; fail "the links sweep failed"; }
source "$(dirname "$0")/../lib/nobody.sh"
staged=$(stage_for_nobody "$PBENCH")
older_views_copy "$PBENCH_DB" ro io_table
before=$(sha256sum < ro/pbench.db)
for query in "system --sweep v" "logp --sweep v" "comm --sweep v" "io --sweep v" \
    "bcast --sweep v" "links --sweep l"; do
  read -r -a args <<< "$query"
  "$PBENCH" query "${args[@]}" --format csv > owner.csv 2> /dev/null
  "${NOBODY[@]}" "$staged/pbench" --db ro/pbench.db query "${args[@]}" --format csv \
    > reader.csv 2> reader.err || fail "query $query (read-only, older views): $(cat reader.err)"
  grep -q "reads it through this pbench's own" reader.err || fail "query $query: no note"
  [[ $(wc -l < owner.csv) -ge 2 ]] || fail "query $query read no rows: $(cat owner.csv)"
  cmp -s owner.csv reader.csv || fail "query $query through temporary views differs:
$(diff owner.csv reader.csv | head)"
done
[[ $(sha256sum < ro/pbench.db) == "$before" && ! -e ro/pbench.db-wal ]] \
  || fail "reading a store with older views changed its file"

# Python's standard sqlite3 module, no pbench code: the headlines exactly as --format json.
"$PBENCH" query system --sweep v --format json > system.json
"$PY" - "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
keys = ["sweep", "figure", "value", "unit", "partition", "at", "point", "job", "valid",
        "reason", "nodes", "ppn"]
rows = db.execute(
    "SELECT " + ", ".join(keys) + " FROM headlines WHERE sweep = ? AND latest "
    "ORDER BY sweep_id, run, group_order, group_partition, group_nodes, group_ppn, row_order",
    ("v",)).fetchall()
system = json.load(open("system.json"))["rows"]
assert [tuple(r[k] for k in keys) for r in system] == rows, (system, rows)

# The catalogue: one row per metric, every stored metric in it, directions and units used.
catalogue = {(w, n): (u, b) for w, n, u, b in
             db.execute("SELECT worker, name, unit, better FROM metric_catalogue")}
stored = db.execute("SELECT DISTINCT r.worker, m.name, m.unit FROM metrics m "
                    "JOIN results r ON r.id = m.result_id").fetchall()
assert stored and all((w, n) in catalogue and catalogue[(w, n)][0] == u
                      for w, n, u in stored), stored
assert catalogue[("logp", "g")][1] == "lower" and catalogue[("io", "b_eff_io")][1] == "higher"
headline = db.execute("SELECT figure FROM metric_catalogue WHERE headline = 'yes' "
                      "ORDER BY figure_order").fetchall()
assert [f for (f,) in headline] == ["b_eff_io", "b_eff", "b_eff_per_process", "logp_g",
                                     "logp_G", "logp_bandwidth_at_max_size", "logp_EEL",
                                     "logp_o_s", "logp_o_r", "logp_L", "bcast_ol",
                                     "links_bandwidth_median"]

# The examples of docs/store.md: the system's b_eff_io and the best EEL per partition (latest run),
# and a history of one figure.
(b_eff_io,) = db.execute("SELECT value FROM headlines WHERE sweep = 'v' AND latest "
                         "AND figure = 'b_eff_io'").fetchone()
assert b_eff_io == [r["value"] for r in system if r["figure"] == "b_eff_io"][0]
eel = db.execute("SELECT partition, nodes, ppn, min(value) FROM metric_values "
                 "WHERE sweep = 'v' AND latest AND metric = 'eel_min' "
                 "GROUP BY partition, nodes, ppn ORDER BY partition").fetchall()
assert eel and all(v > 0 for *_, v in eel), eel
history = db.execute("SELECT run, started_at, value, valid FROM headlines JOIN sweep_runs "
                     "USING (sweep_id, sweep, run, latest) WHERE sweep = 'v' "
                     "AND figure = 'b_eff' ORDER BY run").fetchall()
assert [h[0] for h in history] == [1, 2], history
PY
echo "store views: ok"
