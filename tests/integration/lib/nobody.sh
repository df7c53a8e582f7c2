# Shared by the tests that run binaries as the unprivileged user 'nobody' (root ignores
# permissions, so a test of them drops to nobody). Such a user cannot enter a checkout in a
# private directory (mode 700, Debian's default for a home directory), so the binaries are
# staged first: copied into a directory of the test's scratch space that nobody can reach.
# Usage: source .../lib/nobody.sh (after the scratch directory $work exists)
#   NOBODY: the command prefix that runs as nobody (empty when not root: already unprivileged)
#   staged=$(stage_for_nobody BINARY...): the directory holding a copy of each BINARY
NOBODY=()
if [[ $(id -u) -eq 0 ]]; then
  if ! command -v setpriv > /dev/null; then
    echo "SKIP: setpriv (util-linux) is needed to run binaries as nobody"
    exit 77
  fi
  NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

stage_for_nobody() {
  local dir="$work/staged-for-nobody"
  mkdir -p "$dir"
  chmod 755 "$work" "$dir"
  local binary
  for binary in "$@"; do install -m 755 "$binary" "$dir/"; done
  # Every directory above it must let nobody through (a TMPDIR inside a private home would not).
  if ! "${NOBODY[@]}" test -x "$dir/$(basename "$1")"; then
    echo "SKIP: nobody cannot reach the scratch directory $work (TMPDIR=${TMPDIR:-/tmp} is private)" >&2
    exit 77
  fi
  echo "$dir"
}

# older_views_copy STORE DIR VIEW: a copy of STORE as DIR/pbench.db, read-only in a read-only
# DIR, as an older pbench left it: VIEW is another one and the views' and the catalogue's
# fingerprints are not this pbench's (what a reader meets after an upgrade of pbench).
older_views_copy() {
  mkdir "$2" && cp "$1" "$2/pbench.db"
  sqlite3 "$2/pbench.db" "DROP VIEW $3; CREATE VIEW $3 AS SELECT 1 AS older;
    UPDATE meta SET value = 'an older pbench' WHERE key = 'store_views';
    UPDATE meta SET value = 'an older catalogue' WHERE key = 'metric_catalogue';"
  chmod 444 "$2/pbench.db" && chmod 555 "$2"
}
