#!/usr/bin/env bash
# Prints pbench-logp's EEL and large-message figures beside a plain MPI ping-pong and flood of
# the same sizes (bench/src/logp_plain.c), interleaved over several runs on 2 ranks, so any
# overhead of the worker's harness shows. Latency on this kind of machine moves with the host's
# placement of the virtual CPUs: compare the columns run by run and by their medians.
#
#   bench/logp_vs_plain.sh [RUNS]        (default 5; build first: scripts/build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
runs=${1:-5}
logp=$build/workers/logp/pbench-logp
plain=$build/bench/logp_plain
for f in "$logp" "$plain"; do
  [[ -x $f ]] || { echo "logp_vs_plain: $f is missing: run scripts/build first" >&2; exit 2; }
done
size=4194304
roundtrips=10000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-4s %12s %12s %12s | %14s %14s | %14s %14s\n' run "EEL logp" "EEL plain" \
  "EEL plain nb" "flood logp" "flood plain" "1/G logp" "pingpong plain"
printf '%-4s %12s %12s %12s | %14s %14s | %14s %14s\n' "" "[us]" "[us]" "[us]" "4 MiB [MB/s]" \
  "4 MiB [MB/s]" "[MB/s]" "4 MiB [MB/s]"
for ((r = 1; r <= runs; ++r)); do
  mpiexec -n 2 "$logp" --queue-depths 1 --eel-runs 10 --eel-roundtrips "$roundtrips" \
    --max-size "$size" --output "$work/logp.json" >"$work/logp.log" 2>&1 ||
    { cat "$work/logp.log" >&2; exit 1; }
  line=$(mpiexec -n 2 "$plain" "$roundtrips" 10 "$size" 16 1)
  python3 - "$work/logp.json" "$r" "$line" >>"$work/rows" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
metric = {m["name"]: m["value"] for m in doc["summary"] if not m["labels"] or m["labels"].get("queue_depth") == 1}
curve = doc["measurements"]["flood_curve"]
cols = [c["name"] for c in curve["columns"]]
big = max(curve["rows"], key=lambda row: row[cols.index("size")])
flood_logp = big[cols.index("bandwidth")]
plain = dict(kv.split("=") for kv in sys.argv[3].split())
print(sys.argv[2], metric["eel_min"], float(plain["eel_min_s"]), flood_logp,
      float(plain["flood_bw_Bps"]), metric["bandwidth"], float(plain["pingpong_bw_Bps"]),
      float(plain["eel_nb_min_s"]))
PY
  tail -n 1 "$work/rows" | awk '{printf "%-4s %12.3f %12.3f %12.3f | %14.0f %14.0f | %14.0f %14.0f\n", $1, $2*1e6, $3*1e6, $8*1e6, $4/1e6, $5/1e6, $6/1e6, $7/1e6}'
done
awk '
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { for (k = 2; k <= 8; ++k) col[k, NR] = $k; n = NR }
  END {
    for (k = 2; k <= 8; ++k) { for (i = 1; i <= n; ++i) v[i] = col[k, i]; m[k] = median(v, n) }
    printf "%-4s %12.3f %12.3f %12.3f | %14.0f %14.0f | %14.0f %14.0f\n", "med", m[2]*1e6, m[3]*1e6, m[8]*1e6, m[4]/1e6, m[5]/1e6, m[6]/1e6, m[7]/1e6
    printf "\nmedian ratios logp/plain: EEL %.2f (against the nonblocking plain ping-pong, the method'"'"'s calls: %.2f), flood bandwidth at 4 MiB %.2f\n", m[2]/m[3], m[2]/m[8], m[4]/m[5]
  }' "$work/rows"
