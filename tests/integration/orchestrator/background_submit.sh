#!/usr/bin/env bash
# submit in the background, status, wait, collect; a failing point is recorded with its exit
# status and stderr tail; --retry-failed reruns only it, keeping the first attempt; cancel.
source "$(dirname "$0")/common.sh"

# A template that makes the partition-1 point fail while a flag file exists.
flag="$work/fail-flag"
touch "$flag"
cat > template.sh <<EOT
#!/usr/bin/env bash
# test template: sweep {{sweep}}, point {{point_key}}, {{worker}}
set -u
trap 'printf "{\"status\": %d, \"signal\": \"\", \"started_at\": \"\", \"ended_at\": \"\"}\n" \$? > exit.json' EXIT
echo \$\$ > job.pid
if [ {{partition}} = 1 ] && [ -e '$flag' ]; then echo "injected failure for the test" >&2; exit 3; fi
{{command}}
EOT
"$PBENCH" sweep bg --partitions 1,2 --queue-depths 4 --template template.sh "${SMALL[@]}"
"$PBENCH" submit bg
"$PBENCH" wait bg --timeout 120 && fail "wait should report the failed point" || true
# When wait says every point has settled, the background driver is gone (issue 51: a leftover
# `pbench _drive` polled on after its test had removed the store): its lock is free at once,
# and its process ends (a bound on the process's exit, not a timing).
flock -n "$PBENCH_RUNS_DIR/bg/driver.lock" true ||
  fail "wait returned while the background driver still held its lock"
for _ in $(seq 100); do
  pgrep -f -- "_drive bg( |\$)" > /dev/null || break
  sleep 0.1
done
pgrep -af -- "_drive bg( |\$)" && fail "the background driver still runs after wait returned"
"$PBENCH" status bg --format json > status.json
"$PY" - status.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
states = {r["partition"]: (r["state"], r["exit_status"], r["attempts"]) for r in rows}
assert states == {1: ("failed", 3, 1), 2: ("done", 0, 1)}, states
PY
rc=0
out=$("$PBENCH" collect bg 2>&1) || rc=$?
echo "$out"
# A failed point: collect exits 1, as run does (issue 38: a second collect exits as the first).
[[ $rc -eq 1 ]] || fail "collect with a failed point exited $rc, expected 1"
[[ "$out" == *"logp p=1 q=4"*"failed, exit status 3: injected failure for the test"* ]] || fail "collect did not report the failure"
[[ "$out" == *"1 results stored"* ]] || fail "collect did not store the good result"

# Submitting again without --retry-failed does nothing; with it only the failed point reruns.
"$PBENCH" submit bg | grep >/dev/null "nothing to submit" || fail "submit was not idempotent"
rm "$flag"
"$PBENCH" submit bg --retry-failed --foreground
"$PBENCH" collect bg
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select p.partition, a.attempt_no, a.state, a.exit_status
                     from attempts a join points p on p.id = a.point_id
                     order by p.partition, a.attempt_no""").fetchall()
assert rows == [(1, 1, "failed", 3), (1, 2, "done", 0), (2, 1, "done", 0)], rows
assert db.execute("select count(*) from results").fetchone()[0] == 2
PY

# Cancel: a sweep whose job sleeps is cancelled and recorded so.
cat > slow.sh <<'EOT'
#!/usr/bin/env bash
# slow test template for {{sweep}} {{point_key}} {{worker}} {{partition}}
trap 'echo "{\"status\": 143, \"signal\": \"TERM\", \"started_at\": \"\", \"ended_at\": \"\"}" > exit.json; exit 143' TERM
echo $$ > job.pid
sleep 60 & wait
{{command}}
EOT
"$PBENCH" sweep slow --partitions 2 --queue-depths 1 --template slow.sh "${SMALL[@]}"
"$PBENCH" submit slow
for _ in $(seq 50); do
  "$PBENCH" status slow --format csv | grep >/dev/null ",queued,\|,running," && break
  sleep 0.1
done
# A wait whose --timeout passes while the point runs: exit 8 (not 1: nothing ended badly), the
# point left running, and said so.
rc=0
"$PBENCH" wait slow --timeout 1 > timed.out 2> /dev/null || rc=$?
[[ $rc -eq 8 ]] || fail "wait whose timeout passed exited $rc, expected 8: $(cat timed.out)"
grep -q "^sweep slow: 1 points: 1 running; the points left go on (--timeout 1s passed" timed.out ||
  fail "wait does not say its timeout passed: $(cat timed.out)"
"$PBENCH" wait slow --timeout 1 --format json > timed.json 2> /dev/null || true
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["rows"][0]["exit_status"] == 8 and d["rows"][0]["running"] == 1, d
assert any(n.startswith("timed out") for n in d["notes"]), d' timed.json ||
  fail "wait --format json does not say it timed out: $(cat timed.json)"
"$PBENCH" cancel slow
rc=0
"$PBENCH" wait slow --timeout 30 > /dev/null 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "wait on the cancelled sweep exited $rc, expected 1"
"$PBENCH" status slow --format csv | grep >/dev/null ",cancelled," || fail "the cancelled point is not cancelled"
echo "background submit: ok"
