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
