#!/usr/bin/env bash
# Every bad input gets a clear one-line error and a non-zero exit, and the store is unchanged.
source "$(dirname "$0")/common.sh"

"$PBENCH" sweep base --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
digest=$(db_digest)
unchanged() { [[ $(db_digest) == "$digest" ]] || fail "the store changed after: $*"; }

expect_fail 2 "unknown worker 'nope' (known: logp, comm, io, bcast, links)" "$PBENCH" sweep s1 --workers nope
unchanged unknown worker
expect_fail 2 "unknown scheduler 'lsf' (known: local, slurm, pbs)" "$PBENCH" sweep s1 --scheduler lsf
expect_fail 2 "--partitions: '8,,x' has an empty item at position 2" "$PBENCH" sweep s1 --partitions 8,,x
expect_fail 2 "--partitions: '0': '0' must be positive" "$PBENCH" sweep s1 --partitions 0
expect_fail 2 "--queue-depths: '-4': '-4' must be positive" "$PBENCH" sweep s1 --queue-depths -4
# Partitions as nodes x processes per node.
expect_fail 2 "--partitions: '0x4': '0x4': the number of nodes must be positive" \
  "$PBENCH" sweep s1 --scheduler slurm --partitions 0x4
expect_fail 2 "--partitions: '2,4x0': '4x0': the processes per node must be positive" \
  "$PBENCH" sweep s1 --scheduler slurm --partitions 2,4x0
for item in 4x x2 2x2x2; do
  expect_fail 2 "--partitions: '$item': '$item' is not a partition (P processes, or NxP" \
    "$PBENCH" sweep s1 --scheduler slurm --partitions "$item"
done
expect_fail 2 "--partitions: '2x1' is listed twice" \
  "$PBENCH" sweep s1 --scheduler slurm --partitions 2x1,4,2x1
expect_fail 2 "partition 2x1 needs 2 nodes, but the local scheduler runs every job on this machine" \
  "$PBENCH" sweep s1 --partitions 1x2,2x1
expect_fail 2 "partition 2x2 gives its own nodes and processes per node: --nodes and" \
  "$PBENCH" sweep s1 --scheduler pbs --partitions 2,2x2 --procs-per-node 2
expect_fail 2 "--share-nodes applies to a batch scheduler (--scheduler slurm or pbs), not local" \
  "$PBENCH" sweep s1 --share-nodes
expect_fail 2 "sweep name 'a;touch canary' is not allowed" "$PBENCH" sweep 'a;touch canary'
expect_fail 2 "sweep name '../up' is not allowed" "$PBENCH" sweep '../up'
expect_fail 2 "sweep 'base' exists with different parameters (use --force to replace it)" \
  "$PBENCH" sweep base --partitions 4 --queue-depths 1
expect_fail 2 "--set 'logp.output=/etc/x': pbench sets the output path itself" \
  "$PBENCH" sweep s1 --set logp.output=/etc/x
expect_fail 2 "no sweep named 'ghost'" "$PBENCH" submit ghost
expect_fail 2 "unknown format 'xml'" "$PBENCH" query logp --format xml
unchanged bad sweeps
[[ ! -e canary && ! -e ../up ]] || fail "a name was executed or used as a path"

# The same sweep again is accepted and changes nothing.
"$PBENCH" sweep base --partitions 2 --queue-depths 1 "${SMALL[@]}" | grep >/dev/null unchanged
unchanged identical sweep

# Files that are not a pbench store are refused and not modified.
echo "my notes" > notes.txt
cp notes.txt notes.orig
expect_fail 3 "'notes.txt' is not a pbench store (not an SQLite database)" "$PBENCH" --db notes.txt sweep s2
cmp -s notes.txt notes.orig || fail "a non-database file was modified"
sqlite3 other.db "create table t(x); insert into t values (1);"
cp other.db other.orig
expect_fail 3 "'other.db' is an SQLite database but not a pbench store" "$PBENCH" --db other.db query logp
cmp -s other.db other.orig || fail "another application's database was modified"
cp "$PBENCH_DB" v13.db
sqlite3 v13.db "pragma user_version = 13; pragma journal_mode = delete;" > /dev/null
cp v13.db v13.orig
expect_fail 3 "'v13.db' has store schema version 13; this pbench reads version 12" "$PBENCH" --db v13.db status base
cmp -s v13.db v13.orig || fail "a store of another version was modified"
expect_fail 3 "no pbench store at 'missing.db'" "$PBENCH" --db missing.db query logp
[[ ! -e missing.db ]] || fail "a query created a store"

# A malformed result document is rejected; nothing of it is stored. The job itself cuts its
# result short after the worker (the driver collects each result as its point ends, so a file
# edited later is another case: trust: runs_agree), and collect says what the driver found.
sed '$a head -c 200 result.json > truncated.tmp && mv truncated.tmp result.json' \
  "$(dirname "$0")/../../../jobtemplates/job.sh" > truncating.sh
"$PBENCH" sweep cut --partitions 2 --queue-depths 1 --template truncating.sh "${SMALL[@]}" > /dev/null
"$PBENCH" submit cut --foreground > /dev/null 2>&1 || true
expect_fail 4 "malformed JSON at byte" "$PBENCH" collect cut
point_of_cut="select p.id from points p join sweeps s on s.id = p.sweep_id where s.name = 'cut'"
[[ $(sqlite3 "$PBENCH_DB" "select count(*) from results where point_id in ($point_of_cut)") == 0 ]] ||
  fail "a truncated document was stored"
[[ $(sqlite3 "$PBENCH_DB" "select state from points where id in ($point_of_cut)") == failed ]] ||
  fail "the point was not failed"
# A second collect exits as the first did: the refusal is remembered.
expect_fail 4 "" "$PBENCH" collect cut
# One packed job has one shape: a sweep of shapes is not packed into one.
"$PBENCH" sweep shaped --scheduler slurm --partitions 2x1,1x2 --queue-depths 1 > /dev/null
digest=$(db_digest)
expect_fail 2 "--pack sweep runs every point in one job of one shape" \
  "$PBENCH" submit shaped --pack sweep --foreground
unchanged pack sweep of shapes
echo "bad input: ok"
