#!/usr/bin/env bash
# pbench-io beside the original b_eff_io rev 2.1 on this machine: both at 2 processes with the
# same T and memory per process, interleaved, and the median over the rounds of pbench /
# original for b_eff_io, each access method, each pattern type, the single 1 MiB pattern rows,
# and the elapsed time against T (the analysis is bench/io_vs_original.py).
#
#   bench/io_vs_original.sh [--self|--both] ORIGINAL [ROUNDS] [T] [MB] [DIR]
#     --self    the original against itself (A/A): it runs twice a round and the ratios are its
#               second run over its first, the noise floor a pbench ratio is to be read against
#     --both    three runs a round, the original twice (A, B) and pbench-io once, their order
#               rotated from round to round; pbench is compared with both originals of its
#               round, beside the original's B / A, and each figure gets a permutation test
#               of "pbench-io is one more run of the original" (see bench/io_vs_original.py)
#     ORIGINAL  the original's source b_eff_io.c (built here with mpicc in a temporary
#               directory, never in the repository) or its built binary
#     ROUNDS    interleaved rounds (default 5); T: scheduled time in seconds for all
#               partitions, both codes' -T (default 30); MB: memory per process in MiB, the
#               original's -MB (default 256: M_PART = 2 MiB); DIR: where both write (default
#               a new directory under /tmp)
# PBENCH_IO_ARGS: more arguments for pbench-io, word-split (e.g. "--unguarded": rev 2.1's
# schedule without the time guard, so that no row is cut short).
# PBENCH_IO_VS_KEEP=1 keeps the run directory (every protocol and result document) and prints
# its path, so that bench/io_vs_original.py can analyse it again (e.g. --rows).
# Needs a build (scripts/build). Both run the default partitions of 2 processes, {1, 2}. The
# load average is printed before and after: MPI-IO timing on a loaded machine is noisy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
mode=pair
case "${1:-}" in
  --self) mode=self; shift ;;
  --both) mode=both; shift ;;
esac
original=${1:?usage: bench/io_vs_original.sh [--self|--both] ORIGINAL [ROUNDS] [T] [MB] [DIR]}
rounds=${2:-5}
T=${3:-30}
MB=${4:-256}
io=$build/workers/io/pbench-io
[[ -x $io ]] || { echo "missing $io: run scripts/build" >&2; exit 1; }
[[ $T =~ ^[1-9][0-9]*$ ]] || { echo "T must be whole seconds (the original's -T is an integer): '$T'" >&2; exit 2; }
[[ $MB =~ ^[1-9][0-9]*$ ]] || { echo "MB must be a positive integer: '$MB'" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer: '$rounds'" >&2; exit 2; }
work=$(mktemp -d "${5:-/tmp}/pbench-io-vs-original.XXXXXX")
if [[ "${PBENCH_IO_VS_KEEP:-0}" == 1 ]]; then
  trap 'echo "kept: $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

case $original in
  *.c)
    [[ -f $original ]] || { echo "no such source file: $original" >&2; exit 2; }
    mpicc -O2 -w -o "$work/b_eff_io" "$original" -lm
    binary=$work/b_eff_io ;;
  *)
    [[ -x $original ]] || { echo "not an executable: $original" >&2; exit 2; }
    binary=$(cd "$(dirname "$original")" && pwd)/$(basename "$original") ;;
esac

case $mode in
  pair) what="pbench-io vs the original b_eff_io"; arms=(orig pbench) ;;
  self) what="the original b_eff_io vs itself (A/A)"; arms=(orig self) ;;
  both) what="pbench-io vs the original b_eff_io run twice (A, B), order rotated"; arms=(orig pbench self) ;;
esac
[[ -z "${PBENCH_IO_ARGS:-}" ]] || what+=" (pbench-io $PBENCH_IO_ARGS)"
echo "$what: 2 processes, T = $T s, -MB $MB, $rounds rounds, in $work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$work/orig" "$work/pbench" "$work/self"
printf 'mode=%s\nrounds=%s\nT=%s\nMB=%s\n' "$mode" "$rounds" "$T" "$MB" > "$work/settings"

run_arm() { # run_arm ARM ROUND (called by interleaved_rounds)
  local arm=$1 round=$2
  case $arm in
    orig | self)
      (cd "$work/$arm" && mpiexec -n 2 "$binary" -MB "$MB" -MT $((2 * MB)) -T "$T" \
        -f "round$round" > "round$round.out") ;;
    pbench)
      # shellcheck disable=SC2086  # PBENCH_IO_ARGS is a list of words
      mpiexec -n 2 "$io" -T "$T" --memory-per-proc $((MB * 1048576)) --dir "$work/pbench" \
        --output "$work/pbench/round$round.json" ${PBENCH_IO_ARGS:-} > "$work/pbench/round$round.txt" ;;
  esac
}

# The order rotates, so that neither code is always the one that runs after the other's files
# were deleted.
# shellcheck source=bench/lib/interleaved_rounds.sh
source "$root/bench/lib/interleaved_rounds.sh"
interleaved_rounds "$work" "$rounds" "${arms[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 "$root/bench/io_vs_original.py" "$work"
