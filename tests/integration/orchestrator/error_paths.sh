#!/usr/bin/env bash
# Error paths a new user met (issue 17), as an unprivileged user (root ignores permissions): a
# valid store in a read-only directory is read; SQLite's own error is passed on when opening
# fails; a read-only runs directory fails at once with the path and the system's reason.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/../lib/nobody.sh"
DATA=${PBENCH_TEST_DATA:?PBENCH_TEST_DATA must name tests/data}
# pbench and the worker where nobody can run them (not inside a private checkout).
staged=$(stage_for_nobody "$PBENCH" "$PBENCH_WORKER_DIR/pbench-logp")
PBENCH="$staged/pbench"
export PBENCH_WORKER_DIR="$staged"
as_nobody() { "${NOBODY[@]}" "$@"; }

"$PBENCH" run base --partitions 1,2 --queue-depths 1 "${SMALL[@]}" > /dev/null

# A valid store in a directory nobody may write: opened read-only for queries.
mkdir ro && cp "$PBENCH_DB" ro/pbench.db && chmod 444 ro/pbench.db && chmod 555 ro
as_nobody "$PBENCH" --db ro/pbench.db query points --format json > ro.json \
  || fail "a store in a read-only directory was not read: $(cat ro.json)"
grep -q '"base"' ro.json || fail "query points read nothing from the read-only store"
as_nobody "$PBENCH" --db ro/pbench.db query logp --sweep base > /dev/null || fail "query logp (ro)"
as_nobody "$PBENCH" --db ro/pbench.db status base > /dev/null || fail "status (ro)"
[[ ! -e ro/pbench.db-wal && ! -e ro/pbench.db-shm ]] || fail "files were made in a read-only dir"
# Writing to it is refused with SQLite's reason, not "not an SQLite database".
out=$(as_nobody "$PBENCH" --db ro/pbench.db sweep s2 --partitions 2 2>&1) && fail "wrote: $out"
[[ "$out" != *"not an SQLite database"* && "$out" == *"pbench: store error:"* ]] \
  || fail "writing to a read-only store said: $out"
# After an upgrade of pbench whose views differ from the store's (here: the store's logp_table
# as it was before its "EEL med" column, and another fingerprint), a user who may only read the
# store reads it through this pbench's views made for the command (a note says so), and the
# file is left as it was.
older_views_copy "$PBENCH_DB" oldviews logp_table
before=$(sha256sum < oldviews/pbench.db)
as_nobody "$PBENCH" --db oldviews/pbench.db query logp --sweep base --format csv > oldviews.csv \
  2> oldviews.err || fail "a read-only store with older views was not read: $(cat oldviews.err)"
head -1 oldviews.csv | grep -q "eel_median" || fail "older views were read: $(head -1 oldviews.csv)"
grep -q "^base,2," oldviews.csv || fail "query logp read no rows: $(cat oldviews.csv)"
grep -q "note: store.*reads it through this pbench's own" oldviews.err \
  || fail "no note on the temporary views: $(cat oldviews.err)"
as_nobody "$PBENCH" --db oldviews/pbench.db query system --sweep base --format csv > sys.csv \
  2> /dev/null || fail "query system (older views, read-only)"
grep -q "^base,logp_g," sys.csv || fail "query system (older views) answered nothing: $(cat sys.csv)"
as_nobody "$PBENCH" --db oldviews/pbench.db history base > hist.txt 2> /dev/null \
  || fail "history (older views, read-only)"
grep -q "logp_g" hist.txt || fail "history (older views) has no logp_g: $(cat hist.txt)"
[[ $(sha256sum < oldviews/pbench.db) == "$before" && ! -e oldviews/pbench.db-wal ]] \
  || fail "reading a store with older views changed its file"
