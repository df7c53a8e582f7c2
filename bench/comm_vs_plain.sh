#!/usr/bin/env bash
# pbench-comm beside plain loops, interleaved over several runs on 2 processes: the ping-pong
# bandwidth and the ring bandwidth at L_max that pbench-comm reports (the ring with the best of
# the three methods, and with MPI_Sendrecv alone), the same-size plain MPI ping-pong and
# MPI_Sendrecv ring (bench/src/comm_plain.c) on one buffer pair ("hot") and moving through
# buffers as b_eff does ("cycled"), and one core's memcpy bandwidth at that size (on one node,
# shared-memory MPI moves each message by at least one copy: the limit).
#
# usage: bench/comm_vs_plain.sh [MEMORY_PER_PROC [RUNS]]   (defaults 1GiB -> L_max 8 MiB, 3 runs)
# Bandwidths in MB/s (10^6 B/s): bytes moved by both processes / the slower process's time.
# pbench-comm measures only L_max here (--sizes 21) with 5 iterations per measurement, so its
# result is marked not the reference configuration; the figures at L_max are b_eff's own.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
memory=${1:-1GiB}
runs=${2:-3}
comm=$build/workers/comm/pbench-comm
plain=$build/bench/comm_plain
for b in "$comm" "$plain"; do
  [[ -x $b ]] || { echo "comm_vs_plain: $b is missing; build first (scripts/build)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The figures of one pbench-comm result: L_max, ping-pong and ring bandwidth at L_max (the
# logavg over the six rings of the best method, and the Sendrecv method alone), in B/s.
figures() {
  /usr/bin/python3 - "$1" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x["value"] for x in d["summary"] if not x["labels"]}
t = d["measurements"]["measurements"]
k = [c["name"] for c in t["columns"]]
rows = [dict(zip(k, r)) for r in t["rows"]]
best = {}
for r in rows:
    if r["pattern"].startswith("ring") and r["method"] == "sendrecv":
        best[r["pattern"]] = max(best.get(r["pattern"], 0), r["bandwidth"])
sendrecv = math.exp(sum(math.log(v) for v in best.values()) / len(best))
print(int(m["l_max"]), m["pingpong_bandwidth"], m["ring_per_process_at_lmax"] * d["nprocs"], sendrecv)
PY
}

printf '%-4s %9s | %9s %9s %9s | %9s %9s %9s %9s | %9s\n' run "L_max [B]" "pbench" "plain" \
  "plain" "pbench" "pbench" "plain" "plain" "memcpy"
printf '%-4s %9s | %9s %9s %9s | %9s %9s %9s %9s | %9s\n' "" "" "ping-pong" "hot" "cycled" \
  "ring best" "ring SR" "SR hot" "SR cycled" "1 core"
all=()
for run in $(seq 1 "$runs"); do
  mpiexec -n 2 "$comm" --memory-per-proc "$memory" --sizes 21 --random-patterns 2 \
    --repetitions 3 --start-looplength 5 --seed 1 --output "$work/r$run.json" > /dev/null
  read -r l_max pp ring sr < <(figures "$work/r$run.json")
  line=$(mpiexec -n 2 "$plain" "$l_max" 3)
  value() { sed -E "s/.*(^| )$1=([^ ]+).*/\2/" <<< "$line"; }
  row="$pp $(value pingpong) $(value pingpong_cycled) $ring $sr $(value ring) $(value ring_cycled) $(value memcpy)"
  all+=("$row")
  awk -v r="$run" -v l="$l_max" -v row="$row" 'BEGIN {
    n = split(row, v, " "); printf "%-4s %9d |", r, l
    for (i = 1; i <= n; ++i) printf " %9.0f%s", v[i] / 1e6, (i == 3 || i == 7) ? " |" : ""
    printf "\n" }'
done
printf '%s\n' "${all[@]}" | awk '
  { for (i = 1; i <= NF; ++i) v[i, NR] = $i; cols = NF }
  END {
    n = NR
    for (i = 1; i <= cols; ++i) {  # the median of each column
      for (a = 1; a <= n; ++a) s[a] = v[i, a]
      for (a = 1; a <= n; ++a) for (b = a + 1; b <= n; ++b) if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
      m[i] = (n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
    }
    printf "%-14s |", "median"
    for (i = 1; i <= cols; ++i) printf " %9.0f%s", m[i] / 1e6, (i == 3 || i == 7) ? " |" : ""
    printf "\n"
    printf "pbench / plain cycled: ping-pong %.2f, ring Sendrecv %.2f; pbench / plain hot: %.2f, %.2f\n", m[1] / m[3], m[5] / m[7], m[1] / m[2], m[5] / m[6]
    printf "ring / one core memcpy: pbench best %.2f, plain cycled %.2f, plain hot %.2f\n", m[4] / m[8], m[7] / m[8], m[6] / m[8]
  }'
