# Shared by the Slurm/PBS integration tests: the orchestrator tests' scratch directory and
# helpers, plus the environment of the project's local Slurm lab (tests/slurm-lab), which the
# "slurm: lab up" fixture has started (or which was running already).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../orchestrator/common.sh"
lab="$here/../../slurm-lab"
eval "$("$lab/up")"
export SLURM_CONF
# The lab has one node, and a job gets whole nodes unless its sweep says --share-nodes: the tests
# whose jobs must run side by side (cancel, polling, queue limits, ...) share the node.
# The point states of a sweep as "partition:state" words, sorted.
point_states() {
  sqlite3 -cmd ".timeout 5000" "$PBENCH_DB" "select p.partition || ':' || p.state from points p join sweeps s on s.id = p.sweep_id
                         where s.name = '$1' order by p.partition, p.id"
}
# A copy of the built-in template (one for every scheduler) with a line inserted before the
# worker's command.
template_with() {
  local line=$1 out=$2
  awk -v line="$line" '/^\{\{command\}\}$/ { print line } { print }' \
    "$here/../../../jobtemplates/job.sh" > "$out"
  grep -qF -- "$line" "$out" || fail "could not make the test template $out"
}
