# Shared by the io integration tests: a scratch directory, the worker, the validator, and
# assertions that print what went wrong.
set -euo pipefail
PBENCH_IO=${PBENCH_IO:?PBENCH_IO must name the pbench-io binary}
PBENCH_VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name pbench-validate-result}
CHECK=${PBENCH_IO_CHECK:?PBENCH_IO_CHECK must name check_result.py}
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-io-it.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
# Minimal M_PART (2 MB) and a cache size that every access method clears 20 times over.
SMALL=(--memory-per-proc 1 --cache-bytes 1000)

fail() { echo "FAIL: $*" >&2; exit 1; }
# validate FILE: the result document passes the schema and the semantic checks.
validate() { "$PBENCH_VALIDATE" --semantics "$1" || fail "$1 is not a valid result document"; }
# no_benchmark_files: the run removed its directory.
no_benchmark_files() {
  local left
  left=$(find "${1:-.}" -name 'pbench-io.*' | head -1)
  [[ -z "$left" ]] || fail "benchmark files left behind: $left"
}
