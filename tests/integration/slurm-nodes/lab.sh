#!/usr/bin/env bash
# The slurm-nodes tests' fixture: the four-node lab (env.sh) started unless it runs already.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
exec bash "$here/../slurm/lab.sh" "$1" --nodes "$PBENCH_SLURM_NODES_LAB"
