#!/usr/bin/env bash
# Bad input to bench/comm_vs_original.sh ends it with status 2 and one line naming the problem,
# before anything is built or run and without leaving a run directory: no ORIGINAL, an unknown
# option, a source file that is not there, a file that is neither source nor executable, ROUNDS
# or MB that are not positive whole numbers, a DIR that is not there; and a program that is not
# b_eff (one that writes no protocol) after its first run. Its analysis refuses a directory that
# is not a run of it. No timing, and the original is never needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
script=$root/bench/comm_vs_original.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-bench-it.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
echo 'int main(void) { return 0; }' > "$work/b_eff.c"
echo 'not a program' > "$work/notes.txt"
mkdir "$work/runs"

# expect_refused 'message' ARGS...: status 2, exactly one line on stderr with the message, nothing
# on stdout, no run directory in $work/runs.
expect_refused() {
  local message=$1 rc=0
  shift
  "$script" "$@" > "$work/out" 2> "$work/err" || rc=$?
  [[ $rc -eq 2 ]] || fail "status $rc, not 2, for: $* ($(cat "$work/err"))"
  [[ $(wc -l < "$work/err") -eq 1 ]] || fail "not one line for: $*: $(cat "$work/err")"
  grep -qF -- "$message" "$work/err" || fail "for: $*: expected '$message', got: $(cat "$work/err")"
  [[ ! -s "$work/out" ]] || fail "output on stdout for: $*: $(cat "$work/out")"
  [[ -z "$(ls -A "$work/runs")" ]] || fail "a run directory was left for: $*"
}

expect_refused "comm_vs_original: ORIGINAL missing; usage: bench/comm_vs_original.sh [--self|--both] ORIGINAL"
expect_refused "comm_vs_original: ORIGINAL missing" --both
expect_refused "comm_vs_original: unknown option '--bogus'" --bogus "$work/b_eff.c"
expect_refused "comm_vs_original: no such source file: $work/missing.c" "$work/missing.c" 1 8 "$work/runs"
expect_refused "comm_vs_original: not a source file (*.c) or an executable: $work/notes.txt" "$work/notes.txt" 1 8 "$work/runs"
for rounds in 0 -1 abc 2.5; do
  expect_refused "comm_vs_original: ROUNDS must be a positive integer: '$rounds'" --self "$work/b_eff.c" "$rounds" 8 "$work/runs"
done
for mb in 0 12x 1.5 1000000; do
  expect_refused "comm_vs_original: MB must be a whole number of MiB from 1 to 999999: '$mb'" "$work/b_eff.c" 1 "$mb" "$work/runs"
done
expect_refused "comm_vs_original: no such directory: $work/nowhere" "$work/b_eff.c" 1 8 "$work/nowhere"

# A program that is not b_eff (it writes no protocol) is named after its first run.
rc=0
"$script" --self "$work/b_eff.c" 1 8 "$work/runs" > "$work/out" 2> "$work/err" || rc=$?
[[ $rc -eq 2 ]] || fail "status $rc, not 2, for a program that is not b_eff: $(cat "$work/err")"
grep -qF "comm_vs_original: $work/b_eff.c wrote no protocol (round1.prot): is it b_eff.c?" "$work/err" ||
  fail "for a program that is not b_eff: $(cat "$work/err")"
[[ -z "$(ls -A "$work/runs")" ]] || fail "a run directory was left after a program that is not b_eff"

rc=0
/usr/bin/python3 "$root/bench/comm_vs_original.py" "$work/runs" > "$work/out" 2> "$work/err" || rc=$?
[[ $rc -ne 0 ]] || fail "the analysis accepted a directory that is not a run"
grep -qF "is not a run directory of bench/comm_vs_original.sh" "$work/err" ||
  fail "the analysis said: $(cat "$work/err")"
[[ $(wc -l < "$work/err") -eq 1 ]] || fail "the analysis said more than one line: $(cat "$work/err")"
echo "comm_vs_original bad input: ok"
