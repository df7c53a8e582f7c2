# Shared by the comm worker's integration tests: a scratch directory (lib/scratch.sh), the
# binaries, a tiny b_eff configuration (the method's defaults take minutes), and assertions that
# print what went wrong.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCRATCH_NAME=pbench-comm-it source "$here/../lib/scratch.sh"
COMM=${PBENCH_COMM:?PBENCH_COMM must name the pbench-comm binary}
VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name the pbench-validate-result binary}
# Short loops: a 0.2-0.5 ms target window and 10 iterations for the first size (2 cores are
# shared with other work, so the timings mean little; the tests check behaviour).
TINY=(--random-patterns 2 --repetitions 1 --target-window 0.0002,0.0005 --start-looplength 10)

# expect_fail CODE 'message part' command...: the command exits with CODE, says the message in
# one line or two, and writes no result.json.
source "$here/../lib/expect_refused.sh"
# check_result FILE MODE: the result validates (schema and semantics) and its figures follow
# from its rows.
check_result() {
  "$VALIDATE" --semantics "$1" || fail "$1 does not validate"
  "$PY" "$here/check_beff.py" "$1" "$2"
}
