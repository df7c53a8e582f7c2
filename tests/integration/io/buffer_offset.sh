#!/usr/bin/env bash
# Issue 19: where the I/O buffer starts decides what a read from the page cache costs on some
# processors, and b_eff_io rev 2.1 reads into and writes from malloc(M_PART), which glibc places
# 16 bytes past a page boundary. pbench-io's every read and write of a benchmark file uses a
# buffer at that place by default, and at --buffer-offset N when given; the result records it,
# and says it in differences_from_rev_2_1 only when it is not rev 2.1's. The addresses are seen
# from outside, in the system calls (strace), not as pbench-io reports them.
source "$(dirname "$0")/common.sh"

command -v strace >/dev/null || { echo "SKIP: strace is not installed"; exit 77; }
strace -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }

# run NAME [OPTIONS...]: one process, partition 1, traced; the trace in NAME.trace.
run() {
  local name=$1
  shift
  mpiexec -n 1 strace -f -o "$name.trace" -e trace=openat,pread64,pwrite64 \
    -e raw=pread64,pwrite64 "$PBENCH_IO" -T 1 --partitions 1 "${SMALL[@]}" --dir "$work" \
    --output "$name.json" "$@" > "$name.txt" || fail "$name: $(cat "$name.txt")"
  validate "$name.json"
}

# check NAME OFFSET: every pread64/pwrite64 on a file of the run's directory had its buffer OFFSET
# bytes past a page boundary, reads and writes of every type were seen, and the result says so.
check() {
  "$PY" - "$1" "$2" <<'PY' || fail "$1: the buffer is not where it should be"
import json, re, sys
name, offset = sys.argv[1], int(sys.argv[2])
files = {}   # (pid, fd) -> benchmark file
calls = {"pread64": 0, "pwrite64": 0}
types = set()
wrong = []
for line in open(name + ".trace"):
    pid, rest = line.split(" ", 1) if line[0].isdigit() else ("0", line)
    m = re.match(r'\s*openat\(AT_FDCWD, "([^"]*/pbench-io\.[^"/]*/(p\d+_type\d)[^"]*)", .*\) = (\d+)', rest)
    if m:
        files[(pid, int(m.group(3)))] = m.group(2)
        continue
    m = re.match(r'\s*(pread64|pwrite64)\((0x[0-9a-f]+|\d+), (0x[0-9a-f]+), ', rest)
    if m and (pid, int(m.group(2), 0)) in files:
        calls[m.group(1)] += 1
        types.add((m.group(1), files[(pid, int(m.group(2), 0))]))
        if int(m.group(3), 16) % 4096 != offset:
            wrong.append(line.strip())
assert not wrong, "%d calls with the buffer elsewhere, e.g. %s" % (len(wrong), wrong[0])
for call in ("pread64", "pwrite64"):
    seen = sorted(f for c, f in types if c == call)
    assert seen == ["p1_type%d" % t for t in range(5)], (call, seen)
assert calls["pread64"] > 40 and calls["pwrite64"] > 40, calls
doc = json.load(open(name + ".json"))
run = doc["measurements"]["run"]
run = dict(zip([c["name"] for c in run["columns"]], run["rows"][0]))
assert run["buffer_offset"] == offset, run
assert doc["parameters"]["buffer_offset"]["value"] == offset, doc["parameters"]["buffer_offset"]
diffs = [r[0] for r in doc["measurements"]["differences_from_rev_2_1"]["rows"]]
assert ("I/O buffer" in diffs) == (offset != 16), diffs
print("%s: %d reads and %d writes, buffer %d bytes past a page boundary" % (
    name, calls["pread64"], calls["pwrite64"], offset))
PY
}

run default
check default 16
grep -q "I/O buffer 16 B past a page boundary (as b_eff_io rev 2.1's malloc)" default.txt ||
  fail "the protocol heading does not name the buffer's place: $(head -1 default.txt)"
run aligned --buffer-offset 0
check aligned 0
run other --buffer-offset 1712
check other 1712
no_benchmark_files "$work"
echo "buffer offset: ok"
