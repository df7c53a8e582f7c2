# Shared by the deadline tests: the workers, the validator, a scratch directory and a check of a
# partial result (issue 14, item 2).
SCRATCH_NAME=pbench-deadline
source "$(dirname "${BASH_SOURCE[0]}")/../lib/workers.sh"

# check_partial FILE WHERE: FILE is a valid document of a partial result: not valid, the first
# reason the deadline's (naming the deadline and WHERE it stopped, a regular expression), the
# marker validity.partial with that reason and the deadline, and a run that ended after it
# started. How close to the deadline a result lands is a matter of the machine's speed:
# bench/deadline_bound.sh measures it; no test asserts it.
check_partial() {
  "$VALIDATE" --semantics "$1" > /dev/null ||
    fail "$1 does not validate: $("$VALIDATE" --semantics "$1")"
  "$PY" - "$1" "$2" <<'PY'
import json, re, sys, datetime
doc, where = json.load(open(sys.argv[1])), sys.argv[2]
v = doc["validity"]
assert v["valid"] is False, v
p = v.get("partial")
assert p, "no partial marker: %s" % v
assert p["reason"] in v["reasons"], v
assert p["reason"].startswith("partial: stopped before the deadline " + p["deadline"]), p
assert re.search(", at " + where, p["reason"]), (where, p["reason"])
def t(s):
    return datetime.datetime.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")
assert t(doc["started_at"]) <= t(doc["ended_at"]), (doc["started_at"], doc["ended_at"])
PY
}
