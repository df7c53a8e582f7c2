#!/usr/bin/env bash
# Fixture of the install tests: installs the build tree (stripped) into STAGE/prefix and makes
# the Debian package into STAGE/deb, STAGE a new directory under /tmp of mode 755 (the
# unprivileged user the tests run the demo as cannot enter a private checkout or a mode-700
# mktemp directory), whose path goes into RECORD. Usage: stage.sh BUILD_DIR RECORD
set -euo pipefail
build=$1 record=$2
rm -f "$record"
stage=$(mktemp -d /tmp/pbench-install.XXXXXX)
chmod 755 "$stage"
cmake --install "$build" --prefix "$stage/prefix" --strip > "$stage/install.log"
echo "installed into $stage/prefix"
if command -v dpkg-shlibdeps > /dev/null; then
  (cd "$build" && cpack -G DEB -B "$stage/deb") > "$stage/cpack.log" ||
    { cat "$stage/cpack.log" >&2; echo "FAIL: cpack -G DEB" >&2; exit 1; }
  chmod -R a+rX "$stage/deb"
  ls "$stage"/deb/pbench_*.deb
else
  echo "no dpkg-shlibdeps (Debian package dpkg-dev): no .deb staged"
fi
echo "$stage" > "$record"
