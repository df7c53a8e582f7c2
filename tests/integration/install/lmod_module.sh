#!/usr/bin/env bash
# The Lmod module, with Debian's lmod, from a copy of the staged prefix at another path (the
# module finds the tree from where it lies): `module use PREFIX/share/modulefiles; module load
# pbench` changes PATH and MANPATH only and enables pbench's bash completion, then `pbench
# --version` and `man pbench` (and a worker's and a command's page, pbench-site(5) and
# pbench-store(7)) come from that tree, and after `mandb` of the tree (as a site runs it once it
# installed) `man -k pbench` lists every page of it; `module unload` restores both paths and
# removes the completion.
source "$(dirname "$0")/lib.sh"
lmod_init=/usr/share/lmod/lmod/init/bash
[[ -r $lmod_init ]] || fail "no $lmod_init: Debian's lmod is not installed (scripts/install-deps installs it)"
command -v man > /dev/null || fail "no man (Debian package man-db)"
place=$(mktemp -d "$stage/lmod.XXXXXX")
chmod 755 "$place"
trap 'rm -rf "$place"' EXIT
tree=$place/apps/pbench/$version
mkdir -p "$(dirname "$tree")"
cp -a "$stage/prefix" "$tree"
user_dir "$place/home"
# What a site does after installing into a prefix: the man database of its pages (index.db in
# the tree), which `man -k` reads for each MANPATH directory.
mandb -q "$tree/share/man" || fail "mandb $tree/share/man failed"
cat > "$place/home/session.sh" <<SESSION
set -euo pipefail
source $lmod_init
module use '$tree/share/modulefiles'
env | sort > before.env
module load pbench
env | sort > loaded.env
pbench --version > version.txt
command -v pbench > which.txt
man -w pbench > man-w.txt
man -w pbench-logp >> man-w.txt
man -w pbench-sweep >> man-w.txt
man -w 5 pbench-site >> man-w.txt
man -w 7 pbench-store >> man-w.txt
LANG=C MANPAGER=cat MANWIDTH=80 man pbench > man.txt 2> man.err
LANG=C MANPAGER=cat MANWIDTH=80 man 5 pbench-site > site.txt 2>> man.err
LANG=C MANPAGER=cat MANWIDTH=80 man 7 pbench-store > store.txt 2>> man.err
man -k pbench > apropos.txt
# The completion the module enabled: registered for pbench, and it completes (pbench itself
# answers, found on the module's PATH).
complete -p pbench > complete.txt
COMP_WORDS=(pbench st); COMP_CWORD=1; COMPREPLY=(); _pbench; echo "\${COMPREPLY[*]}" >> complete.txt
module unload pbench
env | sort > unloaded.env
if complete -p pbench > /dev/null 2>&1; then echo "still registered" >> complete.txt; fi
SESSION
as_user "$place/home" bash session.sh || fail "the module session failed"
cd "$place/home"
grep -qF "$version" version.txt || fail "pbench --version says '$(cat version.txt)', not $version"
[[ $(cat which.txt) == "$tree/bin/pbench" ]] || fail "pbench on PATH is $(cat which.txt), not $tree/bin/pbench"
printf '%s\n' "$tree/share/man/man1/pbench.1.gz" "$tree/share/man/man1/pbench-logp.1.gz" \
  "$tree/share/man/man1/pbench-sweep.1.gz" "$tree/share/man/man5/pbench-site.5.gz" \
  "$tree/share/man/man7/pbench-store.7.gz" | diff -u - man-w.txt >&2 ||
  fail "man -w does not find the pages in the module's tree"
printf '%s\n' "complete -o default -F _pbench pbench" "status store" | diff -u - complete.txt >&2 ||
  fail "module load pbench did not enable the bash completion (or unload kept it)"
grep -q "^SEE ALSO" man.txt || fail "man pbench does not show the page: $(head man.txt)"
grep -q -- "--runs-dir" man.txt || fail "man pbench does not show the options"
grep -q "^EXIT STATUS" man.txt || fail "man pbench shows no EXIT STATUS"
grep -q "^KEYS" site.txt || fail "man 5 pbench-site does not show the page: $(head site.txt)"
grep -q "^VIEWS" store.txt || fail "man 7 pbench-store does not show the page: $(head store.txt)"
[[ ! -s man.err ]] || fail "man said: $(cat man.err)"
# man -k: every page of the tree, by name and section, and none twice.
(cd "$tree/share/man" && ls man*/*.gz) | sed -E 's|^man[0-9]/(.*)\.([0-9])\.gz$|\1 (\2)|' |
  sort > pages.txt
sed -E 's/^([^ ]+ \([0-9]\)).*/\1/' apropos.txt | sort > apropos-pages.txt
diff -u pages.txt apropos-pages.txt >&2 ||
  fail "man -k pbench lists other pages than the tree's (- the tree's, + listed)"
echo "man -k pbench: the tree's $(wc -l < pages.txt) pages"
# What loading changed, Lmod's own bookkeeping aside: PATH and MANPATH, and nothing else.
lmod_own='^(LOADEDMODULES|_LMFILES_|_ModuleTable[0-9A-Za-z_]*_|__LMOD_REF_COUNT_[A-Z]+|LMOD_[A-Z_]+)='
changed=$({ diff before.env loaded.env || true; } | grep '^[<>]' | cut -c3- | grep -Ev "$lmod_own" |
  cut -d= -f1 | sort -u | tr '\n' ' ')
[[ $changed == "MANPATH PATH " ]] || fail "module load pbench changed '$changed', not just MANPATH and PATH"
grep -q "^PATH=$tree/bin:" loaded.env || fail "PATH does not start with $tree/bin: $(grep ^PATH= loaded.env)"
grep -q "^MANPATH=$tree/share/man" loaded.env || fail "MANPATH does not start with $tree/share/man"
grep "^PATH=" before.env | diff - <(grep "^PATH=" unloaded.env) > /dev/null ||
  fail "module unload pbench did not restore PATH"
echo "lmod module: ok ($(cat version.txt))"
