#!/usr/bin/env bash
# The store defends itself (issue 38 item 4), on real SQLite files damaged as a disk or an edit
# would: a store with one 8-byte double of a metric changed (in the table and its index: SQLite's
# checks pass, the queries show it) is named by `pbench store verify`; a store with a page whose
# rows are out of order fails quick_check, so every command that would write into it or gate on
# it names it and writes nothing, verify names it, and `pbench store rebuild` makes a new store
# from the runs directory that answers `query` with the original figures, keeping the damaged
# one. Bad input (an existing output, a missing runs directory) is refused, writing nothing.
source "$(dirname "$0")/common.sh"
# sha FILE: the file's SHA-256 (a store nothing may change).
sha() { sha256sum "$1" | cut -d' ' -f1; }

# A real small sweep of two points, run twice (runs 1 and 2), and its reference.
"$PBENCH" run s --partitions 2 --queue-depths 1,8 "${SMALL[@]}" > /dev/null 2> run1.err \
  || fail "run s: $(cat run1.err)"
"$PBENCH" run s --again > /dev/null 2> run2.err || fail "run s --again: $(cat run2.err)"
expect_results 4
[[ -f runs/s/sweep.json ]] || fail "the sweep's record runs/s/sweep.json was not written"
"$PBENCH" reference s -o ref.toml > /dev/null || fail "reference s"
"$PBENCH" query logp --sweep s --format csv > logp.csv || fail "query logp"
"$PBENCH" query system --sweep s --format csv > system.csv || fail "query system"
"$PBENCH" history s --metric logp_g --format json > history.json || fail "history"
"$PBENCH" store verify > verify.out || fail "verify of a sound store: $(cat verify.out)"
grep -q "^store '$PBENCH_DB' verified: integrity_check ok; 4 results and their [0-9]* metric rows match their documents and SHA-256; 4 documents compared with the runs directory$" verify.out \
  || fail "verify of a sound store said: $(cat verify.out)"

# 1. One 8-byte double of a metric changed, every copy of it (the row and its covering index):
# quick_check and integrity_check pass, the queries show the wrong figure, verify names it.
cp "$PBENCH_DB" changed.db
"$PY" - changed.db <<'PY'
import sqlite3, struct, sys
path = sys.argv[1]
db = sqlite3.connect(path)
rows = db.execute(
    "select result_id, name, value, labels from metrics where result_id = "
    "(select max(id) from results) and typeof(value) = 'real' order by id").fetchall()
size = db.execute("pragma page_size").fetchone()[0]
pages = [p for (p,) in db.execute(
    "select pageno from dbstat where name in ('metrics', 'metrics_by_name')")]
db.close()
data = bytearray(open(path, "rb").read())
# A figure of the logp table whose 8 bytes are on the pages of the metrics table and its index
# twice: its row and its index entry (g_best, say, can hold the same double as g: changing both
# would be two changes; the kept headline answers hold copies that stay as they were).
for rid, name, value, labels in rows:
    old = struct.pack(">d", value)
    at = []
    for p in pages:
        page = bytes(data[(p - 1) * size:p * size])
        i = page.find(old)
        while i >= 0:
            at.append((p - 1) * size + i)
            i = page.find(old, i + 1)
    if name in ("g", "eel_min", "o_s", "o_r", "big_g", "latency_l") and len(at) == 2:
        break
else:
    raise SystemExit("no figure of the latest result is on the metrics pages exactly twice")
for offset in at:
    data[offset:offset + 8] = struct.pack(">d", value / 100)
open(path, "wb").write(bytes(data))
open("changed.txt", "w").write(f"{rid} {name} {labels}\n")
PY
read -r rid name labels < changed.txt
out=$("$PBENCH" --db changed.db query logp --sweep s --format csv 2>&1) \
  || fail "query on a store with a changed value failed: $out"
[[ "$out" != "$(cat logp.csv)" ]] || fail "the changed value does not show in query logp"
rc=0
"$PBENCH" --db changed.db store verify > changed.out 2>&1 || rc=$?
[[ $rc -eq 7 ]] || fail "verify of a changed value exited $rc, expected 7: $(cat changed.out)"
grep -q "^result $rid (sweep s, logp p=2 q=[0-9]* \[[0-9a-f]*\]): metric " changed.out \
  || fail "verify does not name the result, sweep and point: $(cat changed.out)"
grep -qF "): metric $name $labels: stored " changed.out \
  || fail "verify does not name the changed metric: $(cat changed.out)"
grep -q "its document says " changed.out || fail "verify does not give the document's value"
grep -q "is damaged: [0-9]* problems\? (0 from integrity_check" changed.out \
  || fail "verify found the store's pages damaged: $(cat changed.out)"
