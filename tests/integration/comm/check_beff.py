#!/usr/bin/env python3
"""Recomputes a pbench-comm result document's b_eff figures from its measurement rows alone
(METHODS.md section 1, written again here without the worker's code) and checks that they
equal the reported summary metrics and Table 1 row.

usage: check_beff.py RESULT.json [--expect-complete | --expect-partial]

--expect-complete: every planned measurement is there, no byte check failed, every figure is
                   a number. --expect-partial: the run was stopped by --max-time: some rows,
                   not valid for that reason, and the figures whose rows are missing are null.
Prints what it checked; exits 1 with the first mismatch.
"""
import json
import math
import sys

REL = 1e-9  # the document holds doubles; recomputation in Python differs only by rounding


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def table(doc, name):
    t = doc["measurements"][name]
    keys = [c["name"] for c in t["columns"]]
    return [dict(zip(keys, row)) for row in t["rows"]]


def logavg(values):
    if not values or any(v is None or v <= 0 for v in values):
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def same(what, got, want):
    if want is None or got is None:
        if want is not None or got is not None:
            fail(f"{what}: reported {got}, recomputed {want}")
        return
    if abs(got - want) > REL * max(abs(got), abs(want)):
        fail(f"{what}: reported {got!r}, recomputed {want!r}")


