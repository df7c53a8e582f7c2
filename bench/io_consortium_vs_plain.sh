#!/usr/bin/env bash
# Prints pbench-io's consortium suite, segmented pattern at 1 MiB transfers, on one shared file
# and on one file per process (sustained write and sustained read transfer rates, open and close
# included) beside the plain MPI-IO loop (bench/src/io_plain_loop.c: file per process, 1 MiB
# calls, sync inside the timing, open and close outside it) moving the same bytes, interleaved
# over several runs so a drift of the machine shows in every column alike.
#
#   bench/io_consortium_vs_plain.sh [RUNS] [BLOCK_MIB] [DIR]   (defaults: 3, 64 MiB, build dir)
# Needs a build (scripts/build); uses 2 ranks. The data set is 2 x BLOCK: unless that is large
# against the page cache, the reads measure memory (pbench-io says so in its warnings).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
runs=${1:-3}
block_mib=${2:-64}
parent=${3:-$build}
io=$build/workers/io/pbench-io
plain=$build/bench/io_plain_loop
for b in "$io" "$plain"; do [[ -x $b ]] || { echo "missing $b: run scripts/build" >&2; exit 1; }; done
[[ $runs =~ ^[1-9][0-9]*$ && $block_mib =~ ^[1-9][0-9]*$ ]] ||
  { echo "RUNS and BLOCK_MIB must be positive integers" >&2; exit 2; }
work=$(mktemp -d "$parent/pbench-io-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
MiB=1048576
block=$((block_mib * MiB))

# consortium FPP: prints the sustained write and read rates [B/s] of one run.
consortium() {
  mpiexec -n 2 "$io" --suite consortium --pattern segmented --transfer-size "$MiB" \
    --block-size "$block" --file-per-process "$1" --dir "$work" --output "$work/result.json" \
    2>/dev/null >/dev/null
  /usr/bin/python3 - "$work/result.json" <<'PY'
import json, sys
m = {x["name"]: x["value"] for x in json.load(open(sys.argv[1]))["summary"]}
print(m["sustained_write_transfer_rate"], m["sustained_read_transfer_rate"])
PY
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }

printf '%-4s %-6s %16s %16s %16s\n' run access "shared MB/s" "per-proc MB/s" "plain MB/s"
for run in $(seq 1 "$runs"); do
  read -r sw sr <<<"$(consortium 0)"
  read -r fw fr <<<"$(consortium 1)"
  read -r _ pw_bytes pw_time _ pr_bytes pr_time <<<"$(mpiexec -n 2 "$plain" "$work" "$block" "$MiB" | tr '\n' ' ')"
  printf '%-4s %-6s %16s %16s %16s\n' "$run" write "$(mbs "$sw" 1)" "$(mbs "$fw" 1)" \
    "$(mbs "$pw_bytes" "$pw_time")"
  printf '%-4s %-6s %16s %16s %16s\n' "$run" read "$(mbs "$sr" 1)" "$(mbs "$fr" 1)" \
    "$(mbs "$pr_bytes" "$pr_time")"
done
echo "2 ranks, $block_mib MiB per process per test, 1 MiB transfers; MB = 10^6 B"
echo "pbench-io includes open and close in its time (consortium 6.2.3); the plain loop does not"