"$PBENCH" --db changed.db store verify --format json > changed.json || true
"$PY" - "$rid" "$name" <<'PY'
import json, sys
report = json.load(open("changed.json"))
assert report["damaged"] is True and report["integrity_check"] == [], report
# The changed row, and (when the figure wins a headline) the kept answer it no longer gives.
[p] = [p for p in report["problems"] if p["kind"] == "metric"]
assert all(q["kind"] in ("metric", "headline") for q in report["problems"]), report
assert p["result_id"] == int(sys.argv[1]) and p["sweep"] == "s", p
assert p["metric"].startswith(sys.argv[2] + " {"), p
assert abs(float(p["stored"]) * 100 / float(p["document"]) - 1) < 1e-12, p
PY
# A kept headline answer changed (what `query system` reads): verify names the run and figure.
cp "$PBENCH_DB" headline.db
"$PY" - headline.db <<'PY'
import sqlite3, struct, sys
path = sys.argv[1]
db = sqlite3.connect(path)
rows = db.execute("select figure, value from headline_answers where typeof(value) = 'real' "
                  "order by run desc, rowid").fetchall()
size = db.execute("pragma page_size").fetchone()[0]
pages = [p for (p,) in db.execute("select pageno from dbstat where name = 'headline_answers'")]
db.close()
data = bytearray(open(path, "rb").read())
for figure, value in rows:
    old = struct.pack(">d", value)
    at = [(p - 1) * size + i for p in pages
          for i in [bytes(data[(p - 1) * size:p * size]).find(old)] if i >= 0]
    if len(at) == 1 and sum(bytes(data[(p - 1) * size:p * size]).count(old) for p in pages) == 1:
        break
else:
    raise SystemExit("no kept headline value is on its pages once")
data[at[0]:at[0] + 8] = struct.pack(">d", value / 100)
open(path, "wb").write(bytes(data))
open("headline.txt", "w").write(figure + "\n")
PY
figure=$(cat headline.txt)
"$PBENCH" --db headline.db query system --sweep s --format csv > system-changed.csv \
  || fail "query system on a changed headline answer"
diff system.csv system-changed.csv > /dev/null && fail "the changed headline does not show in query system"
rc=0
"$PBENCH" --db headline.db store verify > headline.out 2>&1 || rc=$?
[[ $rc -eq 7 ]] || fail "verify of a changed headline exited $rc, expected 7: $(cat headline.out)"
grep -q "^sweep s run [12]: headline $figure (partition [0-9]*): kept value .*, the store's metric rows give " headline.out \
  || fail "verify does not name the changed headline: $(cat headline.out)"
# Its quick check passes: collect still runs on it.
"$PBENCH" --db changed.db collect s > /dev/null 2>&1 || fail "collect on a store with a changed value"

# 2. A page whose rows are out of order (the points table's leaf: its first two rowids
# swapped): quick_check fails.
cp "$PBENCH_DB" broken.db
"$PY" - broken.db <<'PY'
import sys
from sqlite_pages import points_leaf
path = sys.argv[1]
data, page, header = points_leaf(path)
cells = int.from_bytes(data[header + 3:header + 5], "big")
assert cells >= 2, cells
def rowid_at(i):
    cell = page + int.from_bytes(data[header + 8 + 2 * i:header + 10 + 2 * i], "big")
    n = 0
    while data[cell + n] & 0x80:  # the payload size's varint
        n += 1
    return cell + n + 1  # the rowid's varint: one byte for a small rowid
a, b = rowid_at(0), rowid_at(1)
assert data[a] < 0x80 and data[b] < 0x80
data[a], data[b] = data[b], data[a]
open(path, "wb").write(bytes(data))
PY
"$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("pragma quick_check").fetchall())' broken.db \
  | grep -q "out of order" || fail "the broken page does not fail quick_check"
before=$(sha broken.db)
damaged="is damaged (SQLite: "
recover="'pbench store rebuild --db $work/broken.db' makes a new store from the result documents in the runs directory"
for command in "collect s" "submit s --again" "sweep t --partitions 2 --queue-depths 1" \
  "check s --reference ref.toml" "rm s --yes"; do
  # shellcheck disable=SC2086
  expect_fail 7 "pbench: damaged store: store '$work/broken.db' $damaged" \
    "$PBENCH" --db "$work/broken.db" $command
  # shellcheck disable=SC2086
  out=$("$PBENCH" --db "$work/broken.db" $command 2>&1) || true
  # SQLite's words: quick_check's finding ("Rowid .. out of order"), or "database disk image is
  # malformed" where a command reads the store before it opens it to write (sweep's plan reads
  # this machine's earlier runs).
  [[ "$out" == *"out of order"*"$recover"* || "$out" == *"malformed"*"$recover"* ]] ||
    fail "'$command' on a broken page said: $out"
  [[ $(sha broken.db) == "$before" ]] || fail "'$command' wrote into the damaged store"
done
[[ -d runs/s ]] || fail "rm of a sweep in a damaged store removed its directory"
# A read that meets the damaged page says the same (SQLite: "database disk image is malformed").
for command in "query points --sweep s" "status s"; do
  # shellcheck disable=SC2086
  expect_fail 7 "pbench: damaged store: store '$work/broken.db' is damaged (SQLite: database disk image is malformed); nothing was written into it" \
    "$PBENCH" --db "$work/broken.db" $command
