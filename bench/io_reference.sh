#!/usr/bin/env bash
# Prints pbench-io's type 2 (file per process) and type 0 (scatter, collective) bandwidths at
# 1 MB chunks beside a plain MPI-IO loop moving the same volume (bench/src/io_plain_loop.c)
# and beside dd's sequential limit on the same file system, interleaved over several runs so
# a drift of the machine shows in every column alike.
#
#   bench/io_reference.sh [RUNS] [T] [DIR]      (defaults: 3 runs, T = 6 s, the build dir)
# Needs a build (scripts/build); uses 2 ranks. dd writes with conv=fdatasync and reads with
# iflag=direct, so its figures are the disk's, not the page cache's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
runs=${1:-3}
T=${2:-6}
parent=${3:-$build}
io=$build/workers/io/pbench-io
plain=$build/bench/io_plain_loop
for b in "$io" "$plain"; do [[ -x $b ]] || { echo "missing $b: run scripts/build" >&2; exit 1; }; done
work=$(mktemp -d "$parent/pbench-io-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

mbs() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }
# dd_rate ARGS...: bytes/s from dd's summary line ("N bytes (...) copied, S s, ...").
dd_rate() {
  dd "$@" 2>&1 >/dev/null | awk '/copied/ { printf "%.1f", $1 / $(NF-3) / 1e6 }'
}

printf '%-4s %-7s %12s %12s %12s %12s\n' run access "type2 MB/s" "type0 MB/s" "plain MB/s" "dd MB/s"
for run in $(seq 1 "$runs"); do
  mpiexec -n 2 "$io" -T "$T" --partitions 2 --dir "$work" --cache-bytes 1000 \
    --memory-per-proc 1 --output "$work/result.json" > /dev/null
  # Pattern 19: type 2 at l = L = 1 MB; pattern 3: type 0 at l = L = 1 MB.
  read -r w2 r2 w0 r0 bytes <<<"$(/usr/bin/python3 - "$work/result.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["measurements"]["patterns"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
bw = {(r["access"], r["pattern"]): r for r in rows}
print(bw[("write", 19)]["bandwidth"], bw[("read", 19)]["bandwidth"],
      bw[("write", 3)]["bandwidth"], bw[("read", 3)]["bandwidth"],
      max(bw[("write", 19)]["bytes"], 2 * 1048576))
PY
)"
  per_process=$((bytes / 2))
  read -r _ pw_bytes pw_time _ pr_bytes pr_time <<<"$(mpiexec -n 2 "$plain" "$work" "$per_process" 1048576 | tr '\n' ' ')"
  count=$((bytes / 1048576))
  ddw=$(dd_rate if=/dev/zero of="$work/dd" bs=1M count="$count" conv=fdatasync)
  ddr=$(dd_rate if="$work/dd" of=/dev/null bs=1M iflag=direct)
  rm -f "$work/dd"
  printf '%-4s %-7s %12.1f %12.1f %12s %12s\n' "$run" write "$(mbs "$w2" 1)" "$(mbs "$w0" 1)" \
    "$(mbs "$pw_bytes" "$pw_time")" "$ddw"
  printf '%-4s %-7s %12.1f %12.1f %12s %12s\n' "$run" read "$(mbs "$r2" 1)" "$(mbs "$r0" 1)" \
    "$(mbs "$pr_bytes" "$pr_time")" "$ddr"
done
echo "volume per run: the bytes pbench-io's type 2 wrote at 1 MB (2 ranks); MB = 10^6 B"
