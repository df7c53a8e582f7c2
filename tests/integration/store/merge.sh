#!/usr/bin/env bash
# Many machines, one store (issue 54 item 3) on real tiny bcast sweeps (real pbench, mpiexec,
# pbench-bcast, SQLite): the same sweep run on two "clusters" (site profiles whose [machine]
# cluster differ) into two store files, merged into a third: every row's origin kept (store
# file and cluster), no result twice (merging the same file again adds nothing), a clash refused
# with nothing written and stored as NAME@CLUSTER with --rename, a file of the same sweep and
# cluster joining its runs, a damaged, changed or newer FROM refused with nothing written; then
# query system, history and the report compare the sweep across the clusters (--by cluster).
source "$(dirname "$0")/../orchestrator/common.sh"
B=(--workers bcast --partitions 2 --set bcast.impl=binomial --set bcast.sizes=8
   --set bcast.repetitions=10 --set bcast.max_measurements=3)
printf '[machine]\ncluster = "alpha"\n' > alpha.toml
printf '[machine]\ncluster = "beta"\n' > beta.toml
on() { local db=$1 runs=$2; shift 2; PBENCH_DB="$work/$db" PBENCH_RUNS_DIR="$work/$runs" "$@"; }
on a.db runs-a "$PBENCH" run nightly --site alpha.toml "${B[@]}" > a1.out 2>&1 \
  || fail "run on alpha: $(cat a1.out)"
on a.db runs-a "$PBENCH" run nightly --again > a2.out 2>&1 || fail "run --again: $(cat a2.out)"
on b.db runs-b "$PBENCH" run nightly --site beta.toml "${B[@]}" > b1.out 2>&1 \
  || fail "run on beta: $(cat b1.out)"
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
count() { sqlite3 all.db "select count(*) from $1"; }

# --- a.db into a new store: everything comes, with its origin.
"$PBENCH" --db all.db store merge a.db > m1.out || fail "merge a.db: $(cat m1.out)"
grep -q "merged 'a.db' into 'all.db': 1 sweep new, 0 joined; 2 runs, 1 points, 2 attempts, 2 results" m1.out \
  || fail "merge a.db said: $(cat m1.out)"
# --- The same file again: nothing added, every result skipped and counted.
before=$(dump all.db)
"$PBENCH" --db all.db store merge a.db > m2.out || fail "merge a.db again: $(cat m2.out)"
grep -q "0 sweeps new, 1 joined; 0 runs, 0 points, 0 attempts, 0 results (0 metric rows) added; 2 results skipped (their documents were in the store already), 2 runs it held already" m2.out \
  || fail "merging a.db twice said: $(cat m2.out)"
[[ $(count results) == 2 && $(count runs) == 2 && $(count attempts) == 2 ]] \
  || fail "merging a.db twice added rows"

# --- The same sweep from another cluster: a clash, refused, nothing written.
before=$(dump all.db)
expect_fail 2 "cannot merge 'b.db': its sweep 'nightly' (cluster 'beta') clashes with the stored sweep 'nightly' (cluster 'alpha', not 'beta'); nothing was written: --rename stores it as 'nightly@beta'" \
  "$PBENCH" --db all.db store merge b.db
[[ $(dump all.db) == "$before" ]] || fail "a refused merge changed the store"
"$PBENCH" --db all.db store merge b.db --rename > m3.out || fail "merge --rename: $(cat m3.out)"
grep -q "renamed nightly -> nightly@beta" m3.out || fail "merge --rename said: $(cat m3.out)"

# --- A copy of a.db with one more run of the same sweep on the same cluster: its run joins.
sqlite3 a.db ".backup c.db"
on c.db runs-a "$PBENCH" run nightly --again > c3.out 2>&1 || fail "run on c.db: $(cat c3.out)"
"$PBENCH" --db all.db store merge c.db > m4.out || fail "merge c.db: $(cat m4.out)"
grep -q "0 sweeps new, 1 joined; 1 runs, 0 points, 1 attempts, 1 results .* 2 results skipped .* 2 runs it held already" m4.out \
  || fail "merge c.db said: $(cat m4.out)"

# --- Origins: every merged row names its store file and cluster.
"$PY" - "$work" <<'PY'
import sqlite3, sys
work = sys.argv[1]
db = sqlite3.connect(work + "/all.db")
assert db.execute("pragma user_version").fetchone()[0] == 12
assert db.execute("select count(*) from results").fetchone()[0] == 4
assert db.execute("select count(distinct document_hash) from results").fetchone()[0] == 4
rows = db.execute("select s.name, s.cluster, s.base_name, o.store, o.cluster from results r "
                  "join points p on p.id = r.point_id join sweeps s on s.id = p.sweep_id "
                  "join origins o on o.id = r.origin_id order by r.id").fetchall()
