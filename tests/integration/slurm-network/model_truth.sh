#!/usr/bin/env bash
# The LogGP model against a known truth (issue 40, item 4): both links of node1 and node2 shaped
# to RATE (tc tbf), so that the rate, not loopback TCP, sets G. One sweep of logp, comm, bcast
# (the worker's binomial tree) and links on 2x1 through the lab's Slurm, one of MPI_Bcast, then
# `pbench query model` (JSON):
# - logp's 1/G at queue depth 8 (the flood that keeps the link busy), as the store holds it,
#   lies within 5% of RATE x 1448/1514 (the TCP payload share of tbf's wire bytes, common.sh);
#   at depth 1, the depth every prediction here reads, it is printed (on 2 loaded cores 0.77-1.00
#   of the rate in five runs: one message outstanding waits for each);
# - the model's arithmetic: each prediction recomputed here from the stored EEL, g and G;
# - at the sizes where the rate sets the time (about 1 MiB and more: 40 ms and more on the
#   link, against tbf's 2 ms bucket), comm's ping-pong bandwidth, the broadcast's OL and each
#   link's bandwidth agree with their predictions within the band (reading `agrees`).
# Then the contended case: comm alone on 2x2 (ranks 0, 1 on node1, 2, 3 on node2), predicted
# from the first sweep's logp. b_eff's worst cycle 0-3-1-2 sends every message across the one
# shaped link, 4 per direction where the model's process sends 2: it is named `contention`,
# below 0.8 of the model, and below the rings in rank order (2 per direction; 4 ranks on the
# 2 cores slow those too, 0.46-1.15 of the model in five runs, so they are printed, not
# checked). The small sizes (EEL: loopback TCP on 2 loaded cores, no known truth without netem)
# are printed, not checked. Prints every figure and the load average before and after. At load
# 6-10 on the 2 cores one run in five put the worker's OL at 1.33 of the model (its own
# back-to-back broadcasts as slow): a loaded machine can fail this test (bench/README).
source "$(dirname "$0")/common.sh"
RATE=200mbit
RATE_BITS=200e6
trap 'shape "$LAB_RATE" || true; rm -rf "$work"' EXIT
shape "$RATE"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# logp: floods up to 2 MiB (each at most 8 MiB, 0.35 s at the rate), depth 1 only; comm:
# L_max = 2 MiB (256 MiB / 128), positions 1, 13 (1 B, 4 KiB), 20 (960 KiB) and 21 (2 MiB),
# the nonblocking method (both neighbours at once, as the model's rings); the broadcast at 8 B,
# 1 MiB and 2 MiB; links: 2 messages of 1 MiB at once.
COMM=(--set comm.memory_per_proc=256MiB --set comm.repetitions=1 --set comm.methods=nonblocking
      --set comm.target_window=0.002,0.005 --set comm.start_looplength=1)
"$PBENCH" run truth --scheduler slurm --workers logp,comm,bcast,links --partitions 2x1 \
  --queue-depths 1,8 --time-limit 10 --max-parallel 1 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=2097152 \
  --set logp.flood_messages=16 --set logp.flood_bytes=8388608 --set logp.repetitions=1 \
  "${COMM[@]}" --set comm.sizes=1,13,20,21 --set comm.random_patterns=1 \
  --set bcast.sizes=8,1048576,2097152 --set bcast.impl=binomial --set bcast.repetitions=10 \
  --set bcast.max_measurements=3 \
  --set links.latency_roundtrips=50 --set links.message_size=1MiB --set links.messages=2 \
  --set links.repetitions=2 > truth.out 2>&1 || fail "pbench run truth: $(tail -30 truth.out)"
# Two random rings: of 4 processes on 2 nodes a third of the orders cross the link with every
# message, and the worst cycle always does.
# Three repetitions: the model names contention only where the repetitions' spread lies below
# the band, at both neighbouring sizes (docs/model.md, "The readings").
"$PBENCH" run contended --scheduler slurm --workers comm --partitions 2x2 --time-limit 10 \
  "${COMM[@]/comm.repetitions=1/comm.repetitions=3}" --set comm.sizes=20,21 \
  --set comm.random_patterns=2 \
  > contended.out 2>&1 || fail "pbench run contended: $(tail -30 contended.out)"
