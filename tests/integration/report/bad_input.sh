#!/usr/bin/env bash
# pbench report's refusals: an unknown sweep, an output path that is a file, a missing -o, and
# gnuplot not on PATH each give one clear line and a non-zero exit, and write nothing.
set -euo pipefail
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-report-bad.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_fail() {
  local code=$1 message=$2
  shift 2
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  [[ $rc -eq $code ]] || fail "'$*' exited $rc, expected $code; output: $out"
  [[ "$out" == *"$message"* ]] || fail "'$*' said '$out', expected it to contain '$message'"
  [[ $(printf '%s' "$out" | wc -l) -le 1 ]] || fail "'$*' said more than a clear line: $out"
}
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
