#!/usr/bin/env bash
# A longer run of both fuzz targets (fuzz/): builds them with clang into ./build-fuzz (or
# $PBENCH_FUZZ_BUILD_DIR; scripts/fuzz-build), then runs fuzz_ingest and fuzz_sweep for SECONDS
# each (default 300) and prints, per target, executions, executions per second, coverage
# (edges, features), corpus size, peak memory and any findings. The corpora grow across runs in
# BUILD/corpus/{ingest,sweep} (seeded from tests/data/results and fuzz/sweep/seeds each time).
# Exits non-zero when a target found something; the input and the report are kept and named.
# Usage: bench/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
build=${PBENCH_FUZZ_BUILD_DIR:-$root/build-fuzz}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "bench/fuzz.sh: SECONDS must be a positive whole number, not '$seconds'" >&2; exit 2; }
start=$(date +%s)
"$root/scripts/fuzz-build" "$build" >/dev/null
echo "fuzz build: $(($(date +%s) - start)) s (clang $(clang --version | sed -n 's/.*clang version \([^ ]*\).*/\1/p'); $build)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
status=0
for concern in ingest sweep; do
  mkdir -p "$build/corpus/$concern"
  "$root/fuzz/run.sh" "$build" "$concern" "$seconds" "$build/corpus/$concern" || status=1
done
exit "$status"
