# Shared by the test groups that run all four workers directly (deadline, worker-nodes): the
# workers' and the validator's paths from the environment, a scratch directory (removed at exit)
# to work in, and fail (lib/scratch.sh). Usage: SCRATCH_NAME=pbench-<group> source .../lib/workers.sh
source "$(dirname "${BASH_SOURCE[0]}")/scratch.sh"
declare -A WORKER=(
  [logp]=${PBENCH_LOGP:?PBENCH_LOGP must name the pbench-logp binary}
  [comm]=${PBENCH_COMM:?PBENCH_COMM must name the pbench-comm binary}
  [io]=${PBENCH_IO:?PBENCH_IO must name the pbench-io binary}
  [bcast]=${PBENCH_BCAST:?PBENCH_BCAST must name the pbench-bcast binary})
VALIDATE=${PBENCH_VALIDATE:?PBENCH_VALIDATE must name the pbench-validate-result binary}
