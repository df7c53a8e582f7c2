#!/usr/bin/env bash
# Prints pbench-logp's EEL and large-message figures beside a plain MPI ping-pong and flood of
# the same sizes (bench/src/logp_plain.c), interleaved over several rounds on 2 ranks, so any
# overhead of the worker's harness shows. Every round runs pbench-logp once and the plain
# program twice (A and B) in an order rotated from round to round; B against A is the A/A
# noise floor a logp/plain ratio is to be read against. Latency on this kind of machine moves
# with the host's placement of the virtual CPUs, from launch to launch and within one: compare
# the columns round by round and by their medians. Every round also runs the worker's own loop
# beside the plain one in one process (src/logp_loop_ab.cpp, 10 runs each, alternated): the
# column "loop" is its logp/plain of the minima, free of the launch-to-launch noise, for the EEL
# and for the flood at 4 MiB (q = 1, 16 messages: the worker's flood at that size). pbench-logp
# runs with --repetitions 10, the plain program's 10 runs: each flood figure is the best of as
# many tries on both sides (the worker's default is 3, and the best of 3 against the best of 10
# made the flood read about 0.85 of the plain one on the idle machine).
#
#   bench/logp_vs_plain.sh [ROUNDS]        (default 5; build first: scripts/build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
rounds=${1:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "logp_vs_plain: ROUNDS must be a positive number, got '$rounds'" >&2; exit 2; }
logp=$build/workers/logp/pbench-logp
plain=$build/bench/logp_plain
loop_ab=$build/bench/logp_loop_ab
for f in "$logp" "$plain" "$loop_ab"; do
  [[ -x $f ]] || { echo "logp_vs_plain: $f is missing: run scripts/build first" >&2; exit 2; }
done
size=4194304
roundtrips=10000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_logp() {
  mpiexec -n 2 "$logp" --queue-depths 1 --eel-runs 10 --eel-roundtrips "$roundtrips" \
    --max-size "$size" --repetitions 10 --output "$work/logp.json" >"$work/logp.log" 2>&1 ||
    { cat "$work/logp.log" >&2; exit 1; }
}
run_plain() { mpiexec -n 2 "$plain" "$roundtrips" 10 "$size" 16 1 >"$work/plain_$1.txt"; }
run_loop_ab() { mpiexec -n 2 "$loop_ab" "$roundtrips" 10 "$size" 16 >"$work/loop_ab.txt"; }

printf '%-5s %-5s %9s %9s %9s %9s %6s | %9s %9s | %9s %9s | %5s\n' round order "EEL logp" \
  "blocking" "nb A" "nb B" "loop" "flood" "flood" "1/G" "pingpong" load
printf '%-5s %-5s %9s %9s %9s %9s %6s | %9s %9s | %9s %9s | %5s\n' "" "" "[us]" "plain[us]" \
  "plain[us]" "plain[us]" "ratio" "logp" "plain" "logp" "plain" "1 min"
printf '%-5s %-5s %9s %9s %9s %9s %6s | %9s %9s | %9s %9s |\n' "" "" "" "" "" "" "" "[MB/s]" \
  "[MB/s]" "[MB/s]" "[MB/s]"
for ((r = 1; r <= rounds; ++r)); do
  case $(((r - 1) % 3)) in
    0) order=LAB; run_logp; run_plain A; run_plain B ;;
    1) order=ALB; run_plain A; run_logp; run_plain B ;;
    2) order=ABL; run_plain A; run_plain B; run_logp ;;
  esac
  run_loop_ab
  load=$(cut -d' ' -f1 /proc/loadavg)
  python3 - "$work" "$r" "$order" "$load" >>"$work/rows" <<'PY'
import json, sys
work, rnd, order, load = sys.argv[1:5]
doc = json.load(open(work + "/logp.json"))
metric = {m["name"]: m["value"] for m in doc["summary"] if not m["labels"] or m["labels"].get("queue_depth") == 1}
curve = doc["measurements"]["flood_curve"]
cols = [c["name"] for c in curve["columns"]]
big = max(curve["rows"], key=lambda row: row[cols.index("size")])
plain = {k: dict(kv.split("=") for kv in open(f"{work}/plain_{k}.txt").read().split()) for k in "AB"}
loop = dict(kv.split("=") for kv in open(f"{work}/loop_ab.txt").read().split())
print(rnd, order, metric["eel_min"], float(plain["A"]["eel_min_s"]), float(plain["A"]["eel_nb_min_s"]),
      float(plain["B"]["eel_nb_min_s"]), big[cols.index("bandwidth")], float(plain["A"]["flood_bw_Bps"]),
      metric["bandwidth"], float(plain["A"]["pingpong_bw_Bps"]), load, metric["eel_median"],
      float(plain["A"]["eel_nb_median_s"]), float(plain["B"]["eel_nb_median_s"]),
      float(loop["logp_min_s"]) / float(loop["plain_min_s"]), float(loop["ratio_median"]),
      int(loop["data_errors"]),
      float(loop["flood_plain_min_s"]) / float(loop["flood_logp_min_s"]),
      1 / float(loop["flood_ratio_median"]), float(plain["B"]["flood_bw_Bps"]))
