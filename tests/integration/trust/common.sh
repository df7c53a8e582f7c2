# Shared by the trust tests (issue 24: no silent wrong figure, no lost run): the orchestrator's
# scratch directory, pbench and a small logp workload (../orchestrator/common.sh), the built-in
# job templates to derive faulty ones from, and the store's result count, taken before and
# after each fault (nothing stored may be lost).
TEMPLATES="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../jobtemplates" && pwd)"
source "$(dirname "${BASH_SOURCE[0]}")/../orchestrator/common.sh"
# results [DB]: the number of results stored.
results() {
  "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from results").fetchone()[0])' \
    "${1:-$PBENCH_DB}"
}
# expect_results N [DB]: the store holds N results.
expect_results() {
  local n
  n=$(results "${2:-$PBENCH_DB}")
  [[ $n -eq $1 ]] || fail "the store holds $n results, expected $1"
}
# launch_template NAME 'LINES': the local template with its launch line replaced by LINES (in
# which "$@" is the worker's command line without mpiexec -n P).
launch_template() {
  awk -v lines="$2" '/^\{\{command\}\}$/ { print "set -- {{command}}; shift 3"; print lines; next } { print }' \
    "$TEMPLATES/job.sh" > "$1"
  grep -q '^set -- ' "$1" || fail "could not make the test template $1"
}
