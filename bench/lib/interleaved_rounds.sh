# shellcheck shell=bash
# The interleaved rounds of the side-by-side scripts (bench/*_vs_original.sh), sourced by them.
#
#   interleaved_rounds WORK ROUNDS ARM...
# runs every ARM once a round by calling the script's own `run_arm ARM ROUND`, the order rotated
# from round to round (two arms: the first one first in odd rounds, second in even ones), so that
# no arm always runs first or after the same other arm. Each arm's wall time goes to
# WORK/ARM/elapsed ("ROUND START END", seconds since the epoch), the load average after each
# round to WORK/load ("ROUND 1-MIN 5-MIN 15-MIN") and to the terminal.
interleaved_rounds() {
  local work=$1 rounds=$2
  shift 2
  local arms=("$@") order=() round i arm start load
  for round in $(seq 1 "$rounds"); do
    order=()
    for i in "${!arms[@]}"; do order+=("${arms[$(((i + round - 1) % ${#arms[@]}))]}"); done
    for arm in "${order[@]}"; do
      start=$(date +%s.%N)
      run_arm "$arm" "$round"
      echo "$round $start $(date +%s.%N)" >> "$work/$arm/elapsed"
    done
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "$round $load" >> "$work/load"
    echo "round $round (${order[*]}) done; load average $load"
  done
}
