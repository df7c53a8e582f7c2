#!/usr/bin/env bash
# A full file system (a 6 MB tmpfs): the run stops with one clear line naming the file and
# the errno text, exits 3, writes what it measured as a partial, invalid result, and removes
# its files. Mounting needs root: without it the test is skipped (exit 77) and says why.
source "$(dirname "$0")/common.sh"

if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: mounting a small tmpfs needs root"
  exit 77
fi
mkdir small
mount -t tmpfs -o size=6m tmpfs small || { echo "SKIP: cannot mount a tmpfs here"; exit 77; }
cleanup() { umount "$work/small" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

rc=0
mpiexec -n 2 "$PBENCH_IO" -T 2 --partitions 2 --dir small "${SMALL[@]}" --output result.json \
  > protocol.txt 2> errors.txt || rc=$?
cat errors.txt
[[ $rc -eq 3 ]] || fail "exit status $rc, expected 3"
grep -E "^pbench-io: error: write to '$work/small/pbench-io\.[A-Za-z0-9]+/p2_type[0-9](_rank[01])?' failed: No space left on device" errors.txt ||
  fail "no clear error naming the file and the errno text"
[[ $(grep -c "pbench-io: error" errors.txt) -eq 1 ]] || fail "more than one error line"
validate result.json
"$PY" - result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["validity"]["valid"] is False
reasons = doc["validity"]["reasons"]
partial = [r for r in reasons if r.startswith("partial result: the run stopped at partition 2, write, type ")]
assert len(partial) == 1 and "No space left on device" in partial[0], reasons
run = dict(zip([c["name"] for c in doc["measurements"]["run"]["columns"]],
               doc["measurements"]["run"]["rows"][0]))
assert run["complete"] is False, run
rows = doc["measurements"]["patterns"]["rows"]
assert len(rows) >= 1, "the patterns measured before the error are kept"
metrics = {m["name"]: m for m in doc["summary"]}
assert metrics["b_eff_io_system"]["value"] is None, metrics["b_eff_io_system"]
PY
[[ -z $(ls -A small) ]] || fail "files left on the full file system: $(ls -AR small)"
echo "out of space: ok"
