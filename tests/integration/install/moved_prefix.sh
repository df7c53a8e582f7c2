#!/usr/bin/env bash
# cmake --install, moved: the staged prefix copied to another path holds exactly the listed
# files, its programs carry no debug information, and its pbench runs the demo there as an
# unprivileged user in a directory of its own (store and runs directory there), with the workers
# found beside it (nothing on PATH, no PBENCH_WORKER_DIR); its bash completion then offers the
# commands, options and the demo's sweep name from the store there.
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
echo "moved prefix: ok"