assert rows == [("nightly", "alpha", "nightly", work + "/a.db", "alpha")] * 2 + [
    ("nightly@beta", "beta", "nightly", work + "/b.db", "beta"),
    ("nightly", "alpha", "nightly", work + "/c.db", "alpha")], rows
for table in ("sweeps", "points", "runs", "attempts", "results"):
    assert db.execute(f"select count(*) from {table} where origin_id is null").fetchone()[0] == 0, table
runs = db.execute("select sweep, cluster, run, store from run_origins order by sweep, run").fetchall()
assert runs == [("nightly", "alpha", 1, work + "/a.db"), ("nightly", "alpha", 2, work + "/a.db"),
                ("nightly", "alpha", 3, work + "/c.db"), ("nightly@beta", "beta", 1, work + "/b.db")], runs
PY

# pbench list names each sweep's cluster.
"$PBENCH" --db all.db list --format json > list.json
"$PY" - <<'PY' || fail "list: $(cat list.json)"
import json
rows = json.load(open("list.json"))["rows"]
assert [(r["sweep"], r["cluster"]) for r in rows] == [("nightly", "alpha"), ("nightly@beta", "beta")], rows
PY

# --- Compared across clusters: query system, history, the report.
"$PBENCH" --db all.db query system --sweep nightly --by cluster --format json > system.json
"$PBENCH" --db all.db history nightly --by cluster --metric bcast_ol --format json > history.json
"$PY" - <<'PY'
import json
rows = json.load(open("system.json"))["rows"]
ol = [(r["sweep"], r["cluster"]) for r in rows if r["figure"] == "bcast_ol"]
assert ol == [("nightly", "alpha"), ("nightly@beta", "beta")], rows
assert all(r["value"] is not None for r in rows if r["figure"] == "bcast_ol"), rows
h = [(r["run"], r["cluster"]) for r in json.load(open("history.json"))["rows"]]
assert h == [(1, "alpha"), (1, "beta"), (2, "alpha"), (3, "alpha")], h
PY
expect_fail 2 "--by day: the rows can be compared by cluster only (--by cluster)" \
  "$PBENCH" --db all.db history nightly --by day
if command -v gnuplot > /dev/null; then
  "$PBENCH" --db all.db report nightly -o report > report.out || fail "report: $(cat report.out)"
  grep -q 'id="clusters"' report/index.html || fail "the report has no section By cluster"
  grep -q "nightly@beta (cluster beta)" report/index.html || fail "the report does not name beta"
  ls report/clusters-bcast-ol*.svg > /dev/null 2>&1 || fail "no figure by cluster: $(ls report)"
  grep -q "cluster beta" report/clusters-bcast-ol*.svg || fail "the figure has no series beta"
fi

# --- A damaged FROM (a page out of order), one whose document is not its SHA-256, a newer one,
# an older one, the store itself: refused, nothing written.
before=$(dump all.db)
sqlite3 b.db ".backup broken.db"
"$PY" - broken.db <<'PY'
import sys
from sqlite_pages import points_leaf
path = sys.argv[1]
data, page, header = points_leaf(path, delete_journal=True)
data[header] = 0x00  # no kind of b-tree page: the points table cannot be read
open(path, "wb").write(bytes(data))
PY
"$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("pragma quick_check").fetchall())' broken.db \
  2>&1 | grep -q "ok" && fail "the broken page does not fail quick_check"
expect_fail 7 "cannot merge 'broken.db': store 'broken.db' is damaged (SQLite: " \
  "$PBENCH" --db all.db store merge broken.db
sqlite3 b.db ".backup changed.db"
# (its hash changed, as a disk or an edit would: a document this store does not hold)
sqlite3 changed.db "update results set document_hash = '00' || substr(document_hash, 3)"
expect_fail 3 "holds a document whose SHA-256 is not its document_hash" \
  "$PBENCH" --db all.db store merge --rename changed.db
sqlite3 b.db ".backup newer.db"
sqlite3 newer.db "pragma user_version = 13"
expect_fail 3 "cannot merge 'newer.db': it has store schema version 13, written by a newer pbench" \
  "$PBENCH" --db all.db store merge newer.db
sqlite3 b.db ".backup older.db"
sqlite3 older.db "pragma user_version = 11"
expect_fail 3 "cannot merge 'older.db': it has store schema version 11; merge reads version 12 only" \
  "$PBENCH" --db all.db store merge older.db
expect_fail 2 "cannot merge 'all.db' into itself" "$PBENCH" --db all.db store merge all.db
expect_fail 2 "cannot merge 'none.db': no such store file" "$PBENCH" --db all.db store merge none.db
[[ $(dump all.db) == "$before" ]] || fail "a refused FROM changed the store"
[[ $(sqlite3 older.db "pragma user_version") == 11 ]] || fail "merge migrated its FROM"
echo "ok"
