#!/usr/bin/env bash
# The merge of two decade stores (issue 54 item 4): `pbench store merge` of store A into an empty
# store (cluster alpha), then of store B (cluster beta, --rename: the same sweep name from
# another machine), each timed once with its summary; the merged store's size and rows; then
# the commands that compare the clusters (`query system --by cluster`, `history --by cluster`,
# the same with --stats), each the median of 5 with the pbench binary, start-up included; and
# merging A again (nothing new: every result skipped by its SHA-256).
#
#   bench/store_merge.sh A.db B.db [DIR]     (DIR keeps merged.db; default a new temporary one)
#
# A and B are stores of bench/orchestrator_history.sh (its decade.db, made from two different
# seed sweeps so that no document is in both). Neither is written: merge only reads a FROM.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
pbench=$build/orchestrator/pbench
[[ $# -ge 2 ]] || { echo "usage: bench/store_merge.sh A.db B.db [DIR]" >&2; exit 2; }
a=$(realpath "$1")
b=$(realpath "$2")
dir=${3:-$(mktemp -d)}
[[ -x $pbench ]] || { echo "store_merge: $pbench is missing: run scripts/build first" >&2; exit 2; }
for f in "$a" "$b"; do
  [[ -f $f ]] || { echo "store_merge: no store '$f'" >&2; exit 2; }
done
mkdir -p "$dir"
merged=$dir/merged.db
[[ ! -e $merged ]] || { echo "store_merge: $merged exists: give a new DIR" >&2; exit 2; }
results() { sqlite3 -readonly "$1" "select count(*) from results"; }
mb() { echo "$(( $(stat -c %s "$1") / 1000000 )) MB"; }
echo "A: $a ($(mb "$a"), $(results "$a") results)"
echo "B: $b ($(mb "$b"), $(results "$b") results)"
timed() {  # timed WHAT COMMAND...: runs it once, prints its summary's last lines and its time
  local what=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt" >&2; echo "store_merge: $what failed" >&2; exit 1; }
  end=$(date +%s.%N)
  sed 's/^/    /' "$dir/out.txt" | tail -4
  printf '%-58s %9.1f s\n' "$what" "$(echo "$end - $start" | bc)"
}
timed "merge A into an empty store (--cluster alpha)" \
  "$pbench" --db "$merged" store merge "$a" --cluster alpha
timed "merge B into it (--cluster beta --rename)" \
  "$pbench" --db "$merged" store merge "$b" --cluster beta --rename
echo "merged: $(mb "$merged"), $(results "$merged") results"
timed "merge A again (nothing new)" "$pbench" --db "$merged" store merge "$a" --cluster alpha
median() {  # median WHAT COMMAND...: the median of 5 runs in ms
  local what=$1 times=() start end
  shift
  for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  local m
  m=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  printf '%-58s %9.1f ms  < 1 s: %s\n' "$what" "$(echo "$m / 1000" | bc -l)" \
    "$([[ $m -lt 1000000 ]] && echo yes || echo NO)"
}
sweep=$(sqlite3 -readonly "$merged" "select base_name from sweeps order by id limit 1")
median "query system --sweep $sweep --by cluster" \
  "$pbench" --db "$merged" query system --sweep "$sweep" --by cluster
median "history $sweep --by cluster" "$pbench" --db "$merged" history "$sweep" --by cluster
median "history $sweep --by cluster --stats" \
  "$pbench" --db "$merged" history "$sweep" --by cluster --stats