PY
  tail -n 1 "$work/rows" | awk '{printf "%-5s %-5s %9.3f %9.3f %9.3f %9.3f %6.3f | %9.0f %9.0f | %9.0f %9.0f | %5s\n", $1, $2, $3*1e6, $4*1e6, $5*1e6, $6*1e6, $15, $7/1e6, $8/1e6, $9/1e6, $10/1e6, $11}'
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
col = lambda k: [float(r[k]) for r in rows]
med = statistics.median
logp, blocking, nb_a, nb_b = col(2), col(3), col(4), col(5)
flood_logp, flood_plain, inv_g, pingpong = col(6), col(7), col(8), col(9)
print("%-5s %-5s %9.3f %9.3f %9.3f %9.3f %6.3f | %9.0f %9.0f | %9.0f %9.0f | %5s" % (
    "med", "", med(logp) * 1e6, med(blocking) * 1e6, med(nb_a) * 1e6, med(nb_b) * 1e6, med(col(14)),
    med(flood_logp) / 1e6, med(flood_plain) / 1e6, med(inv_g) / 1e6, med(pingpong) / 1e6,
    "%.2f" % med(col(10))))
per_round = lambda a, b: med([x / y for x, y in zip(a, b)])
print()
pooled = nb_a + nb_b
print("EEL logp / plain nonblocking (the method's calls): %.3f against A and B pooled (median %.3f us), "
      "%.3f against A, %.3f against B; per round against sqrt(A*B): median %.3f"
      % (med(logp) / med(pooled), med(pooled) * 1e6, med(logp) / med(nb_a), med(logp) / med(nb_b),
         med([l / (a * b) ** 0.5 for l, a, b in zip(logp, nb_a, nb_b)])))
logp_run_median, a_run_median, b_run_median = col(11), col(12), col(13)
print("the same with each program's median over its runs instead of its minimum: logp %.3f us, "
      "plain A %.3f us, B %.3f us: %.3f against A and B pooled, A/A %.3f"
      % (med(logp_run_median) * 1e6, med(a_run_median) * 1e6, med(b_run_median) * 1e6,
         med(logp_run_median) / med(a_run_median + b_run_median),
         med(b_run_median) / med(a_run_median)))
print("the worker's loop beside the plain one in one process (logp_loop_ab): logp/plain of the "
      "minima %.3f (rounds %.3f-%.3f), of neighbouring runs %.3f; data errors %d"
      % (med(col(14)), min(col(14)), max(col(14)), med(col(15)), sum(int(r[16]) for r in rows)))
print("A/A, plain B / plain A nonblocking: %.3f (per round: median %.3f, %.3f-%.3f): the noise floor"
      % (med(nb_b) / med(nb_a), per_round(nb_b, nb_a), min(b / a for a, b in zip(nb_a, nb_b)),
         max(b / a for a, b in zip(nb_a, nb_b))))
print("plain nonblocking A / plain blocking (what the method's calls cost against osu_latency's): %.3f"
      % (med(nb_a) / med(blocking)))
print("EEL logp / plain blocking: %.3f" % (med(logp) / med(blocking)))
flood_b = col(19)
print("flood bandwidth at 4 MiB (q = 1, 16 messages, best of 10 on both sides): logp / plain "
      "%.3f against A and B pooled, %.3f against A (per round %.3f-%.3f); 1/G / plain flood %.3f; "
      "A/A %.3f"
      % (med(flood_logp) / med(flood_plain + flood_b), med(flood_logp) / med(flood_plain),
         min(x / y for x, y in zip(flood_logp, flood_plain)),
         max(x / y for x, y in zip(flood_logp, flood_plain)),
         med(inv_g) / med(flood_plain + flood_b), med(flood_b) / med(flood_plain)))
print("the worker's flood beside the plain one in one process (logp_loop_ab): logp/plain "
      "bandwidth of the best runs %.3f (rounds %.3f-%.3f), of neighbouring runs %.3f"
      % (med(col(17)), min(col(17)), max(col(17)), med(col(18))))
PY
