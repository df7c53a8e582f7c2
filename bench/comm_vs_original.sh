#!/usr/bin/env bash
# pbench-comm beside the original b_eff 3.6.0.1 (b_eff.c) on this machine: both on 2 processes
# with the same memory per process (so the same 21 message sizes and L_max = MB MiB / 128),
# interleaved with the order rotated from round to round, and the median over the rounds of
# pbench / original for b_eff, b_eff at L_max, the latencies and the ping-pong bandwidth, and per
# message size: b_eff(L), the ring and the random patterns, each method and the ping-pong (the
# analysis is bench/comm_vs_original.py).
#
#   bench/comm_vs_original.sh [--self|--both] ORIGINAL [ROUNDS] [MB] [DIR]
#     --self    the original against itself (A/A): it runs twice a round and the ratios are its
#               second run over its first, the noise floor a pbench ratio is to be read against
#     --both    three runs a round, the original twice (A, B) and pbench-comm once, their order
#               rotated; pbench is compared with both originals of its round, beside B / A, with
#               a permutation test per headline figure (as bench/io_vs_original.sh --both)
#     ORIGINAL  the original's source b_eff.c (built here with mpicc -D MEMORY_PER_PROCESSOR=MB
#               in a temporary directory, never in the repository) or a binary built from it
#               with that MEMORY_PER_PROCESSOR
#     ROUNDS    interleaved rounds (default 5); MB: memory per process in MiB, the original's
#               MEMORY_PER_PROCESSOR and pbench-comm's --memory-per-proc (default 512: L_max
#               4 MiB; the original's run is then about a minute); DIR: where the run directory
#               goes (default /tmp)
# pbench-comm runs with --repetitions 2, the original's REPETITIONS (the maximum over the
# repetitions counts, so more repetitions alone raise a figure on a noisy machine), as many random
# patterns as the original has (30; 6 with -DSHORT, 2 with -DTEST) and the original's measurement
# window (--target-window 0.005,0.010 --start-looplength 10000: see below).
# PBENCH_COMM_ARGS: more arguments for pbench-comm, word-split; an option named there replaces
# the default above (e.g. "--target-window 0.0025,0.005 --start-looplength 300": the paper's).
# PBENCH_BEFF_CFLAGS: more flags for building the original, word-split (e.g. "-DSHORT").
# PBENCH_COMM_VS_KEEP=1 keeps the run directory (every protocol and result document) and prints
# its path, so that bench/comm_vs_original.py can analyse it again.
# Needs a build (scripts/build). The load average is printed before and after: with two cores,
# anything else running takes a core from one of the two processes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
usage="usage: bench/comm_vs_original.sh [--self|--both] ORIGINAL [ROUNDS] [MB] [DIR]"
mode=pair
case "${1:-}" in
  --self) mode=self; shift ;;
  --both) mode=both; shift ;;
  -*) echo "comm_vs_original: unknown option '$1'; $usage" >&2; exit 2 ;;
esac
[[ $# -ge 1 && -n $1 ]] || { echo "comm_vs_original: ORIGINAL missing; $usage" >&2; exit 2; }
original=$1
rounds=${2:-5}
MB=${3:-512}
parent=${4:-/tmp}
comm=$build/workers/comm/pbench-comm
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "comm_vs_original: ROUNDS must be a positive integer: '$rounds'" >&2; exit 2; }
[[ $MB =~ ^[1-9][0-9]{0,5}$ ]] || { echo "comm_vs_original: MB must be a whole number of MiB from 1 to 999999: '$MB'" >&2; exit 2; }
case $original in
  *.c) [[ -f $original ]] || { echo "comm_vs_original: no such source file: $original" >&2; exit 2; } ;;
  *) [[ -f $original && -x $original ]] || { echo "comm_vs_original: not a source file (*.c) or an executable: $original" >&2; exit 2; } ;;
esac
[[ -d $parent ]] || { echo "comm_vs_original: no such directory: $parent" >&2; exit 2; }
[[ -x $comm ]] || { echo "comm_vs_original: missing $comm: run scripts/build" >&2; exit 2; }

# The original's random patterns: MAX_RANDOM 30, 6 under -DSHORT, 2 under -DTEST (its #ifdefs).
random=30
cflags=${PBENCH_BEFF_CFLAGS:-}
[[ " $cflags" =~ [[:space:]]-D[[:space:]]*SHORT([[:space:]=]|$) ]] && random=6
[[ " $cflags" =~ [[:space:]]-D[[:space:]]*TEST([[:space:]=]|$) ]] && random=2

