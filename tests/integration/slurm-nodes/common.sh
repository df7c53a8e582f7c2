# Shared by the slurm-nodes tests: the orchestrator tests' scratch directory and helpers, and the
# environment of the four-node lab (env.sh), which the "slurm nodes: lab up" fixture started.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
source "$here/../orchestrator/common.sh"
lab="$here/../../slurm-lab"
eval "$("$lab/up" --nodes "$PBENCH_SLURM_NODES_LAB")"
export SLURM_CONF
# The lab's jobs last seconds: pbench polls it at least every 2 s (PBENCH_POLL_MAX), where a
# real cluster's default backs off to 15 s (a job ended at 61 s was seen up to 15 s late).
export PBENCH_POLL_MAX=${PBENCH_POLL_MAX:-2}
