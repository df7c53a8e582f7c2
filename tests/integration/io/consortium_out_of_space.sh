#!/usr/bin/env bash
# The consortium suite on a full file system (a 5 MB tmpfs; each test writes a 2 MiB file and
# the files of earlier tests stay until the end): the second iteration's sustained write fails.
# For independent and collective MPI-IO, POSIX I/O and file per process the run stops with one
# clear line naming the file and the errno text, exits 3, writes the first iteration's tests as a
# partial, not valid result with the reason, and removes every file it made. Then the same for
# the many-small-files test on a file system without free inodes. Mounting needs
# root: without it the test is skipped (exit 77) and says why.
source "$(dirname "$0")/common.sh"

mount_small_tmpfs 5m

for variant in "independent" "collective --collective 1" "posix --api posix" \
    "fpp --file-per-process 1"; do
  read -r name options <<<"$variant"
  rc=0
  # shellcheck disable=SC2086
  mpiexec -n 2 "$PBENCH_IO" --suite consortium --transfer-size 65536 --block-size 1048576 \
    --iterations 3 --dir small $options --output result.json > protocol.txt 2> errors.txt || rc=$?
  cat errors.txt
  [[ $rc -eq 3 ]] || fail "$name: exit status $rc, expected 3"
  file="$work/small/pbench-io\.[A-Za-z0-9]+/consortium\.sustained_write\.1"
  [[ $name == fpp ]] && file="$file\.[01]"
  grep -E "^pbench-io: error: write to '$file' failed: No space left on device" errors.txt ||
    fail "$name: no clear error naming the file and the errno text"
  [[ $(grep -c "pbench-io: error" errors.txt) -eq 1 ]] || fail "$name: more than one error line"
  validate result.json
  "$PY" - result.json <<'PY' || fail "$name: the partial result is not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["validity"]["valid"] is False
reasons = doc["validity"]["reasons"]
assert len(reasons) == 1 and reasons[0].startswith(
    "partial result: the run stopped at iteration 1, sustained_write: write to "), reasons
assert "No space left on device" in reasons[0], reasons
t = doc["measurements"]["consortium_tests"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
# The first iteration's three tests, complete, and nothing of the stopped one.
assert [(r["test"], r["iteration"]) for r in rows] == [
    ("sustained_write", 0), ("cached_write", 0), ("sustained_read", 0)], rows
for r in rows:
    assert r["bytes"] == 2 * 1048576 and r["read_errors"] == 0, r
    assert abs(r["transfer_rate"] - r["bytes"] / r["aggregate_time"]) <= 1e-9 * r["transfer_rate"]
p = doc["measurements"]["consortium_processes"]
assert len(p["rows"]) == 3 * 2, p["rows"]
metrics = {m["name"]: m for m in doc["summary"]}
for test in ("sustained_write", "cached_write", "sustained_read"):
    m = metrics[test + "_transfer_rate"]
    # One completed iteration: one sample, the rate of that iteration.
    assert m["samples"] == 1, m
    row = [r for r in rows if r["test"] == test][0]
    assert abs(m["value"] - row["transfer_rate"]) <= 1e-9 * m["value"], (m, row)
PY
  [[ -z $(ls -A small) ]] || fail "$name: files left on the full file system: $(ls -AR small)"
  rm -f result.json
done

# Through pbench: the point fails with exit status 3; its partial result (the iteration done
# before the file system filled) is stored, not valid, and the query says why with the error.
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
export PBENCH_WORKER_DIR=$(dirname "$PBENCH_IO")
rc=0
"$PBENCH" run full --workers io --suite consortium --partitions 2 --transfer-sizes 64KiB \
  --set io.block_size=1MiB --set io.iterations=3 --set io.dir="$work/small" > table.txt \
  2> run.txt || rc=$?
cat table.txt run.txt
[[ $rc -ne 0 ]] || fail "pbench run of a point that ran out of space exited 0"
# (a note wraps at 160 columns: its lines joined again)
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n      / /g' table.txt |
  grep -E "^note: sweep full, partition 2, segmented, mpiio-indep, transfer 65536 B: not valid: partial result: the run stopped at iteration 1, sustained_write: write to '.*/consortium\.sustained_write\.1' failed: No space left on device" ||
  fail "the consortium table does not name the stopped point with its error"
# The rows of the partial result: the three tests of iteration 0, each not valid, 1 sample. The
# table is too wide for 160 columns, so the label columns that say the same in every row (sweep,
# processes, ..., valid) leave it for notes.
[[ $(grep -cE "^ +- +65536 +1048576 +1 +(sustained_write|cached_write|sustained_read) .* 1$" table.txt) -eq 3 ]] ||
  fail "the table does not show the partial result's three tests"
grep -qx "note: valid: no in every row" table.txt ||
  fail "the table does not show the partial result's three tests as not valid"
grep -E "failed, exit status 3: pbench-io: error: write to .*; its partial result \(not valid\) is stored" run.txt ||
  fail "pbench run does not say that the partial result was stored"
grep -E "; 0 results stored, 1 partial results \(not valid\)$" run.txt ||
  fail "pbench run does not count the partial result"
[[ -z $(ls -A small) ]] || fail "pbench run: files left on the full file system: $(ls -AR small)"
umount small

# Out of inodes in the many-small-files test (a tmpfs of 30 inodes, 40 small files): the I/O
# tests are kept, the small-files test stops at its first phase, and its files are removed.
mount -t tmpfs -o size=5m,nr_inodes=30 tmpfs small || fail "cannot mount the inode-limited tmpfs"
rc=0
mpiexec -n 2 "$PBENCH_IO" --suite consortium --transfer-size 1000 --block-size 4000 \
  --small-files 1 --files-per-process 20 --dir small --output result.json > protocol.txt \
  2> errors.txt || rc=$?
cat errors.txt
[[ $rc -eq 3 ]] || fail "small files: exit status $rc, expected 3"
grep -E "^pbench-io: error: create '$work/small/pbench-io\.[A-Za-z0-9]+/small\.shared/f\.[01]\.[0-9]+' failed: No space left on device" errors.txt ||
  fail "small files: no clear error naming the file and the errno text"
validate result.json
"$PY" - result.json <<'PY' || fail "small files: the partial result is not as expected"
import json, sys
doc = json.load(open(sys.argv[1]))
reasons = doc["validity"]["reasons"]
assert doc["validity"]["valid"] is False and len(reasons) == 1, reasons
assert reasons[0].startswith("partial result: the run stopped at small files, shared directory, "
                             "iteration 0, create: create "), reasons
tests = doc["measurements"]["consortium_tests"]["rows"]
assert len(tests) == 3, tests
assert doc["measurements"]["consortium_small_files"]["rows"] == []
metrics = {(m["name"], m["labels"].get("directory")): m for m in doc["summary"]}
assert metrics[("sustained_read_transfer_rate", None)]["value"] > 0
# Nothing measured for the small files: no value, no samples.
assert metrics[("create_rate", "shared")]["value"] is None
assert metrics[("create_rate", "shared")]["samples"] == 0
PY
[[ -z $(ls -A small) ]] || fail "small files: files left behind: $(ls -AR small)"
echo "consortium out of space: ok"
