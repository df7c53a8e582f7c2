#!/usr/bin/env bash
# The Debian package made by `cpack -G DEB`: named pbench_VERSION-1_ARCH.deb, its Depends from
# dpkg-shlibdeps and naming the MPI packages of each worker set it carries (MPICH, Open MPI in
# /usr/libexec/pbench/), lintian's findings only those the operator's guide lists
# (docs/operator-guide.md, "lintian findings"), `apt install ./pbench_*.deb` gives the demo to an
# unprivileged user in a directory of its own and its man pages to `man` and `man -k pbench`
# (man-db's trigger updates the database), its sample site profile copied to
# /etc/pbench/site.toml plans a sweep with each set, and `apt remove` leaves none of its files.
# Exit 77 (skipped) where apt cannot be used: not root, or no apt-get.
source "$(dirname "$0")/lib.sh"
guide=${PBENCH_OPERATOR_GUIDE:?PBENCH_OPERATOR_GUIDE must name docs/operator-guide.md}
if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: installing a package with apt needs root (run the test as root, as CI does)"
  exit 77
fi
if ! command -v apt-get > /dev/null; then
  echo "SKIP: no apt-get on this machine: the Debian package cannot be installed here"
  exit 77
fi
command -v lintian > /dev/null || fail "no lintian (scripts/install-deps installs it)"
shopt -s nullglob
debs=("$stage"/deb/pbench_*.deb)
((${#debs[@]} == 1)) || fail "not one package in $stage/deb: ${debs[*]:-none} (see $stage/cpack.log)"
deb=${debs[0]}
arch=$(dpkg --print-architecture)
[[ $(basename "$deb") == "pbench_${version}-1_${arch}.deb" ]] || fail "package named $(basename "$deb")"
# One such test at a time on this machine (other checkouts' test runs included): the package is
# installed system-wide.
exec 9> /run/lock/pbench-debian-package-test.lock
flock -w 900 9 || fail "another run of this test held /run/lock/pbench-debian-package-test.lock for 15 min"
if dpkg-query -W -f='${Status}' pbench 2> /dev/null | grep -q 'installed'; then
  fail "a pbench package is installed on this machine already: the test would replace and remove it (apt remove pbench first)"
fi
[[ ! -e /etc/pbench ]] ||
  fail "/etc/pbench exists on this machine: the test writes its site.toml there and removes it"
place=$(mktemp -d "$stage/deb-test.XXXXXX")
chmod 755 "$place"
apt_get() {
  DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300 "$@"
}
made_etc=0
cleanup() {
  if ((made_etc)); then rm -rf /etc/pbench; fi
  if dpkg-query -W -f='${Status}' pbench 2> /dev/null | grep -q 'installed'; then
    apt_get remove pbench > /dev/null || true
  fi
  rm -rf "$place"
}
trap cleanup EXIT
cd "$place"

# Depends: the shared libraries' packages (shlibdeps) and the launcher's package.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Every worker set it carries brings its MPI: MPICH's and Open MPI's libraries and launchers.
for needed in libc6 'libstdc\+\+6' libsqlite3-0 'libmpich[0-9]+' mpich 'libopenmpi[0-9]+' \
  openmpi-bin 'libtomlplusplus[0-9]+' 'libzstd[0-9]+'; do
  grep -Eq "(^|, )$needed( |,|$)" <<< "$depends" || fail "Depends names no $needed: $depends"
done

# lintian: every tag it reports (errors, warnings, info) is one the operator's guide lists with why.
lintian --info --display-level '>=info' "$deb" > lintian.txt 2>&1 || true
# A tag has capitals too (FSSTND-dir-in-manual-page); a line without one is a failure too.
sed -n 's/^[EWI]: pbench[^:]*: \([A-Za-z0-9-]*\).*/\1/p' lintian.txt | sort -u > tags.txt
! grep -qx '' tags.txt || fail "lintian reports a finding without a tag: $(cat lintian.txt)"
sed -n '/^### lintian/,/^## /p' "$guide" | grep '^| `' | cut -d'|' -f2 | grep -o '`[A-Za-z0-9-]*`' |
  tr -d '`' | sort -u > listed.txt
unlisted=$(comm -23 tags.txt listed.txt)
[[ -z $unlisted ]] || fail "lintian reports tags docs/operator-guide.md does not list: $unlisted ($(cat lintian.txt))"
echo "lintian: $(wc -l < tags.txt) tags, each listed in docs/operator-guide.md"

# man-db's trigger adds pages without purging the entries of removed ones (mandb --no-purge; its
# daily job purges): purge as that job does, so that `man -k pbench` knows no page of an earlier
# install and what it lists below is the trigger's doing.
purge_man_index() {
  setpriv --reuid man --regid man --init-groups -- mandb -q || fail "mandb (as man) failed"
}
purge_man_index
if man -k pbench > apropos-before.txt 2>&1; then
  fail "man -k pbench lists pages before the package is installed: $(cat apropos-before.txt)"
fi
apt_get install "$deb" > apt-install.log 2>&1 || fail "apt install $deb failed: $(tail apt-install.log)"
dpkg-query -L pbench | sort > package-files.txt
for program in pbench pbench-logp pbench-comm pbench-io pbench-bcast pbench-links; do
  [[ -x /usr/bin/$program ]] || fail "no /usr/bin/$program after apt install"
done
for mpi in mpich openmpi; do
  [[ -x /usr/libexec/pbench/$mpi/pbench-logp ]] || fail "no worker set /usr/libexec/pbench/$mpi"
done
example=/usr/share/doc/pbench/examples/site.toml.example
grep -q '^worker_dir = "/usr/libexec/pbench/openmpi"$' "$example" ||
  fail "the sample site profile does not name /usr/libexec/pbench/openmpi: $(cat "$example")"
! grep -q '^/usr/etc' package-files.txt || fail "the package installs into /usr/etc"
# The monitoring files (docs/operator-guide.md, "Monitoring"), the rules passing their own
# promtool tests where the package put them, the nightly job executable.
for file in pbench.rules.yml pbench.rules.test.yml pbench-dashboard.json pbench-nightly.sh; do
  grep -qxF "/usr/share/pbench/prometheus/$file" package-files.txt ||
    fail "the package has no /usr/share/pbench/prometheus/$file"
done
[[ -x /usr/share/pbench/prometheus/pbench-nightly.sh ]] || fail "pbench-nightly.sh is not executable"
(cd /usr/share/pbench/prometheus && promtool test rules pbench.rules.test.yml) > rules.log 2>&1 ||
  fail "the installed rules fail their tests: $(cat rules.log)"
[[ $(man -w pbench) == /usr/share/man/man1/pbench.1.gz ]] || fail "man -w pbench: $(man -w pbench)"
[[ $(man -w 5 pbench-site) == /usr/share/man/man5/pbench-site.5.gz ]] ||
  fail "man -w 5 pbench-site: $(man -w 5 pbench-site 2>&1)"
[[ $(man -w 7 pbench-store) == /usr/share/man/man7/pbench-store.7.gz ]] ||
  fail "man -w 7 pbench-store: $(man -w 7 pbench-store 2>&1)"
# man -k, as the unprivileged user: every page of the package, from the database man-db's
# trigger updated when the package was installed.
grep -E '^/usr/share/man/man[0-9]/pbench.*\.gz$' package-files.txt |
  sed -E 's|^.*/(.*)\.([0-9])\.gz$|\1 (\2)|' | sort > pages.txt
user_dir "$place/man"
as_user "$place/man" man -k pbench > apropos.txt || fail "man -k pbench found nothing after apt install"
sed -E 's/^([^ ]+ \([0-9]\)).*/\1/' apropos.txt | sort -u > apropos-pages.txt
diff -u pages.txt apropos-pages.txt >&2 ||
  fail "man -k pbench lists other pages than the package's (- the package's, + listed)"
echo "man -k pbench: the package's $(wc -l < pages.txt) pages"
user_dir "$place/work"
check_demo "$place/work" /usr/bin/pbench
# The sample profile as the operator installs it (/etc/pbench/site.toml, where pbench in
# /usr/bin looks): a sweep over both environments plans each point with its own set.
mkdir -p /etc/pbench
made_etc=1
cp "$example" /etc/pbench/site.toml
user_dir "$place/envs"
as_user "$place/envs" /usr/bin/pbench sweep envs --envs mpich,openmpi --workers logp \
  --partitions 2 --queue-depths 1 > "$place/envs/sweep.out" 2>&1 ||
  fail "a sweep over /etc/pbench/site.toml's environments: $(cat "$place/envs/sweep.out")"
for mpi in mpich openmpi; do
  grep -rqF "/usr/libexec/pbench/$mpi/pbench-logp" "$place/envs/pbench-runs/envs" ||
    fail "no job script runs /usr/libexec/pbench/$mpi/pbench-logp"
done
rm -rf /etc/pbench
made_etc=0

apt_get remove pbench > apt-remove.log 2>&1 || fail "apt remove pbench failed: $(tail apt-remove.log)"
status=$(dpkg-query -W -f='${Status}' pbench 2> /dev/null || true)
[[ -z $status || $status == "unknown ok not-installed" ]] ||
  fail "after apt remove dpkg still knows pbench: '$status' (left configuration files?)"
left=()
while read -r path; do
  # Directories other packages share (/usr, /usr/share/man/man1, ...) stay; ours must go.
  if [[ -e $path && (! -d $path || $path == */pbench || $path == */pbench/*) ]]; then
    left+=("$path")
  fi
done < package-files.txt
((${#left[@]} == 0)) || fail "apt remove left: ${left[*]}"
purge_man_index  # the removed pages out of the index, as the machine was
echo "debian package: ok ($(basename "$deb"), $(stat -c %s "$deb") bytes, $(wc -l < package-files.txt) paths)"
