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
# sweep_through NAME SCHEDULER: a logp sweep NAME over partitions 1 and 2 through SCHEDULER's
# batch commands (5-minute limit, queue lab, two jobs at once), its table in table.json: one
# row (partition 2; logp needs two processes) with an EEL, both results stored, every attempt
# done with a numeric job id and exit status 0.
sweep_through() {
  "$PBENCH" run "$1" --scheduler "$2" --partitions 1,2 --queue-depths 1 --time-limit 5 \
    --queue lab --max-parallel 2 "${SMALL[@]}" --format json > table.json
  "$PY" - table.json "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [(r["partition"], r["queue_depth"]) for r in rows] == [(2, 1)], rows
assert rows[0]["eel"] > 0, rows
db = sqlite3.connect(sys.argv[2])
assert db.execute("select count(*) from results").fetchone()[0] == 2
for state, job_id, status in db.execute("select state, job_id, exit_status from attempts"):
    assert state == "done" and job_id.isdigit() and status == 0, (state, job_id, status)
PY
}
# has_directives SCRIPT DIRECTIVE...: every DIRECTIVE starts a line of the job script SCRIPT.
has_directives() {
  local script=$1 directive
  shift
  for directive in "$@"; do
    grep -q -- "^$directive" "$script" || fail "no '$directive' in $script"
  done
}
