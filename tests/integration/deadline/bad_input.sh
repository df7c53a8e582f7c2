#!/usr/bin/env bash
# Bad deadlines are refused before anything runs: exit 2, a message naming the problem, no
# result written; the same in every worker (the shared parameters of workers/common).
source "$(dirname "$0")/common.sh"

# refuse WORKER MESSAGE ARGS...: exit 2, MESSAGE on stderr, no result document.
refuse() {
  local worker=$1 message=$2
  shift 2
  local status=0
  "${WORKER[$worker]}" --output out.json "$@" > out.log 2>&1 || status=$?
  [[ $status -eq 2 ]] || fail "pbench-$worker $* exited $status, not 2: $(cat out.log)"
  grep -qF -- "$message" out.log || fail "pbench-$worker $*: expected '$message', got: $(cat out.log)"
  [[ ! -e out.json ]] || fail "pbench-$worker $* wrote a result"
}
past=$(($(date +%s) - 60))
for worker in logp comm io bcast; do
  refuse $worker "is not in the future" --deadline $past
  refuse $worker "--time-left must be more than 0 seconds, got 0" --time-left 0
  refuse $worker "--time-left: '-5' is outside the range 0 to 1000000000" --time-left -5
  PBENCH_DEADLINE=$past refuse $worker "the job's time is over"
  refuse $worker "leaves no time before the deadline" --time-left 10 --deadline-margin 10
done
# io's guard factor, zero or negative (refused since the time guard; checked here beside the
# deadline).
refuse io "--guard-factor: must be > 0" --guard-factor 0
refuse io "--guard-factor: '-1' is outside the range 0 to 1000" --guard-factor -1
echo "deadline bad input: ok"
