#!/usr/bin/env bash
# The scale tests' fixture: the eight-node lab (env.sh) started unless it runs already.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
exec bash "$here/../slurm/lab.sh" "$1" --nodes "$PBENCH_SCALE_LAB" --cpus 4
