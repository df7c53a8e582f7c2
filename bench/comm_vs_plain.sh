#!/usr/bin/env bash
# pbench-comm beside plain loops, interleaved over several runs on 2 processes: the ping-pong
# bandwidth and the ring bandwidth at L_max that pbench-comm reports, the same-size plain MPI
# ping-pong and MPI_Sendrecv ring (bench/src/comm_plain.c), and one core's memcpy bandwidth at
# that size (on one node, shared-memory MPI moves each message by at least one copy: the limit).
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

printf '%-4s %10s | %12s %12s | %14s %14s %12s | %12s\n' run "L_max [B]" "pbench pp" "plain pp" \
  "pbench ring" "pbench ring SR" "plain ring SR" "memcpy"
all=()
for run in $(seq 1 "$runs"); do
  mpiexec -n 2 "$comm" --memory-per-proc "$memory" --sizes 21 --random-patterns 2 \
    --repetitions 3 --start-looplength 5 --seed 1 --output "$work/r$run.json" > /dev/null
  read -r l_max pp ring sr < <(figures "$work/r$run.json")
  line=$(mpiexec -n 2 "$plain" "$l_max" 3)
  ppp=$(sed -E 's/.*pingpong_Bps=([^ ]+).*/\1/' <<< "$line")
  pring=$(sed -E 's/.*ring_Bps=([^ ]+).*/\1/' <<< "$line")
  copy=$(sed -E 's/.*memcpy_Bps=([^ ]+).*/\1/' <<< "$line")
  all+=("$pp $ppp $ring $sr $pring $copy")
  awk -v r="$run" -v l="$l_max" -v a="$pp" -v b="$ppp" -v c="$ring" -v d="$sr" -v e="$pring" -v f="$copy" \
    'BEGIN { printf "%-4s %10d | %12.1f %12.1f | %14.1f %14.1f %12.1f | %12.1f\n", r, l, a/1e6, b/1e6, c/1e6, d/1e6, e/1e6, f/1e6 }'
done
printf '%s\n' "${all[@]}" | awk '
  { for (i = 1; i <= 6; ++i) v[i, NR] = $i }
  END {
    n = NR
    for (i = 1; i <= 6; ++i) {  # median of each column
      for (a = 1; a <= n; ++a) s[a] = v[i, a]
      for (a = 1; a <= n; ++a) for (b = a + 1; b <= n; ++b) if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
      m[i] = (n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
    }
    printf "median       | %12.1f %12.1f | %14.1f %14.1f %12.1f | %12.1f\n", m[1]/1e6, m[2]/1e6, m[3]/1e6, m[4]/1e6, m[5]/1e6, m[6]/1e6
    printf "pbench/plain: ping-pong %.2f, ring Sendrecv %.2f; ring/memcpy: pbench %.2f, plain %.2f\n", m[1]/m[2], m[4]/m[5], m[3]/m[6], m[5]/m[6]
  }'
