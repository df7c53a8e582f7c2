#!/usr/bin/env bash
# A full file system (a 6 MB tmpfs): the run stops with one clear line naming the file and
# the errno text, exits 3, writes what it measured as a partial, invalid result, and removes
# its files. Mounting needs root: without it the test is skipped (exit 77) and says why.
source "$(dirname "$0")/common.sh"

mount_small_tmpfs 6m

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
# No failed call is counted as moved data (issue 24): every row's bytes are those of the calls
# that succeeded on every process (repetitions x processes x L), the row where the write failed
# says so in its errors, and the result names the failed calls among its reasons.
cols = [c["name"] for c in doc["measurements"]["patterns"]["columns"]]
table = [dict(zip(cols, r)) for r in rows]
failed = [r for r in table if r["errors"] > 0 and r["access"] == "write"]
for r in table:
    per_call = r["partition"] * r["memory_chunk"]
    if r["errors"] == 0:
        assert r["bytes"] == r["repetitions"] * per_call, r
    else:  # processes may have failed at different calls: each counts its own successes
        assert r["bytes"] >= r["repetitions"] * per_call and r["bytes"] % r["memory_chunk"] == 0, r
assert failed, "the row of the failed write has no errors: " + repr(table[-1])
assert failed[-1] is table[-1], (failed[-1], table[-1])
calls = [r for r in reasons if r.startswith("failed calls: ")]
assert len(calls) == 1 and "their bytes and repetitions are not counted" in calls[0], reasons
# The untimed deletion probe (32 MiB) does not fit either: said in a warning, not fatal; the
# run meets the full file system in a call it names.
probe = [w for w in doc["warnings"] if w.startswith("deletion probe: ")]
assert len(probe) == 1 and "No space left on device" in probe[0], doc["warnings"]
metrics = {m["name"]: m for m in doc["summary"]}
assert metrics["b_eff_io_system"]["value"] is None, metrics["b_eff_io_system"]
PY
[[ -z $(ls -A small) ]] || fail "files left on the full file system: $(ls -AR small)"
echo "out of space: ok"
