#!/usr/bin/env bash
# The slurm-network tests' fixture: the networked lab (env.sh) started unless it runs already,
# every link at LAB_RATE. Exits 77 (skipped) where the machine does not allow it, saying why.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
if [[ "${1:-}" == up ]]; then
  exec bash "$here/../slurm/lab.sh" up "${lab_up_args[@]}" --rate "$LAB_RATE"
fi
exec bash "$here/../slurm/lab.sh" "$@"
