#!/usr/bin/env bash
# The design card's sweep, for real, in the Slurm lab (issue 36 item 1; issue 37's planned
# against actual): a lab of 16 nodes of 8 CPUs (128 task slots on this machine's cores, in a lab
# of its own: PBENCH_SLURM_LAB_DIR + "-card", port PBENCH_SLURM_LAB_PORT + 50; its slurmds may go
# 300 s unanswered before their node is set down, since 128 busy ranks starve them), a site profile
# with Open MPI's workers (they yield the core when they wait; MPICH 4.0.2's ch4:ucx busy-polls,
# and has no setting that yields), and one `pbench run` of every worker on the card's
# partitions 8, 32 and 128, the shapes 16x8 and 4x8 and the link matrix over 16x1, at settings
# small enough to finish (CARD_SETTINGS below). Prints the plan before the run, the run's wall
# time, each point's planned against actual time (`pbench history --times`), the stored results
# and the load average; the lab is stopped afterwards unless it ran before. With RUNS above 1
# the sweep runs again (`pbench run card --again`) and each later run's points are planned from
# the run before (issue 37: within 25% of their actual time?). Last, the report of the sweep,
# whose link matrix is the real 16x16 one, and its figure rendered by headless Chromium
# (WORK_DIR/links-16x1.png, where chromium is installed).
# Usage: bench/card_sweep.sh [BUILD_DIR (default ./build)] [WORK_DIR (default: a temporary one)]
#          [RUNS (default 1)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
pbench=$build/orchestrator/pbench
openmpi=$build/mpi/openmpi
[[ -x $pbench ]] || { echo "card_sweep: $pbench not built (run scripts/build)" >&2; exit 2; }
[[ -x $openmpi/pbench-logp ]] || { echo "card_sweep: no Open MPI workers in $openmpi" >&2; exit 2; }
if [[ -n "${2:-}" ]]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/card-sweep.XXXXXX")
fi
runs=${3:-1}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "card_sweep: RUNS must be a positive integer" >&2; exit 2; }
cd "$work"
export PBENCH_SLURM_LAB_DIR="${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}-card"
export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 50))
source "$root/tests/slurm-lab/common.sh"
started=""
lab_running || started=1
eval "$("$root/tests/slurm-lab/up" --nodes 16 --cpus 8 --slurmd-timeout 300)"
export SLURM_CONF
[[ -z "$started" ]] || trap '"$root/tests/slurm-lab/down" >/dev/null 2>&1 || true' EXIT
export PBENCH_DB=$work/card.db PBENCH_RUNS_DIR=$work/runs

source "$root/tests/slurm-lab/openmpi_site.sh"
lab_openmpi_site "$openmpi" > card.toml
CARD_SETTINGS=(--queue-depths 1 -T 2
  --set logp.eel_roundtrips=100 --set logp.eel_runs=2 --set logp.max_size=4096
  --set logp.repetitions=1 --set logp.flood_messages=50
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
  --set comm.target_window=0.0002,0.0005 --set comm.max_time=2 --set comm.sizes=1,2
  --set io.memory_per_proc=1 --set io.cache_bytes=1000
  --set bcast.sizes=8 --set bcast.repetitions=5 --set bcast.max_measurements=3
  --set links.latency_roundtrips=20 --set links.message_size=16KiB --set links.messages=2)
card=(--site card.toml --envs openmpi --workers logp,comm,io,bcast,links
      --partitions 8,32,128,16x8,4x8,16x1 "${CARD_SETTINGS[@]}")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pbench run card ${card[*]}"
# The plan before the run: the same sweep, never submitted.
"$pbench" sweep card-plan "${card[@]}" | tail -1
"$pbench" plan card-plan | tail -12
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  rc=0
  how=("${card[@]}")
  [[ $run -eq 1 ]] || how=(--again)
  "$pbench" run card "${how[@]}" > "run-$run.out" 2> "run-$run.err" || rc=$?
  end=$(date +%s)
  echo "pbench run card (run $run): exit $rc, $((end - start)) s" \
    "($(((end - start) / 60)) min $(((end - start) % 60)) s)"
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
sqlite3 card.db "select p.state || ': ' || count(*) from points p join sweeps s on s.id = p.sweep_id
                  where s.name = 'card' group by p.state"
echo "results stored: $(sqlite3 card.db "select count(*) from results r join points p on p.id = r.point_id
                  join sweeps s on s.id = p.sweep_id where s.name = 'card'")"
"$pbench" history card --times
"$pbench" history card --times --format json > times.json
/usr/bin/python3 - <<'PY'
import json
rows = json.load(open("times.json"))["rows"]
for run in sorted({r["run"] for r in rows}):
    mine = [r for r in rows if r["run"] == run and r["actual_time"]]
    planned = sum(r["planned_time"] or 0 for r in mine)
    actual = sum(r["actual_time"] for r in mine)
    within = sum(1 for r in mine
                 if abs(r["actual_time"] - r["planned_time"]) <= 0.25 * r["actual_time"])
    bases = sorted({r["basis"] for r in mine})
    worst = max(mine, key=lambda r: abs(r["actual_time"] - r["planned_time"]) / r["actual_time"])
    print(f"run {run}: planned {planned:.0f} s against actual {actual:.0f} s over {len(mine)} "
          f"points (actual/planned {actual / planned:.2f}, basis {', '.join(bases)}); "
          f"{within} of {len(mine)} within 25%; worst {worst['worker']} "
          f"{worst.get('partition', '')}: planned {worst['planned_time']:.1f} s, "
          f"actual {worst['actual_time']:.1f} s")
PY
"$pbench" status card | tail -12
# What each worker counted, by P (the same settings at every P of the sweep; comm's loop lengths
# follow its measured times, so its counts are not the method's alone).
/usr/bin/python3 "$root/bench/cost_table.py" runs/card
"$pbench" report card -o report > report.log 2>&1 || echo "report failed: $(tail -3 report.log)"
figure=$(ls report/links-16*.svg 2>/dev/null | head -1 || true)
if [[ -n "$figure" ]] && command -v chromium > /dev/null; then
  source "$root/tests/integration/lib/chromium.sh"
  chromium_shot "$work/links-16x1.png" 1400,1200 "$figure" &&
    echo "the 16x16 link matrix: $figure, rendered as $work/links-16x1.png"
  chromium_shot "$work/report.png" 1400,4000 report/index.html &&
    echo "the report's page: $work/report.png"
fi
