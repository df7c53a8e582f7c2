# Shared by the io integration tests: a scratch directory (lib/scratch.sh; the Python checks
# read result tables with lib/result_tables.py), the worker, the validator, and assertions that
# print what went wrong.
SCRATCH_NAME=pbench-io-it source "$(dirname "${BASH_SOURCE[0]}")/../lib/scratch.sh"
PBENCH_IO=${PBENCH_IO:?PBENCH_IO must name the pbench-io binary}
PBENCH_VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name pbench-validate-result}
CHECK=${PBENCH_IO_CHECK:?PBENCH_IO_CHECK must name check_result.py}
# Minimal M_PART (2 MB) and a cache size that every access method clears 20 times over.
SMALL=(--memory-per-proc 1 --cache-bytes 1000)

# validate FILE: the result document passes the schema and the semantic checks.
validate() { "$PBENCH_VALIDATE" --semantics "$1" || fail "$1 is not a valid result document"; }
# checked FILE PROTOCOL ARGS...: FILE validates, and check_result.py (with ARGS: --partitions,
# --schedule-time, ...) finds its figures follow from its rows and agree with PROTOCOL, the run's
# printed protocol.
checked() {
  local file=$1 protocol=$2
  shift 2
  validate "$file"
  "$PY" "$CHECK" "$file" --protocol "$protocol" "$@"
}
# no_benchmark_files: the run removed its directory.
no_benchmark_files() {
  local left
  left=$(find "${1:-.}" -name 'pbench-io.*' | head -1)
  [[ -z "$left" ]] || fail "benchmark files left behind: $left"
}
# expect_fail 'message part' command...: the command is refused (exit 2) with the message and
# writes no result.json.
expect_fail() {
  local message=$1
  shift
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  [[ $rc -eq 2 ]] || fail "'$*' exited $rc, expected 2; output: $out"
  [[ "$out" == *"$message"* ]] || fail "'$*' said '$out', expected '$message'"
  [[ ! -e result.json ]] || fail "'$*' wrote a result"
}
# mount_small_tmpfs SIZE: a tmpfs of SIZE at ./small, unmounted at exit; without root or where
# it cannot be mounted, the test is skipped (exit 77) and says why.
mount_small_tmpfs() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "SKIP: mounting a small tmpfs needs root"
    exit 77
  fi
  mkdir small
  mount -t tmpfs -o size="$1" tmpfs small || { echo "SKIP: cannot mount a tmpfs here"; exit 77; }
  cleanup() { umount "$work/small" 2>/dev/null || true; rm -rf "$work"; }
  trap cleanup EXIT
}