def main():
    path = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "--expect-complete"
    doc = json.load(open(path))
    if doc["worker"] != "comm":
        fail("not a comm result")
    n = doc["nprocs"]
    params = {k: v["value"] for k, v in doc["parameters"].items()}

    # The 21 message sizes: 1..4096 B, then 4096*a^k rounded, the last L_max = memory/128.
    sizes = table(doc, "message_sizes")
    lmax_row = table(doc, "l_max")[0]
    l_max = lmax_row["l_max"]
    if lmax_row["l_max_from_memory"] != lmax_row["memory_per_process"] // 128:
        fail("L_max from memory is not memory/128")
    if l_max != min(lmax_row["l_max_from_memory"], lmax_row["clamp_limit"]):
        fail("L_max is not the clamped memory/128")
    if lmax_row["clamped"] != (l_max < lmax_row["l_max_from_memory"]):
        fail("the clamp flag is wrong")
    want = [2**i for i in range(13)]
    a = (l_max / 4096) ** (1 / 8)
    want += [round(4096 * a**k) for k in range(1, 8)] + [l_max]
    if [s["l"] for s in sizes] != want or [s["position"] for s in sizes] != list(range(1, 22)):
        fail(f"message sizes {[s['l'] for s in sizes]} are not {want}")
    size_of = {s["position"]: s["l"] for s in sizes}
    measured = [s["position"] for s in sizes if s["measured"]]

    patterns = table(doc, "patterns")
    kind = {p["pattern"]: p["kind"] for p in patterns}
    messages = {p["pattern"]: p["messages"] for p in patterns}
    rings = [p["pattern"] for p in patterns if p["kind"] == "ring"]
    randoms = [p["pattern"] for p in patterns if p["kind"] == "random"]
    if len(rings) != 6:
        fail(f"{len(rings)} ring patterns, not 6")
    if len(randoms) != params["random_patterns"]:
        fail(f"{len(randoms)} random patterns, the parameter says {params['random_patterns']}")
    for p in patterns:
        if p["in_b_eff"] != (p["kind"] in ("ring", "random")):
            fail(f"pattern {p['pattern']}: in_b_eff does not follow its kind")
        if p["kind"] == "random":
            order = [int(x) for x in p["order"].split(",")]
            if sorted(order) != list(range(n)):
                fail(f"{p['pattern']}: order {order} is not a permutation of 0..{n - 1}")
            if p["messages"] != (2 * n if n > 2 else 2):
                fail(f"{p['pattern']}: {p['messages']} messages per iteration for one ring of {n}")
    pingpong = "pingpong"
    if kind.get(pingpong) != "extra":
        fail("no ping-pong pattern")

    # Every row: the bandwidth is L * messages * looplength / max time, the size is its position's.
    rows = table(doc, "measurements")
    if not rows and mode == "--expect-complete":
        fail("no measurement rows")
    methods = params["methods"] or ["sendrecv", "alltoallv", "nonblocking"]
    for r in rows:
        if r["l"] != size_of[r["position"]] or r["position"] not in measured:
            fail(f"row {r}: size and position disagree or the position is not measured")
        if r["looplength"] < 1 or not r["time_max"] > 0:
            fail(f"row {r}: loop length or time out of range")
        if not r["time_min"] <= r["time_mean"] <= r["time_max"]:
            fail(f"row {r}: min <= mean <= max does not hold")
        same(f"bandwidth of {r['pattern']} L={r['l']} {r['method']} rep {r['repetition']}",
             r["bandwidth"], r["l"] * messages[r["pattern"]] * r["looplength"] / r["time_max"])
        want_methods = ["sendrecv"] if r["pattern"] == pingpong else methods
        if r["method"] not in want_methods:
            fail(f"row {r}: method {r['method']} was not asked for")
        if r["check_errors"] != 0:
            fail(f"row {r}: {r['check_errors']} received messages failed the byte check")
    if mode == "--expect-complete":
        per_pattern = {p: (1 if p == pingpong else len(methods)) for p in kind}
        planned = sum(per_pattern.values()) * len(measured) * params["repetitions"]
        if len(rows) != planned:
            fail(f"{len(rows)} rows, the plan has {planned}")
        keys = {(r["pattern"], r["position"], r["method"], r["repetition"]) for r in rows}
        if len(keys) != len(rows):
            fail("a measurement appears twice")

    # b(pat, L) = max over methods and repetitions; b_pat = the mean over the measured sizes.
    best = {}
    for r in rows:
        key = (r["pattern"], r["position"])
        best[key] = max(best.get(key, 0.0), r["bandwidth"])

    def b_at(p, position):
        return best.get((p, position))

    def b_pat(p):
        values = [b_at(p, pos) for pos in measured]
        return None if any(v is None for v in values) else sum(values) / len(values)

    b_ring = logavg([b_pat(p) for p in rings])
    b_random = logavg([b_pat(p) for p in randoms])
    b_eff = logavg([b_ring, b_random])

    def at(position, names):
        return logavg([b_at(p, position) for p in names])

    ring_lmax = at(21, rings)
    b_eff_lmax = logavg([ring_lmax, at(21, randoms)])
    ring_1b, random_1b = at(1, rings), at(1, randoms)
    lat_rings = None if ring_1b is None else n * 1 / ring_1b
    both_1b = logavg([ring_1b, random_1b])
    lat_both = None if both_1b is None else n * 1 / both_1b
    pp_1b = b_at(pingpong, 1)
    per = lambda v: None if v is None else v / n

    want = {
        "b_eff": b_eff,
        "b_eff_per_process": per(b_eff),
        "b_ring": b_ring,
        "b_random": b_random,
        "l_max": l_max,
        "pingpong_bandwidth": b_at(pingpong, 21),
        "b_eff_at_lmax": b_eff_lmax,
        "b_eff_per_process_at_lmax": per(b_eff_lmax),
        "ring_per_process_at_lmax": per(ring_lmax),
        "latency_rings_random": lat_both,
        "latency_rings": lat_rings,
        "latency_pingpong": None if pp_1b is None else 1 / pp_1b,
        "memory_per_process": lmax_row["memory_per_process"],
    }
    if params["rmax"] > 0:
        want["balance_factor"] = None if b_eff is None else b_eff / params["rmax"]
    summary = {}
    for m in doc["summary"]:
        name = m["name"] + ("" if not m["labels"] else ":" + m["labels"]["pattern"])
        if name in summary:
            fail(f"metric {name} appears twice")
        summary[name] = m["value"]
    for name, value in want.items():
        if name not in summary:
            fail(f"metric {name} is missing")
        same(name, summary[name], value)
    for p in kind:
        same(f"b_pattern {p}", summary.get("b_pattern:" + p), b_pat(p))

    t1 = table(doc, "table1")
    if len(t1) != 1:
        fail("table1 has not exactly one row")
    t1 = t1[0]
    if t1["processes"] != n:
        fail("table1: processes is not nprocs")
    for name, value in t1.items():
        if name != "processes":
            same("table1 " + name, value, want[name])

    validity = doc["validity"]
    if mode == "--expect-complete":
        for name, value in want.items():
            if value is None:
                fail(f"{name} is null in a complete run")
    else:
        if validity["valid"] or not any("stopped by --max-time" in r for r in validity["reasons"]):
            fail(f"a stopped run must be not valid because of --max-time: {validity}")
    print(f"check_beff: {path}: {len(rows)} rows, b_eff = "
          f"{'null' if b_eff is None else '%.6g B/s' % b_eff} recomputed and equal to the "
          f"report; valid = {validity['valid']}")


if __name__ == "__main__":
    main()