# The same store where the user may write: the views are made in the store (once).
chmod 755 oldviews && chmod 644 oldviews/pbench.db
"$PBENCH" --db oldviews/pbench.db query logp --sweep base > /dev/null 2> upgraded.err
[[ ! -s upgraded.err ]] || fail "a writable store read with a note: $(cat upgraded.err)"
[[ $(sqlite3 oldviews/pbench.db "SELECT value FROM meta WHERE key = 'store_views'") != \
  "an older pbench" ]] || fail "the views of a writable store were not made again"
"$PBENCH" --db oldviews/pbench.db query system --sweep base --format csv 2> /dev/null \
  | cmp -s - sys.csv || fail "the temporary views answered otherwise than the store's new ones"
# An older store version cannot be read before its migration: the error says who can make it.
mkdir oldversion && sqlite3 oldversion/pbench.db < "$DATA/stores/store-v3.sql"
chmod 444 oldversion/pbench.db && chmod 555 oldversion
expect_fail 3 "has schema version 3 and this pbench reads version" \
  as_nobody "$PBENCH" --db oldversion/pbench.db query points
expect_fail 3 "its owner migrates it by opening it once with this pbench (e.g. 'pbench --db oldversion/pbench.db list')" \
  as_nobody "$PBENCH" --db oldversion/pbench.db query points

# A store nobody may read: SQLite's own error, not "not an SQLite database".
mkdir locked && cp "$PBENCH_DB" locked/pbench.db && chmod 600 locked/pbench.db
out=$(as_nobody "$PBENCH" --db locked/pbench.db query points 2>&1) && fail "read: $out"
[[ "$out" == *"pbench: store error: "*"locked/pbench.db"*"unable to open database file"* ]] \
  || fail "an unreadable store said: $out"
[[ "$out" != *"not an SQLite database"* ]] || fail "an unreadable store was called not a database"
# A file that is not a database still says so.
mkdir rodir && echo "my notes" > rodir/notes.db && chmod 555 rodir
expect_fail 3 "'rodir/notes.db' is not a pbench store (not an SQLite database)" \
  as_nobody "$PBENCH" --db rodir/notes.db query points

# A runs directory that became read-only after planning: submit and wait fail at once with the
# lock's path and the system's reason, and nothing claims another driver holds it.
mkdir shared && chmod 777 shared
export PBENCH_DB="$work/shared/pbench.db" PBENCH_RUNS_DIR="$work/shared/runs"
as_nobody "$PBENCH" sweep late --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
chmod -R a-w shared/runs
lock="$work/shared/runs/late/driver.lock"
for cmd in "submit late --foreground" "wait late" "submit late"; do
  # timeout: a hang guard only (exit 124 leaves no message); the message below shows the lock
  # was refused at once, not waited for.
  out=$(timeout 300 "${NOBODY[@]}" "$PBENCH" $cmd 2>&1) && fail "$cmd: $out"
  [[ "$out" == *"cannot open the driver lock '$lock': Permission denied"* ]] \
    || fail "'$cmd' said: $out"
  [[ "$out" != *"already being driven"* ]] || fail "'$cmd' claimed a driver: $out"
done
chmod -R u+w shared/runs
# A driver that is gone leaves no lock behind (flock): after kill -9 of the process that drove
# the sweep, the next submit drives it, and nothing says "already being driven".
"$PBENCH" submit late --foreground > driver.out 2>&1 &
driver=$!
for _ in $(seq 600); do
  # (a point's state in status's rows: the nested per-partition table has a column 'planned')
  "$PBENCH" status late --format json | /usr/bin/python3 -c \
    'import json, sys; sys.exit(not any(r["state"] == "planned" for r in json.load(sys.stdin)["rows"]))' \
    || break
  sleep 0.1
done
kill -9 "$driver"
wait "$driver" 2> /dev/null || true
out=$("$PBENCH" submit late 2>&1)
[[ "$out" != *"already being driven"* ]] || fail "a killed driver's lock was taken as held: $out"
"$PBENCH" wait late --timeout 120 > /dev/null || fail "the sweep did not finish after the fix"
echo "error paths: ok"
