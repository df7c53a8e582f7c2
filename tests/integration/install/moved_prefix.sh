#!/usr/bin/env bash
# cmake --install, moved: the staged prefix copied to another path holds exactly the listed
# files, its programs carry no debug information, and its pbench runs the demo there as an
# unprivileged user in a directory of its own (store and runs directory there), with the workers
# found beside it (nothing on PATH, no PBENCH_WORKER_DIR); its bash completion then offers the
# commands, options and the demo's sweep name from the store there; its sample site profile,
# copied to etc/pbench/site.toml, runs a sweep under each worker set it carries (MPICH, Open MPI).
source "$(dirname "$0")/lib.sh"
place=$(mktemp -d "$stage/moved.XXXXXX")
chmod 755 "$place"
trap 'rm -rf "$place"' EXIT
cd "$place"
moved=$place/elsewhere/pbench-$version
mkdir -p "$(dirname "$moved")"
cp -a "$stage/prefix" "$moved"
check_installed_files "$moved"
user_dir "$place/work"
check_demo "$place/work" "$moved/bin/pbench"
cat > "$place/work/complete.sh" <<COMPLETE
source '$moved/share/bash-completion/completions/pbench'
complete_words() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\$# - 1)); COMPREPLY=(); _pbench; echo "\${COMPREPLY[*]}"; }
complete_words '$moved/bin/pbench' st
complete_words '$moved/bin/pbench' status ''
complete_words '$moved/bin/pbench' query io --for
complete_words '$moved/bin/pbench' --db nothing.db status ''
COMPLETE
as_user "$place/work" bash complete.sh > "$place/work/complete.out" || fail "the completion failed"
printf '%s\n' "status store" "demo" "--format" "" | diff -u - "$place/work/complete.out" >&2 ||
  fail "the bash completion offers other words (- expected, + offered)"
[[ ! -e $place/work/nothing.db ]] || fail "the completion created the store it was asked about"
echo "bash completion: commands, options and the store's sweep names"

# Every worker set the build made is in the tree (libexec/pbench/<mpi>/), and the sample site
# profile names them: copied to site.toml beside it (where the installed pbench looks), a sweep
# with --envs runs each environment's workers from the moved tree, each under its own MPI.
sets=$(cd "$moved/libexec/pbench" && ls | tr '\n' ' ')
[[ $sets == "mpich openmpi " ]] || fail "the worker sets in libexec/pbench: '$sets'"
cp "$moved/etc/pbench/site.toml.example" "$moved/etc/pbench/site.toml"
user_dir "$place/envs"
as_user "$place/envs" "$moved/bin/pbench" run envs --envs mpich,openmpi --workers bcast \
  --partitions 2 --set bcast.sizes=8 --set bcast.repetitions=5 --set bcast.max_measurements=2 \
  > "$place/envs/run.out" 2> "$place/envs/run.err" ||
  fail "a sweep over the sample profile's environments failed: $(tail -20 "$place/envs/run.err")"
as_user "$place/envs" "$moved/bin/pbench" query sql \
  "SELECT json_extract(p.params_json, '\$.env') AS env, \
   json_extract(r.head, '\$.mpi.library') AS library \
   FROM results r JOIN points p ON p.id = r.point_id ORDER BY 1" --format json > "$place/envs/mpi.json"
python3 - "$place/envs/mpi.json" <<'PY' || fail "the environments did not run under their own MPI"
import json, sys
rows = [(r["env"], r["library"]) for r in json.load(open(sys.argv[1]))["rows"]]
assert rows == [("mpich", "MPICH"), ("openmpi", "Open MPI")], rows
PY
for mpi in mpich openmpi; do
  grep -rqF "$moved/libexec/pbench/$mpi/pbench-bcast" "$place/envs/pbench-runs/envs" ||
    fail "no job script runs $moved/libexec/pbench/$mpi/pbench-bcast"
done
echo "sample site profile: both worker sets ran from the moved tree"
echo "moved prefix: ok"
