#!/usr/bin/env bash
# The consortium suite's buffers and read check (issue 30): the writes come from page-aligned
# memory of one byte per byte moved (no buffer reuse), the reads go into one page-aligned
# buffer of the largest transfer, reused as IOR does, and the result's table consortium_buffers
# says so. The read check still sees every byte: --inject-corruption overwrites two bytes of
# every process's data before each sustained read (the middle byte of its first transfer, which
# only the untimed second read sees, and the first byte of its last, which the timed transfer's
# spot check sees too), so each reader counts 3, for MPI-IO and POSIX, a shared file and one
# file per process, independent and collective calls; without the fault it counts 0.
source "$(dirname "$0")/common.sh"

# run NAME EXPECTED_ERRORS_PER_READ ARGS...: a 2-process run, its read errors and buffers checked.
run() {
  local name=$1 expected=$2
  shift 2
  mpiexec -n 2 "$PBENCH_IO" --suite consortium --transfer-size 4096 --block-size 16384 \
    --iterations 2 --output "$name.json" "$@" > "$name.txt" 2>&1 ||
    fail "$name: pbench-io $* exited $?: $(tail -5 "$name.txt")"
  validate "$name.json"
  "$PY" - "$name.json" "$expected" "$*" <<'PY' || fail "$name: $(tail -5 "$name.txt")"
import sys
from result_tables import load
doc, table = load(sys.argv[1])
expected, args = int(sys.argv[2]), sys.argv[3]
tests = table("consortium_tests")
reads = [r for r in tests if r["test"] == "sustained_read"]
assert len(reads) == 2, tests
# Two readers, each finding the 3 wrong bytes of the other's data.
assert all(r["read_errors"] == 2 * expected for r in reads), reads
assert all(r["read_errors"] == 0 for r in tests if r["test"] != "sustained_read"), tests
buffers = {b["access"]: b for b in table("consortium_buffers")}
assert buffers["write"]["placement"] == "page-aligned" and buffers["write"]["page_offset"] == 0
assert buffers["write"]["bytes"] == 16384 and buffers["write"]["reuse"].startswith("none"), buffers
assert buffers["read"]["page_offset"] == 0 and buffers["read"]["bytes"] == 4096, buffers
assert "reused for every transfer" in buffers["read"]["reuse"], buffers
reasons = doc["validity"]["reasons"]
if expected:
    assert doc["validity"]["valid"] is False
    assert any(r.startswith("test fault --inject-corruption") for r in reasons), reasons
    assert any(r.startswith("sustained_read: %d bytes differed" % (4 * expected)) for r in reasons), reasons
else:
    assert not any("differed" in r or "inject" in r for r in reasons), reasons
print("%s: read errors %s per sustained read" % (args, [r["read_errors"] for r in reads]))
PY
  no_benchmark_files
}

run clean 0
run mpiio_shared 3 --inject-corruption
run mpiio_fpp 3 --inject-corruption --file-per-process 1
run mpiio_collective 3 --inject-corruption --collective 1
run posix_shared 3 --inject-corruption --api posix
run posix_fpp 3 --inject-corruption --api posix --file-per-process 1
echo "consortium read check: ok"
