#!/usr/bin/env bash
# The synchronized-clock method end to end on a real run (3 ranks, MPI_Bcast, tiny settings):
# the result names the method and how it was chosen, has every rank's arrival per size, the
# cross-checked tasks (the latest and one random task, its seed echoed), every rank's clock
# (offset, drift, predicted and measured error) and the classic methods' samples; --method auto
# on 3 ranks is OL_i. A clock bound no model can meet (1 ns) makes the result not valid with
# the named reason, and a result without it does not give that reason. No figure is compared
# with a band here (the delay-band tests are sync_truth and sync_clocks).
source "$(dirname "$0")/common.sh"

small=(--sizes 8,256 --repetitions 5 --max-measurements 2 --clock-fit-seconds 0.02)
run_worker 3 sync.json --method sync "${small[@]}" --check-tasks 1 --clock-error-bound-us 100000
run_worker 3 tight.json --method sync "${small[@]}" --clock-error-bound-us 0.001
run_worker 3 auto.json "${small[@]}" --classic-sample 2

"$PY" - <<'PY' || { for f in *.json.log; do echo "== $f"; cat "$f"; done; fail "see above"; }
import json
def load(name):
    return json.load(open(name))
def table(doc, name):
    t = doc["measurements"][name]
    cols = [c["name"] for c in t["columns"]]
    return [dict(zip(cols, r)) for r in t["rows"]]

doc = load("sync.json")
assert table(doc, "method") == [{"method": "sync", "origin": "--method sync"}], table(doc, "method")
p = doc["parameters"]
for name, unit in [("method", ""), ("check_tasks", "count"), ("agreement_band", ""),
                   ("classic_sample", "count"), ("clock_error_bound_us", "us"),
                   ("clock_fit_seconds", "s"), ("max_missed_share", "")]:
    assert name in p and p[name]["unit"] == unit and "source" in p[name], (name, p.get(name))
assert "check_task" in doc["seeds"], doc["seeds"]
sync = table(doc, "sync")
assert [r["size"] for r in sync] == [8, 256], sync
for r in sync:
    assert r["window"] > 0 and r["windows"] == 10 and r["learnings"] >= 1, r
arrival = table(doc, "sync_arrival")
assert sorted((r["size"], r["rank"]) for r in arrival) == [(s, j) for s in (8, 256) for j in range(3)]
check = table(doc, "sync_check")
for size in (8, 256):
    rows = [r for r in check if r["size"] == size]
    # k = 1 latest task plus one random task of the rest: both tasks of 3 ranks.
    assert sorted(r["task"] for r in rows) == [1, 2] and sum(r["random"] for r in rows) == 1, rows
    latest = max((r for r in arrival if r["size"] == size and r["rank"] != 0),
                 key=lambda r: r["arrival"])
    assert [r for r in rows if not r["random"]][0]["task"] == latest["rank"], (rows, latest)
    ol = {m["name"]: m["value"] for m in doc["summary"] if m["labels"].get("size") == size}
    assert ol["ol"] == latest["arrival"] and ol["ol_task"] == latest["rank"], (ol, latest)
clock = table(doc, "clock")
assert [r["rank"] for r in clock] == [0, 1, 2], clock
assert clock[0]["offset"] == 0 and clock[0]["measured_error"] == 0, clock[0]
assert all(r["measured_error"] >= 0 and r["predicted_error"] >= 0 for r in clock[1:]), clock
sample = {r["method"]: r for r in table(doc, "classic_sample")}
assert sample["rounds_latency"]["list"] == "0,1,2" and sample["ack_latency"]["list"] == "1,2", sample
assert not any("exceeds its bound" in r for r in doc["validity"]["reasons"]), doc["validity"]

tight = load("tight.json")
assert not tight["validity"]["valid"], tight["validity"]
assert any("the clock model's measured error" in r and "exceeds its bound 0.001 us" in r
           for r in tight["validity"]["reasons"]), tight["validity"]["reasons"]

auto = load("auto.json")
assert table(auto, "method") == [{"method": "oli", "origin": "--method auto: 3 processes < 16"}]
assert "sync" not in auto["measurements"] and "clock" not in auto["measurements"]
sample = {r["method"]: r for r in table(auto, "classic_sample")}
assert sample["rounds_latency"]["list"] == "0,1" and sample["ack_latency"]["ranks"] == 2, sample
print("ok")
PY
echo "bcast sync method: ok"
