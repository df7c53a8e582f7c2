#!/usr/bin/env bash
# Runs one libFuzzer target for a while on its seed corpus and prints what it did.
# Usage: fuzz/run.sh FUZZ_BUILD_DIR ingest|sweep SECONDS [CORPUS_DIR]
#   FUZZ_BUILD_DIR  where scripts/fuzz-build built the targets
#   CORPUS_DIR      where new inputs are kept (default: a scratch directory, removed after)
# Prints executions, executions per second, coverage (edges and features), corpus size and peak
# memory; exits non-zero on any finding (crash, sanitizer report, leak, timeout of one input,
# out of memory), leaving the input that caused it in a kept directory named in the output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$1 concern=$2 seconds=$3
binary=$build/fuzz/fuzz_$concern
case $concern in
  ingest)
    seeds=("$root/tests/data/results/good" "$root/tests/data/results/bad"
      "$root/tests/data/results/bad-semantics")
    dict=$here/ingest/result.dict ;;
  sweep)
    seeds=("$here/sweep/seeds")
    dict=$here/sweep/sweep.dict ;;
  *) echo "fuzz/run.sh: unknown target '$concern' (known: ingest, sweep)" >&2; exit 2 ;;
esac
[[ -x $binary ]] || { echo "fuzz/run.sh: $binary not built (scripts/fuzz-build $build)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-fuzz-$concern.XXXXXX")
corpus=${4:-$work/corpus}
mkdir -p "$corpus" "$work/findings"
status=0
# -timeout: one input running longer than 10 s is a hang; -max_len: room for deep nesting and
# long strings; leaks are checked at the end of every input that allocated more than it freed.
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict="$dict" -print_final_stats=1 -artifact_prefix="$work/findings/" \
  "$corpus" "${seeds[@]}" >"$work/log" 2>&1 || status=$?
last=$(grep -E '^#[0-9]+' "$work/log" | tail -n 1 || true)
stat() { sed -n "s/^stat::$1: *//p" "$work/log" | tail -n 1; }
field() { sed -n "s/.* $1: \([0-9]*\).*/\1/p" <<<"$last"; }
findings=$(ls "$work/findings")
printf 'fuzz_%s: %s s, %s executions (%s/s), coverage %s edges, %s features, corpus %s inputs, peak RSS %s MB, findings: %s\n' \
  "$concern" "$seconds" "$(stat number_of_executed_units)" "$(stat average_exec_per_sec)" \
  "$(field cov)" "$(field ft)" "$(ls "$corpus" | wc -l)" "$(stat peak_rss_mb)" \
  "${findings:-none}"
if ((status != 0)) || [[ -n $findings ]]; then
  # The report (sanitizer stack, the input in hex) and where the input is kept.
  grep -v -E '^#[0-9]+|^INFO:' "$work/log" | tail -n 60
  echo "fuzz_$concern: exit status $status; log and inputs kept in $work"
  exit 1
fi
rm -rf "$work"