done
rc=0
"$PBENCH" --db broken.db store verify > broken.out 2>&1 || rc=$?
[[ $rc -eq 7 ]] || fail "verify of a broken page exited $rc, expected 7: $(cat broken.out)"
grep -q "^integrity_check: On tree page [0-9]* cell [0-9]*: Rowid [0-9]* out of order$" broken.out || fail "verify does not name the page: $(cat broken.out)"
grep -qF "recover: 'pbench store rebuild --db broken.db' makes a new store" broken.out || fail "verify does not say how to recover: $(cat broken.out)"
[[ $(sha broken.db) == "$before" ]] || fail "verify wrote into the damaged store"

# Rebuild: a new file from the runs directory, the damaged one kept as it was.
"$PBENCH" --db broken.db store rebuild > rebuild.out 2> rebuild.err \
  || fail "rebuild: $(cat rebuild.out rebuild.err)"
[[ $(sha broken.db) == "$before" ]] || fail "rebuild changed the damaged store"
grep -q "^store 'broken.db.rebuilt' rebuilt from the runs directory '$work/runs': 1 sweeps, 2 points, 2 runs, 4 attempts, 4 results stored$" rebuild.out \
  || fail "rebuild said: $(cat rebuild.out rebuild.err)"
grep -q "^the store 'broken.db' (kept as it was) held 4 results$" rebuild.out \
  || fail "rebuild does not say what the old store held: $(cat rebuild.out)"
grep -qF "to use the new store: mv 'broken.db' 'broken.db.damaged' && mv 'broken.db.rebuilt' 'broken.db'" rebuild.out \
  || fail "rebuild does not say how to use the new store: $(cat rebuild.out)"
"$PBENCH" --db broken.db.rebuilt store verify > rebuilt.out || fail "verify of the rebuilt store: $(cat rebuilt.out)"
# The rebuilt store answers with the original figures, runs and history.
"$PBENCH" --db broken.db.rebuilt query logp --sweep s --format csv > logp-rebuilt.csv
diff logp.csv logp-rebuilt.csv > /dev/null || fail "query logp differs: $(diff logp.csv logp-rebuilt.csv)"
"$PBENCH" --db broken.db.rebuilt query system --sweep s --format csv > system-rebuilt.csv
diff system.csv system-rebuilt.csv > /dev/null || fail "query system differs: $(diff system.csv system-rebuilt.csv)"
"$PBENCH" --db broken.db.rebuilt history s --metric logp_g --format json > history-rebuilt.json
diff history.json history-rebuilt.json > /dev/null || fail "history differs: $(diff history.json history-rebuilt.json)"
"$PBENCH" --db broken.db.rebuilt check s --reference ref.toml --allow-reference-run > /dev/null || fail "check on the rebuilt store"
# It is a store to go on with: the next run goes into it.
"$PBENCH" --db broken.db.rebuilt run s --again > /dev/null 2> run3.err || fail "run 3: $(cat run3.err)"
expect_results 6 broken.db.rebuilt

# A sweep planned before sweeps kept their record: the old store's row, when it can be read.
mv runs/s/sweep.json sweep.json.kept
"$PBENCH" --db broken.db store rebuild -o from-old-row.db > /dev/null 2>&1 || fail "rebuild from the old row"
expect_results 6 from-old-row.db
# Neither record nor readable store: the sweep is named, not recovered.
"$PBENCH" --db nowhere.db store rebuild -o nothing.db > nothing.out 2> nothing.err \
  || fail "rebuild without a store: $(cat nothing.out nothing.err)"
grep -q "sweep s: no sweep.json here and the old store does not hold the sweep: its 6 result documents are not recovered" nothing.err \
  || fail "rebuild does not name the sweep it could not recover: $(cat nothing.err)"
grep -q "could not be read" nothing.out || fail "rebuild does not say the old store could not be read: $(cat nothing.out)"
mv sweep.json.kept runs/s/sweep.json

# Bad input: nothing written, nothing changed.
digest=$(db_digest)
expect_fail 2 "'$PBENCH_DB' exists: rebuild writes a new store and overwrites nothing; choose another with --output; nothing was written" \
  "$PBENCH" --db broken.db store rebuild -o "$PBENCH_DB"
[[ $(db_digest) == "$digest" ]] || fail "rebuild into an existing store changed it"
expect_fail 2 "no runs directory '$work/missing': give the one the sweeps ran in with --runs-dir; nothing was written" \
  "$PBENCH" --db broken.db --runs-dir "$work/missing" store rebuild -o new.db
[[ ! -e new.db ]] || fail "rebuild without a runs directory wrote new.db"
echo "not a store" > text.db
expect_fail 3 "'text.db' is not a pbench store" "$PBENCH" --db text.db store verify
echo "store: ok"
