#!/usr/bin/env bash
# Finding a weak link, counted: on the networked Slurm lab (tests/slurm-lab/up --nodes 4
# --network, started here when not running) with every link at 200 Mbit/s and node3's at a
# quarter (50 Mbit/s; at 1 Gbit/s the 4 ranks on 2 cores, not the links, bound the streams), runs the link matrix over 4x1 RUNS times (pbench run ... --again) and counts the
# runs in which `pbench query links` names node3 (as a weak node) and nothing else. Prints one
# line per run (the weak nodes and links named) and the count:
#   bench/links_weak_node.sh [--runs N] [--build DIR] [--store DB RUNS_DIR]
# (default 10 runs, ./build, a store of its own). With --store the runs go into that store and
# runs directory; a sweep `weak` already there (of these settings) is run again from the first
# run on (the test `slurm network: links_weak` makes its shaped run so, after its reference).
# Uses PBENCH_SLURM_LAB_DIR/PBENCH_SLURM_LAB_PORT as the lab does; restores 1 Gbit/s at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
runs=10
build=$root/build
db="" runs_dir=""
while (($#)); do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --store)
      (($# >= 3)) || { echo "links_weak_node.sh: --store needs a store file and a runs directory" >&2; exit 2; }
      db=$2 runs_dir=$3; shift 3 ;;
    *) echo "usage: links_weak_node.sh [--runs N] [--build DIR] [--store DB RUNS_DIR]" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "links_weak_node.sh: --runs '$runs' is not a count >= 1" >&2; exit 2; }
pbench=$build/orchestrator/pbench
preload=$build/tests/libpbench_lab_ucx_disconnect_now.so
[[ -x "$pbench" && -r "$preload" ]] || { echo "links_weak_node.sh: build first (scripts/build): $pbench, $preload" >&2; exit 2; }
lab=$root/tests/slurm-lab
eval "$("$lab/up" --nodes 4 --network --preload "$preload")"
export SLURM_CONF
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-links-weak.XXXXXX")
trap '"$lab/shape" 1gbit > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
export PBENCH_DB=${db:-$work/pbench.db} PBENCH_RUNS_DIR=${runs_dir:-$work/runs}
# A sweep weak already in the given store is run again as it is (run 1 included).
again=0
[[ -n $db ]] && "$pbench" status weak > /dev/null 2>&1 && again=1
"$lab/shape" 200mbit node3=50mbit >&2
named_only_node3=0
for ((run = 1; run <= runs; run++)); do
  # The first run defines the sweep; the others run it again as it is (--again takes no option
  # that would change it).
  sweep=(--scheduler slurm --workers links --partitions 4x1 --time-limit 5
    --set links.latency_roundtrips=50 --set links.message_size=1MiB --set links.messages=8
    --set links.repetitions=3)
  ((run > 1 || again)) && sweep=(--again)
  "$pbench" run weak "${sweep[@]}" > "$work/run.$run.log" 2>&1 ||
    { echo "run $run: pbench run failed: $(tail -5 "$work/run.$run.log")" >&2; exit 1; }
  named=$("$pbench" query links weak --format json | python3 -c '
import json, sys
t = json.load(sys.stdin)
verdicts = sorted({r["verdict"] for r in t["rows"] if r["verdict"]})
weak_nodes = [r["from"] for r in t["rows"] if r["verdict"] == "weak node"]
weak_links = [r["from"] + " -> " + r["to"] for r in t["rows"] if r["verdict"] == "weak link"]
print(",".join(weak_nodes) + "|" + ",".join(weak_links))')
  nodes=${named%%|*} links=${named#*|}
  verdict=other
  [[ "$nodes" == node3 && -z "$links" ]] && { verdict="node3 only"; named_only_node3=$((named_only_node3 + 1)); }
  echo "run $run: weak nodes: ${nodes:-none}; weak links: ${links:-none} ($verdict)"
done
echo "node3 named, and nothing else, in $named_only_node3 of $runs runs"
