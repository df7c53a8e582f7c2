#!/usr/bin/env bash
# Prints pbench-io's consortium suite, segmented pattern at 1 MiB transfers, on one file per
# process, on one shared file and on one shared file with collective calls (sustained write and
# sustained read transfer rates, open and close included), each beside the plain MPI-IO loop of
# the same kind (bench/src/io_plain_loop.c fpp, shared, collective: 1 MiB calls, sync inside the
# timing, open and close outside it; IOR -F, without -F, and -c) moving the same bytes,
# interleaved over several runs so a drift of the machine shows in every column alike.
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

# consortium FPP COLLECTIVE: prints the sustained write and read rates [B/s] of one run.
consortium() {
  mpiexec -n 2 "$io" --suite consortium --pattern segmented --transfer-size "$MiB" \
    --block-size "$block" --file-per-process "$1" --collective "$2" --dir "$work" \
    --output "$work/result.json" 2>/dev/null >/dev/null
  /usr/bin/python3 - "$work/result.json" <<'PY'
import json, sys
m = {x["name"]: x["value"] for x in json.load(open(sys.argv[1]))["summary"]}
print(m["sustained_write_transfer_rate"], m["sustained_read_transfer_rate"])
PY
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }

# plain MODE: "write_bytes write_seconds read_bytes read_seconds" of one plain loop run.
plain_run() {
  mpiexec -n 2 "$plain" "$work" "$block" "$MiB" "$1" | awk '{ printf "%s %s ", $2, $3 }'
}
printf '%-4s %-6s %12s %12s %12s %12s %12s %12s\n' run access "fpp" "plain fpp" "shared" \
  "plain shared" "collective" "plain coll."
for run in $(seq 1 "$runs"); do
  read -r fw fr <<<"$(consortium 1 0)"
  read -r pfw_b pfw_t pfr_b pfr_t <<<"$(plain_run fpp)"
  read -r sw sr <<<"$(consortium 0 0)"
  read -r psw_b psw_t psr_b psr_t <<<"$(plain_run shared)"
  read -r cw cr <<<"$(consortium 0 1)"
  read -r pcw_b pcw_t pcr_b pcr_t <<<"$(plain_run collective)"
  printf '%-4s %-6s %12s %12s %12s %12s %12s %12s\n' "$run" write "$(mbs "$fw" 1)" \
    "$(mbs "$pfw_b" "$pfw_t")" "$(mbs "$sw" 1)" "$(mbs "$psw_b" "$psw_t")" "$(mbs "$cw" 1)" \
    "$(mbs "$pcw_b" "$pcw_t")"
  printf '%-4s %-6s %12s %12s %12s %12s %12s %12s\n' "$run" read "$(mbs "$fr" 1)" \
    "$(mbs "$pfr_b" "$pfr_t")" "$(mbs "$sr" 1)" "$(mbs "$psr_b" "$psr_t")" "$(mbs "$cr" 1)" \
    "$(mbs "$pcr_b" "$pcr_t")"
done
echo "2 ranks, $block_mib MiB per process per test, 1 MiB transfers, segmented; MB = 10^6 B (MB/s)"
echo "pbench-io includes open and close in its time (consortium 6.2.3); the plain loop does not"
