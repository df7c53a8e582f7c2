#!/usr/bin/env bash
# pbench report's refusals: an unknown sweep, an output path that is a file, a missing -o, and
# gnuplot not on PATH each give one clear line and a non-zero exit, and write nothing.
set -euo pipefail
SCRATCH_NAME=pbench-report-bad source "$(dirname "$0")/../orchestrator/common.sh"
# A refusal here is a clear line: at most one line break (common.sh allows three).
EXPECT_FAIL_LINES=1
"$PBENCH" sweep s --workers logp --partitions 2 > /dev/null
before=$(sha256sum pbench.db)
expect_fail 2 "no sweep named 'nope'" "$PBENCH" report nope -o out
expect_fail 2 "--output is required" "$PBENCH" report s
touch afile
expect_fail 2 "exists and is not a directory" "$PBENCH" report s -o afile
expect_fail 2 "the path must be printable UTF-8" "$PBENCH" report s -o $'out\nx'
mkdir empty-path
expect_fail 6 "pbench: missing program: gnuplot not found on PATH: pbench report draws its figures with gnuplot (Debian package gnuplot-nox" \
  env PATH="$work/empty-path" "$PBENCH" report s -o out
[[ ! -e out && ! -e $'out\nx' ]] || fail "a refused report wrote its directory"
[[ "$(sha256sum pbench.db)" == "$before" ]] || fail "a report changed the store"
# --by on the worker tables: an unknown key and a key the table lacks are named.
expect_fail 2 "unknown --by key 'size' (known: T, hints, queue_depth, partition, nodes, ppn, env)" \
  "$PBENCH" query logp --by size
expect_fail 2 "--by T: this table has no such column (it groups by: queue_depth, partition, nodes, ppn)" \
  "$PBENCH" query logp --by T
echo "report bad input: ok"
