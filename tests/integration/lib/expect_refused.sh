# expect_fail CODE 'message part' command...: the worker's command line exits with CODE, says the
# message in one line or two, and writes no result document (RESULT_DOCUMENT, result.json unless
# set). Shared by the tests of a worker's bad input (bcast, comm); needs fail.
expect_fail() {
  local code=$1 message=$2 result=${RESULT_DOCUMENT:-result.json}
  shift 2
  local out rc=0
  rm -f "$result"
  out=$("$@" 2>&1) || rc=$?
  [[ $rc -eq $code ]] || fail "'$*' exited $rc, expected $code; output: $out"
  [[ "$out" == *"$message"* ]] || fail "'$*' said '$out', expected it to contain '$message'"
  [[ $(printf '%s\n' "$out" | grep -c .) -le 2 ]] || fail "'$*' said more than a clear line: $out"
  [[ ! -e "$result" ]] || fail "'$*' wrote a result document ($result)"
}