# MPI_Bcast beside the worker's own binomial tree (one message on 2 processes either way).
"$PBENCH" run bcastmpi --scheduler slurm --workers bcast --partitions 2x1 --time-limit 10 \
  --set bcast.sizes=1048576,2097152 --set bcast.impl=mpi --set bcast.repetitions=10 \
  --set bcast.max_measurements=3 > bcastmpi.out 2>&1 || fail "pbench run bcastmpi"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
"$PBENCH" query model truth --format json > truth.json || fail "query model truth"
"$PBENCH" query model contended --format json > contended.json || fail "query model contended"
"$PBENCH" query model truth > truth.txt
"$PBENCH" query model contended > contended.txt
"$PBENCH" query model bcastmpi --format json > bcastmpi.json || fail "query model bcastmpi"
echo "load average before: $load_before; after: $load_after"

"$PY" - "$PBENCH_DB" "$RATE" "$RATE_BITS" "$PAYLOAD_SHARE" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
rate, bits, share = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
expected = bits / 8 * share  # the payload rate [B/s]
failures = []
def check(ok, what):
    if not ok:
        failures.append(what)

# The model's inputs, as query model reads them: EEL the smallest, g and G of the row with the
# smallest g per depth. Every prediction here reads depth 1 (one message, and 2 at once: the
# largest depth not above 2).
rows = db.execute("select v.queue_depth, v.eel, v.g, v.big_g, json_extract(document(r.packed), "
                  "'$.measurements.pairs') from logp_table v join results r on "
                  "r.id = v.result_id where v.sweep = 'truth' and v.latest and "
                  "v.eel is not null and v.g is not null and v.big_g is not null").fetchall()
assert sorted({r[0] for r in rows}) == [1, 8], rows
eel = min(r[1] for r in rows)
depth = {q: min((r[2], r[3]) for r in rows if r[0] == q) for q in (1, 8)}
g, G = depth[1]
for r in rows:  # logp's pair crosses the link
    assert [p[-1] for p in json.loads(r[4])["rows"]] == ["internode"], r[4]
print(f"{rate}: payload rate {expected / 1e6:.2f} MB/s; logp EEL {eel * 1e6:.1f} us")
for q, (gq, Gq) in depth.items():
    print(f"  q = {q}: g {gq * 1e6:.1f} us, 1/G {1 / Gq / 1e6:.2f} MB/s = "
          f"{1 / Gq / expected:.3f} of the payload rate")
# The flood that keeps the link busy (8 outstanding) measures the rate within 5%. One
# outstanding waits for each message: on 2 loaded cores it gave 0.77-1.00 of the rate in five
# runs, and what it costs the model is what the predictions below show (they read it).
check(0.95 <= 1 / depth[8][1] / expected <= 1.05,
      f"1/G at q = 8 is {1 / depth[8][1] / expected:.3f} of the payload rate")

def one_way(m):
    return eel + max(0, m - 8) * G
def gap(m):
    return g + max(0, m - 8) * G
def close(a, b):
    return abs(a - b) <= 1e-9 * abs(b)

def show(r):
    ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}"
    print(f"  {r['figure']} of {r['subject']} at {r['size']} B: predicted {r['predicted']:.4g}"
          f" {r['unit']}, measured {r['measured']:.4g} {r['unit']}, ratio {ratio}, "
          f"{r['reading']} ({r['samples']} samples, valid {r['valid']})")

model = json.load(open("truth.json"))
LARGE = 900000  # about 1 MiB and more: the rate sets the time, EEL and tbf's bucket do not
seen = set()
for r in model["rows"]:
    show(r)
    m, fig = r["size"], r["figure"]
    # The arithmetic, from the stored parameters (2 processes: every tree is one message).
    predicted = {"pingpong_time": one_way(m), "pingpong_bandwidth": m / one_way(m),
                 "ring_bandwidth_per_process": m / one_way(m), "bcast_ol": one_way(m),
                 "link_bandwidth": 2 * m / (one_way(m) + gap(m)), "link_latency": eel}[fig]
    check(close(r["predicted"], predicted), f"{fig} at {m}: predicted {r['predicted']}, "
          f"the formula {predicted}")
    check(r["logp"] == "#1" and r["queue_depth"] == 1, f"{fig} at {m}: logp {r['logp']}")
    if fig in ("pingpong_bandwidth", "bcast_ol", "link_bandwidth") and m >= LARGE:
        seen.add(fig)
        # A result its method marks not valid (short settings) reads "not comparable" (issue 52);
        # the shaped link's rate is still the known truth its ratio is held to.
        check((r["reading"] == "agrees" or r["reading"].startswith("not comparable"))
              and 0.8 <= r["ratio"] <= 1.25,
              f"{fig} of {r['subject']} at {m}: {r['reading']} (ratio {r['ratio']})")
