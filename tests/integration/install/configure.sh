#!/usr/bin/env bash
# Configures the sources in scratch directories as other build systems would: without the tests
# (BUILD_TESTING=OFF) with doctest hidden, which must succeed, and with the tests, which must then
# fail naming doctest; toml++ through its CMake package config, and through pkg-config when the
# config is hidden. The Release configuration compiles nothing with debug information (-g).
# Usage: configure.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-configure.XXXXXX")
trap 'rm -rf "$work"' EXIT
generator=()
if command -v ninja > /dev/null; then generator=(-G Ninja); fi
configure() {
  local name=$1
  shift
  cmake -S "$source_dir" -B "$work/$name" "${generator[@]}" "$@" > "$work/$name.log" 2>&1
}

configure no-tests -DBUILD_TESTING=OFF -DCMAKE_DISABLE_FIND_PACKAGE_doctest=ON \
  -DCMAKE_BUILD_TYPE=Release ||
  fail "BUILD_TESTING=OFF without doctest does not configure: $(tail -20 "$work/no-tests.log")"
grep -q "toml++: CMake package config" "$work/no-tests.log" ||
  fail "toml++ not found through its CMake package config: $(grep -i toml "$work/no-tests.log")"
echo "BUILD_TESTING=OFF, doctest hidden: configured; toml++ by its CMake package config"
commands=$work/no-tests/compile_commands.json
grep -q '"command": .* -O3 .*-o orchestrator/CMakeFiles/pbench.dir' "$commands" ||
  fail "the Release configuration does not compile pbench with -O3: $(grep -m1 pbench.dir "$commands")"
if grep -q '"command": .* -g ' "$commands"; then
  fail "the Release configuration compiles with debug information: $(grep -m1 ' -g ' "$commands")"
fi
echo "Release: every compile without -g"

if configure tests -DBUILD_TESTING=ON -DCMAKE_DISABLE_FIND_PACKAGE_doctest=ON; then
  fail "BUILD_TESTING=ON configured with doctest hidden: the check above proves nothing"
fi
grep -q "doctest" "$work/tests.log" || fail "the failed configure does not name doctest: $(tail "$work/tests.log")"
echo "BUILD_TESTING=ON, doctest hidden: refused, naming doctest"

configure pkg-config -DBUILD_TESTING=OFF -DCMAKE_DISABLE_FIND_PACKAGE_tomlplusplus=ON ||
  fail "toml++ through pkg-config does not configure: $(tail -20 "$work/pkg-config.log")"
grep -q "toml++: pkg-config" "$work/pkg-config.log" ||
  fail "toml++ not found through pkg-config: $(grep -i toml "$work/pkg-config.log")"
echo "toml++ CMake package config hidden: found through pkg-config"

# The demo's tree (scripts/build --demo, what scripts/demo builds on a fresh machine): configured
# without the tests and the Open MPI worker set, whose packages the demo does not install, as a
# unity build without debug information; its six programs are targets.
PBENCH_BUILD_DIR="$work/demo" PBENCH_CONFIGURE_ONLY=1 "$source_dir/scripts/build" --demo \
  > "$work/demo.log" 2>&1 || fail "scripts/build --demo does not configure: $(tail -20 "$work/demo.log")"
cache=$work/demo/CMakeCache.txt
for entry in BUILD_TESTING:BOOL=OFF PBENCH_EXTRA_MPIS:STRING= CMAKE_UNITY_BUILD:UNINITIALIZED=ON; do
  grep -qx "$entry" "$cache" || fail "the demo's tree lacks $entry: $(grep "^${entry%%:*}:" "$cache")"
done
commands=$work/demo/compile_commands.json
if grep -q '"command": .* -g ' "$commands"; then
  fail "the demo's tree compiles with debug information: $(grep -m1 ' -g ' "$commands")"
fi
if grep -q 'tests/unit\|openmpi' "$commands"; then
  fail "the demo's tree compiles the tests or the Open MPI set: $(grep -m1 'tests/unit\|openmpi' "$commands")"
fi
targets=$(cmake --build "$work/demo" --target help)
for program in pbench pbench-logp pbench-comm pbench-io pbench-bcast pbench-links; do
  grep -q "^$program: " <<<"$targets" ||
    fail "the demo's tree has no target $program"
done
echo "scripts/build --demo: no tests, no Open MPI set, unity, no -g; the six programs are targets"
