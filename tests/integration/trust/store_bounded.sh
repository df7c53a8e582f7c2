#!/usr/bin/env bash
# The check before a write, bounded (issue 54 item 2; docs/store.md, "A damaged store: the
# rule"): a writing command checks the whole file once and records its identity (device and
# inode, meta checked_file); on that file it then checks every small table whole and the last
# page of each growing one, so that a page damaged in place (the same inode, as a disk would)
# where a command reads or writes is still found before anything is written: a points page with
# its rows out of order, and the last leaf of the results table with an impossible cell count.
source "$(dirname "$0")/common.sh"
sha() { sha256sum "$1" | cut -d' ' -f1; }

"$PBENCH" run s --partitions 2 --queue-depths 1,8 "${SMALL[@]}" > /dev/null 2> run.err \
  || fail "run s: $(cat run.err)"
expect_results 2
# The whole check was made once, clean, and the file's identity recorded.
recorded=$(sqlite3 "$PBENCH_DB" "select value from meta where key = 'checked_file'")
[[ $recorded == "$(stat -c '%d:%i' "$PBENCH_DB")" ]] \
  || fail "meta checked_file is '$recorded', the store's file is $(stat -c '%d:%i' "$PBENCH_DB")"
"$PBENCH" collect s > /dev/null 2>&1 || fail "collect on the sound store"
sqlite3 "$PBENCH_DB" "pragma wal_checkpoint(truncate)" > /dev/null

# damage_in_place KIND: changes one page of the store where it is (the same inode).
damage_in_place() {
  "$PY" - "$PBENCH_DB" "$1" <<'PY'
import os, sqlite3, sys
path, kind = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
table = "points" if kind == "points" else "results"
# The points table's one leaf; the results table's last leaf, where the next result goes.
root = db.execute("select pageno from dbstat where name = ? and pagetype = 'leaf' "
                  "order by path desc limit 1", (table,)).fetchone()[0]
size = db.execute("pragma page_size").fetchone()[0]
db.close()
with open(path, "r+b") as f:
    f.seek((root - 1) * size)
    page = bytearray(f.read(size))
    assert page[0] == 0x0D, f"page {root} of the {table} table is not a leaf"
    cells = int.from_bytes(page[3:5], "big")
    if kind == "points":  # the first two rowids swapped: rows out of order
        def rowid_at(i):
            cell = int.from_bytes(page[8 + 2 * i:10 + 2 * i], "big")
            n = 0
            while page[cell + n] & 0x80:
                n += 1
            return cell + n + 1
        a, b = rowid_at(0), rowid_at(1)
        assert cells >= 2 and page[a] < 0x80 and page[b] < 0x80
        page[a], page[b] = page[b], page[a]
    else:  # a cell count the page cannot hold
        page[3:5] = (0xFFF0).to_bytes(2, "big")
    f.seek((root - 1) * size)
    f.write(page)
PY
}
cp "$PBENCH_DB" sound.db
inode=$(stat -c '%d:%i' "$PBENCH_DB")
for kind in points results; do
  # The sound store back into the same file (its inode kept), without a journal of the last try.
  rm -f "$PBENCH_DB-wal" "$PBENCH_DB-shm"
  cat sound.db > "$PBENCH_DB"
  damage_in_place "$kind"
  [[ $(stat -c '%d:%i' "$PBENCH_DB") == "$inode" ]] || fail "the damage made another file"
  before=$(sha "$PBENCH_DB")
  for command in "collect s" "sweep t --partitions 2 --queue-depths 1"; do
    # shellcheck disable=SC2086
    expect_fail 7 "pbench: damaged store: store '$PBENCH_DB' is damaged (SQLite: " \
      "$PBENCH" $command
    [[ $(sha "$PBENCH_DB") == "$before" ]] || fail "'$command' wrote into the damaged store ($kind)"
  done
  rc=0
  "$PBENCH" store verify > verify.out 2>&1 || rc=$?
  [[ $rc -eq 7 ]] || fail "verify of the damaged $kind page exited $rc: $(cat verify.out)"
done
echo "trust: store_bounded: ok"
