# Shared by the install tests: fail, the staged tree the fixture "install: stage" made
# ($stage: prefix/ from cmake --install --strip, deb/ from cpack), running a command as an
# unprivileged user, the installed-files check and the demo check.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
record=${PBENCH_INSTALL_STAGE:?PBENCH_INSTALL_STAGE must name the file the stage fixture writes}
[[ -s $record ]] || fail "no staged install ($record missing): the fixture 'install: stage' did not run"
stage=$(cat "$record")
[[ -d $stage/prefix ]] || fail "the staged install $stage/prefix is gone"
version=${PBENCH_PROJECT_VERSION:?PBENCH_PROJECT_VERSION must give the project version}

# user_dir PATH: a new directory the unprivileged user owns (its own home and work place).
user_dir() {
  mkdir -p "$1"
  if [[ $(id -u) -eq 0 ]]; then chown nobody: "$1"; fi
}

# as_user DIR COMMAND...: COMMAND in DIR, with a clean environment (HOME=DIR, PATH of the
# system only, so nothing installed is on it), as nobody when we are root (runuser), else as
# ourselves (then already unprivileged). Extra variables: AS_USER_ENV=(NAME=VALUE ...).
as_user() {
  local dir=$1
  shift
  local env=(env -i "HOME=$dir" "PATH=/usr/local/bin:/usr/bin:/bin" "LANG=C.UTF-8"
    "${AS_USER_ENV[@]}")
  if [[ $(id -u) -eq 0 ]]; then
    (cd "$dir" && runuser -u nobody -- "${env[@]}" "$@")
  else
    (cd "$dir" && "${env[@]}" "$@")
  fi
}
AS_USER_ENV=()

# check_installed_files PREFIX: the files under PREFIX are exactly installed-files.txt's
# (VERSION there is the project version), and no program carries debug information.
check_installed_files() {
  local prefix=$1
  (cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > installed.txt
  sed "s/VERSION/$version/" "$here/installed-files.txt" | grep -v '^#' | sort > expected.txt
  diff -u expected.txt installed.txt >&2 ||
    fail "the files under $prefix differ from installed-files.txt (- expected, + installed)"
  local program
  # Every program, each worker set's in libexec/pbench/ too (a link to bin/ is checked there).
  for program in "$prefix"/bin/* "$prefix"/libexec/pbench/*/*; do
    [[ -L $program ]] && continue
    if readelf -S --wide "$program" | grep -q '\.debug_'; then
      fail "$program carries debug information (installed without stripping)"
    fi
    echo "${program#"$prefix"/}: $(stat -c %s "$program") bytes, no debug information"
  done
}

# check_demo DIR PBENCH: `pbench run` (the demo) in DIR as the unprivileged user finished every
# point of all four workers, with the store and the runs directory in DIR, and its job scripts
# run the workers that lie beside PBENCH.
check_demo() {
  local dir=$1 pbench=$2
  as_user "$dir" "$pbench" run > "$dir/demo.out" 2> "$dir/demo.err" ||
    fail "pbench run (the demo) failed in $dir: $(tail -20 "$dir/demo.err")"
  [[ -f $dir/pbench.db ]] || fail "the demo made no store $dir/pbench.db"
  [[ -d $dir/pbench-runs/demo ]] || fail "the demo made no runs directory $dir/pbench-runs/demo"
  as_user "$dir" "$pbench" query points --format json > "$dir/points.json"
  local summary
  summary=$(python3 - "$dir/points.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
workers = sorted({r["worker"] for r in rows})
bad = [f'{r["worker"]} {r["partition"]}: {r["state"]}, result {r["result"]}' for r in rows
       if r["state"] != "done" or r["result"] != "yes"]
if workers != ["bcast", "comm", "io", "links", "logp"] or bad:
    print(f"workers {workers}; not done with a result: {bad}")
    sys.exit(1)
print(f"{len(rows)} points of {', '.join(workers)} done, each with its result stored")
PY
  ) || fail "the demo's points: $summary"
  local bin
  bin=$(dirname "$pbench")
  grep -rqF "$bin/pbench-logp" "$dir/pbench-runs/demo" ||
    fail "the demo's job scripts do not run $bin/pbench-logp"
  echo "demo as $(stat -c %U "$dir/pbench.db") in $dir: $summary"
}