assert seen == {"pingpong_bandwidth", "bcast_ol", "link_bandwidth"}, seen
check(sum(1 for r in model["rows"] if r["figure"] == "link_bandwidth") == 2, "two links")

contended = json.load(open("contended.json"))
(doc,) = db.execute("select document(r.packed) from run_results v join results r on r.id = v.result_id "
                    "where v.sweep = 'contended' and v.latest and v.worker = 'comm'").fetchone()
doc = json.loads(doc)
assert doc["rank_hosts"] == ["node1", "node1", "node2", "node2"], doc["rank_hosts"]
def table(name):
    t = doc["measurements"][name]
    return [dict(zip([c["name"] for c in t["columns"]], row)) for row in t["rows"]]
crossing = {p["pattern"]: (p["crossing_messages"], p["messages"]) for p in table("pattern_nodes")}
kinds = {p["pattern"]: p["kind"] for p in table("patterns")}
# Ring sizes: b_eff's rings by their sizes, a random ring and the worst cycle one ring of all.
rings = {p["pattern"]: [int(s) for s in p["ring_sizes"].split(",")] if p["kind"] == "ring"
         else [len(p["order"].split(","))] for p in table("patterns")
         if p["kind"] == "ring" or p["order"]}
print("contended (2x2):")
named, ratio = set(), {}
for r in contended["rows"]:
    show(r)
    if r["figure"] != "ring_bandwidth_per_process" or r["size"] < LARGE:
        continue
    ratio[(r["subject"], r["size"])] = r["ratio"]
    check(r["logp"] == "#1 (another shape)", f"{r['subject']}: logp {r['logp']}")
    m, sizes = r["size"], rings[r["subject"]]
    train = max(one_way(m) + (1 if s > 2 else 0) * gap(m) for s in sizes)
    per_process = sum((2 if s > 2 else 1) * s * m for s in sizes) / train / sum(sizes)
    check(close(r["predicted"], per_process), f"{r['subject']} at {m}: predicted "
          f"{r['predicted']}, the formula {per_process}")
    across, messages = crossing[r["subject"]]
    if across == messages:  # every message crosses: 4 per direction on the one link
        named.add(r["subject"])
        check((r["reading"] == "contention" or r["reading"].startswith("not comparable"))
              and r["ratio"] < 0.8,
              f"{r['subject']} at {r['size']} (all {messages} messages cross): {r['reading']} "
              f"(ratio {r['ratio']})")
assert "worst_cycle" in named, named
# Twice the messages on the link: below the rings in rank order (2 per direction) at each size.
for size in sorted({s for (_, s) in ratio if s >= LARGE}):
    ordered = sorted(v for (p, s), v in ratio.items() if s == size and kinds.get(p) == "ring"
                     and crossing[p][0] * 2 == crossing[p][1] and v is not None)
    middle = ordered[len(ordered) // 2]
    print(f"at {size} B: the worst cycle {ratio[('worst_cycle', size)]:.3f} of the model, the "
          f"rings in rank order {', '.join(f'{v:.3f}' for v in ordered)}")
    check(ratio[("worst_cycle", size)] < middle,
          f"at {size}: the worst cycle ({ratio[('worst_cycle', size)]:.3f}) is not below the "
          f"rings in rank order (median {middle:.3f})")
notes = " ".join(contended["notes"])
if any(r["reading"] == "contention" for r in contended["rows"]):
    check("ring_bandwidth_per_process of worst_cycle at " in notes and ": contention: " in notes,
          f"the contention note: {notes}")
check("the store's latest logp: sweep contended has none" in notes, notes)
print("MPI_Bcast (2x1):")
for r in json.load(open("bcastmpi.json"))["rows"]:
    show(r)
    check(close(r["predicted"], one_way(r["size"])), f"MPI_Bcast at {r['size']}: predicted")
    check((r["reading"] == "agrees" or r["reading"].startswith("not comparable"))
          and 0.8 <= r["ratio"] <= 1.25,
          f"MPI_Bcast at {r['size']}: {r['reading']} ({r['ratio']})")
assert not failures, "\n".join(failures)
PY
echo "the model against the shaped links: ok"
