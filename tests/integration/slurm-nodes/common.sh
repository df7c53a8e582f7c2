# Shared by the slurm-nodes tests: the orchestrator tests' scratch directory and helpers, and the
# environment of the four-node lab (env.sh), which the "slurm nodes: lab up" fixture started.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
source "$here/../orchestrator/common.sh"
source "$here/../lib/sbatch_wait.sh"
lab="$here/../../slurm-lab"
eval "$("$lab/up" --nodes "$PBENCH_SLURM_NODES_LAB")"
export SLURM_CONF
