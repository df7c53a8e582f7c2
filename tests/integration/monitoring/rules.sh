#!/usr/bin/env bash
# The alerting rules shipped in share/pbench/prometheus/ as Prometheus tests rules: promtool
# check rules, and promtool test rules on their unit tests (pbench.rules.test.yml: each family
# fires past its band, stays quiet within it and when a night is missing; a stale export and a
# result that is not valid fire). Then the tests are shown to fail on rules that are wrong: each
# band widened until the regression is inside it, the weak links counted from two, the stale
# age doubled.
set -euo pipefail
SHARE=$(cd "$(dirname "$0")/../../../share/pbench/prometheus" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-rules.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
promtool check rules "$SHARE/pbench.rules.yml" || fail "promtool refused pbench.rules.yml"
(cd "$SHARE" && promtool test rules pbench.rules.test.yml) || fail "the rules' unit tests failed"
cp "$SHARE/pbench.rules.test.yml" "$work/"
# mutate NAME SED: the unit tests must fail on pbench.rules.yml changed by the sed script.
mutate() {
  sed "$2" "$SHARE/pbench.rules.yml" > "$work/pbench.rules.yml"
  cmp -s "$SHARE/pbench.rules.yml" "$work/pbench.rules.yml" && fail "$1: the sed changed nothing"
  if (cd "$work" && promtool test rules pbench.rules.test.yml > mutant.out 2>&1); then
    fail "the unit tests pass rules with $1"
  fi
}
for figure in b_eff b_eff_io; do
  mutate "$figure's band at 50%" "/figure=\"$figure\"}$/{n;s/< 0.9 \*/< 0.5 */}"
done
for figure in logp_EEL bcast_ol; do
  mutate "$figure's band at 200%" "/figure=\"$figure\"}$/{n;s/> 1.2 \*/> 3 */}"
done
mutate "1/G's band at 50%" 's|< 0.9 / quantile|< 0.5 / quantile|'
mutate "a band of 1% (the quiet cases fire)" 's/< 0.9 \*/< 0.99 */'
mutate "weak links counted from two" 's/pbench_links_weak_links > 0/pbench_links_weak_links > 1/'
mutate "a stale age of 100 hours" 's/> 50 \* 3600/> 100 * 3600/'
mutate "a stale age of 30 hours" 's/> 50 \* 3600/> 30 * 3600/'
mutate "no alert on a result that is not valid" 's/pbench_headline_valid == 0/pbench_headline_valid == 2/'
echo "rules: ok"