work=$(mktemp -d "$parent/pbench-comm-vs-original.XXXXXX")
if [[ "${PBENCH_COMM_VS_KEEP:-0}" == 1 ]]; then
  trap 'echo "kept: $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
case $original in
  *.c)
    # shellcheck disable=SC2086  # PBENCH_BEFF_CFLAGS is a list of words
    mpicc -O2 -w -D MEMORY_PER_PROCESSOR="$MB" $cflags -o "$work/b_eff" "$original" -lm
    binary=$work/b_eff ;;
  *) binary=$(cd "$(dirname "$original")" && pwd)/$(basename "$original") ;;
esac

case $mode in
  pair) what="pbench-comm vs the original b_eff"; arms=(orig pbench) ;;
  self) what="the original b_eff vs itself (A/A)"; arms=(orig self) ;;
  both) what="pbench-comm vs the original b_eff run twice (A, B), order rotated"; arms=(orig pbench self) ;;
esac
# pbench-comm as the original measures, where that moves the figures on a shared machine (see
# bench/README.md): its repetitions, its random patterns and its measurement window. The original
# aims every message size and method at TIMEPERLOOP = 0.5 s over all its patterns (46 on 2
# processes: means of 5-16 ms per measurement seen here, median 8 ms; 1 B included, with about
# 10000 iterations); pbench's reference is the paper's 300 iterations at 1 B (0.2 ms here), then
# 2.5-5 ms. An option given in PBENCH_COMM_ARGS replaces its default here.
pbench_args=(--memory-per-proc $((MB * 1048576)))
defaults=(--repetitions 2 --random-patterns "$random" --target-window "0.005,0.010"
  --start-looplength 10000)
for ((i = 0; i < ${#defaults[@]}; i += 2)); do
  [[ " ${PBENCH_COMM_ARGS:-} " == *" ${defaults[i]}"[\ =]* ]] || pbench_args+=("${defaults[i]}" "${defaults[i + 1]}")
done
# shellcheck disable=SC2206  # PBENCH_COMM_ARGS is a list of words
pbench_args+=(${PBENCH_COMM_ARGS:-})
echo "$what: 2 processes, MEMORY_PER_PROCESSOR = $MB MiB (L_max = $((MB * 8192)) B), $rounds rounds, in $work"
[[ $mode == self ]] || echo "pbench-comm ${pbench_args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$work/orig" "$work/pbench" "$work/self"
printf 'mode=%s\nrounds=%s\nMB=%s\nrandom=%s\n' "$mode" "$rounds" "$MB" "$random" > "$work/settings"

run_arm() { # run_arm ARM ROUND (called by interleaved_rounds)
  local arm=$1 round=$2
  case $arm in
    orig | self)
      (cd "$work/$arm" && mpiexec -n 2 "$binary" -f "round$round" > "round$round.out" 2>&1) ||
        { echo "comm_vs_original: the original failed in round $round; see below" >&2; cat "$work/$arm/round$round.out" >&2; exit 1; }
      rm -f "$work/$arm/round$round".{plot,gps,tex}
      [[ -s $work/$arm/round$round.prot ]] ||
        { echo "comm_vs_original: $original wrote no protocol (round$round.prot): is it b_eff.c?" >&2; exit 2; }
      built=$(sed -n 's/^MEMORY_PER_PROCESSOR = \([0-9]*\) MBytes.*/\1/p' "$work/$arm/round$round.prot" | head -1)
      [[ $built == "$MB" ]] || { echo "comm_vs_original: $original was built with MEMORY_PER_PROCESSOR = ${built:-?} MiB, not MB = $MB" >&2; exit 2; } ;;
    pbench)
      mpiexec -n 2 "$comm" "${pbench_args[@]}" --output "$work/pbench/round$round.json" \
        > "$work/pbench/round$round.txt" 2>&1 ||
        { echo "comm_vs_original: pbench-comm failed in round $round; see below" >&2; cat "$work/pbench/round$round.txt" >&2; exit 1; } ;;
  esac
}

# The order rotates, so that neither code always runs first or after the other.
# shellcheck source=bench/lib/interleaved_rounds.sh
source "$root/bench/lib/interleaved_rounds.sh"
interleaved_rounds "$work" "$rounds" "${arms[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 "$root/bench/comm_vs_original.py" "$work"
