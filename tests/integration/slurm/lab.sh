#!/usr/bin/env bash
# The Slurm tests' fixture: `lab.sh up [--nodes N]` starts the local lab unless it runs already
# (then it is left running at the end), `lab.sh down` stops it if `up` started it.
set -euo pipefail
lab="$(cd "$(dirname "$0")/../../slurm-lab" && pwd)"
mark=${PBENCH_SLURM_LAB_MARK:?PBENCH_SLURM_LAB_MARK must name the marker file of the fixture}
source "$lab/common.sh"
case "${1:-}" in
  up)
    if lab_running; then
      echo "slurm lab already running; it stays up after the tests"
      rm -f "$mark"
    else
      echo "starting the slurm lab for the tests"
      touch "$mark"
    fi
    shift
    "$lab/up" "$@" > /dev/null
    ;;
  down)
    if [[ -e "$mark" ]]; then
      rm -f "$mark"
      "$lab/down"
    fi
    ;;
  *) echo "usage: lab.sh up|down" >&2; exit 2 ;;
esac
