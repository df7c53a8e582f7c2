#!/usr/bin/env bash
# The man pages of the staged prefix (man_pages.py): a page per program and per command
# `pbench --help` lists, each with NAME, SYNOPSIS, EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES and
# SEE ALSO and rendered without a warning; every example's command and options known to the
# installed programs; pbench-site(5) listing exactly the keys orchestrator/site/SiteProfile.cpp
# reads; pbench-store(7) naming every table and view of the installed schema.
source "$(dirname "$0")/lib.sh"
source_dir=${PBENCH_SOURCE_DIR:?PBENCH_SOURCE_DIR must name the source tree}
command -v man > /dev/null || fail "no man (Debian package man-db)"
prefix=$stage/prefix
python3 "$here/man_pages.py" "$prefix/share/man" "$prefix/bin" "$prefix/share/pbench/schema" \
  "$source_dir/orchestrator/site/SiteProfile.cpp" || fail "the man pages (above)"
echo "man pages: ok"
