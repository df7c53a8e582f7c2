#!/usr/bin/env python3
"""Recomputes a pbench-io result from its rows, independently of the worker's C++ reduction.

check_result.py RESULT.json --partitions 1,2 [--rewrite-all] [--protocol FILE]
                [--schedule-time T]
Checks every level: pattern rows (bytes, bandwidth, time budget, how the count was decided,
rewrite and read replaying the write), the segment of types 3 and 4 from the counts of types
0-2, the type totals, the access methods (type 0 counted twice), b_eff_io per partition as the
reference code b_eff_io rev 2.1 computes it (sqrt(WR * R), WR the mean of the five write types
and rewrite type 0), the paper's arithmetic b_eff_io_paper (0.25 write + 0.25 rewrite + 0.5
read), and the system maximum with the partition that won; pattern budgets as rev 2.1 shares T
out (Tn = T / partitions, T_pattern = Tn * U / Usum, Usum = 150, or 192 with every type
rewritten), the share each row ran with (never above T_pattern; equal to it unguarded); rows
the time guard cut (fewer repetitions than planned, rows with a planned count only, each named
in a validity reason), rewrite and read replaying the count written before them; the time
account (its parts add up to the elapsed time, and agree with the rows, opens, closes and
deletions it counts) and the whole run's elapsed time against T (a reason when it exceeds
1.10 T, or 1.15 T + 3 s for T < 60 s); with --protocol also the readable protocol's lines.
Exits 1 on the first mismatch, naming it.
"""
import argparse
import json
import math
import re
import sys

MiB = 1024 * 1024


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def table(doc, name):
    t = doc["measurements"][name]
    names = [c["name"] for c in t["columns"]]
    return [dict(zip(names, r)) for r in t["rows"]]


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def metric(doc, name, **labels):
    found = [m for m in doc["summary"] if m["name"] == name and m["labels"] == labels]
    expect(len(found) == 1, "metric %s %s appears %d times" % (name, labels, len(found)))
    return found[0]["value"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--partitions", required=True)
    ap.add_argument("--rewrite-all", action="store_true")
    ap.add_argument("--protocol")
    ap.add_argument("--schedule-time", type=float)
    args = ap.parse_args()
    doc = json.load(open(args.result))
    partitions = [int(p) for p in args.partitions.split(",")]
    expect(doc["worker"] == "io", "not an io result")
    patterns = table(doc, "patterns")
    types = table(doc, "types")
    T = args.schedule_time if args.schedule_time is not None else doc["parameters"]["schedule_time"]["value"]

    rewrite_types = [0, 1, 2, 3, 4] if args.rewrite_all else [0]
    # Rev 2.1's schedule: U sums to 64 per access method over all types, 22 over type 0.
    usum = 64 + (64 if args.rewrite_all else 22) + 64
    tn = T / len(partitions)
    type_of = lambda number: 0 if number < 9 else 1 if number < 17 else 2 if number < 25 else 3 if number < 34 else 4
    counts = {}
    planned = {}
    run = table(doc, "run")[0]
    guarded = run["guard_factor"] is not None
    for n in partitions:
        for access, types_ in (("write", range(5)), ("rewrite", rewrite_types), ("read", range(5))):
            numbers = sorted(r["pattern"] for r in patterns if r["partition"] == n and r["access"] == access)
            want = [x for x in range(43) if type_of(x) in types_]
            expect(numbers == want, "partition %d %s: patterns %s, expected %s" % (n, access, numbers, want))

    # Pattern rows.
    for r in patterns:
        where = "partition %d %s pattern %d" % (r["partition"], r["access"], r["pattern"])
        expect(r["type"] == type_of(r["pattern"]), where + ": wrong type")
        expect(r["bytes"] == r["partition"] * r["memory_chunk"] * r["repetitions"], where + ": bytes")
        expect(close(r["bandwidth"], r["bytes"] / r["time"]), where + ": bandwidth != bytes / time")
        expect(r["time_min"] <= r["time_mean"] * (1 + 1e-12) <= r["time"] * (1 + 1e-9), where + ": time statistics")
        expect(close(r["pattern_time"], tn * r["time_units"] / usum) or r["time_units"] == 0 and r["pattern_time"] == 0,
               where + ": T_pattern %s != Tn * U / Usum = %g * %d / %d" % (r["pattern_time"], tn, r["time_units"], usum))
        # The plan gives a row at most twice T_pattern (TimePlan.hpp's kMostUnitTimeFactor).
        expect(r["planned_time"] <= 2 * r["pattern_time"] * (1 + 1e-12) and r["planned_time"] >= 0,
               where + ": share %s above 2 T_pattern %s" % (r["planned_time"], r["pattern_time"]))
        if not guarded:
            expect(r["planned_time"] == r["pattern_time"] and r["held_back"] == 0, where + ": unguarded, the share is T_pattern")
        if r["time_units"] == 0:
            expect(r["drive"] == "single" and r["repetitions"] == 1, where + ": U = 0 must be one call")
        elif r["access"] == "write":
            expect(r["drive"] == ("time" if r["type"] <= 2 else "size"), where + ": drive " + r["drive"])
        else:
            expect(r["drive"] == "replay", where + ": drive " + r["drive"])
        # Planned against done: only the time guard leaves a row short, and only one with a
        # planned count (size-driven or replaying).
        if r["drive"] == "time":
            expect(r["planned_repetitions"] is None and r["cut"] is False, where + ": a time-driven row has no plan")
        elif r["cut"]:
            expect(guarded and r["drive"] in ("size", "replay") and 1 <= r["repetitions"] < r["planned_repetitions"],
                   where + ": cut at %s of %s" % (r["repetitions"], r["planned_repetitions"]))
            reason = "time guard: partition %d, %s, type %d, pattern %d (l = %d B): stopped after %d of %d planned repetitions" % (
                r["partition"], r["access"], r["type"], r["pattern"], r["disk_chunk"], r["repetitions"], r["planned_repetitions"])
            expect(any(x.startswith(reason) for x in doc["validity"]["reasons"]), where + ": no reason '%s'" % reason)
        else:
            expect(r["repetitions"] == r["planned_repetitions"], where + ": %s of %s planned" % (r["repetitions"], r["planned_repetitions"]))
        if r["access"] == "write":
            counts[(r["partition"], r["pattern"])] = r["repetitions"]
            planned[(r["partition"], r["pattern"])] = r["planned_repetitions"]
    # Rewrite replays the write's count; read the rewrite's for a rewritten type (fewer where the
    # guard cut the rewrite), else the write's.
    rewrote = {(r["partition"], r["pattern"]): r["repetitions"] for r in patterns if r["access"] == "rewrite"}
    for r in patterns:
        if r["access"] == "write":
            continue
        key = (r["partition"], r["pattern"])
        want = rewrote[key] if r["access"] == "read" and key in rewrote else counts[key]
        expect(r["planned_repetitions"] == want,
               "partition %d %s pattern %d replays %s, not the %d written before" % (r["partition"], r["access"], r["pattern"], r["planned_repetitions"], want))

    # The segment of types 3 and 4.
    part_rows = {r["partition"]: r for r in table(doc, "partitions")}
    type0_rows = [0, 1, 3, 4, 5, 6, 7, 8]
    for n in partitions:
        row = {r["pattern"]: r for r in patterns if r["partition"] == n and r["access"] == "write"}
        used = 0
        for i in range(8):
            c0 = counts[(n, type0_rows[i])] * (row[type0_rows[i]]["memory_chunk"] // row[type0_rows[i]]["disk_chunk"])
            c1 = counts[(n, 9 + i)] * 10
            c2 = counts[(n, 17 + i)]
            want = max(1, min(c0, c1, c2))
            for start in (25, 34):
                expect(planned[(n, start + i)] == want,
                       "partition %d pattern %d: %d repetitions planned, the segment rule gives %d" % (n, start + i, planned[(n, start + i)], want))
            used += want * row[17 + i]["disk_chunk"]
        segment = (used + MiB - 1) // MiB * MiB
        expect(part_rows[n]["segment"] == segment, "partition %d: segment %s, expected %d" % (n, part_rows[n]["segment"], segment))
        expect(part_rows[n]["segment_fill"] == segment - used, "partition %d: fill" % n)
        for fill in (33, 42):
            expect(row[fill]["disk_chunk"] == segment - used, "partition %d pattern %d: fill size" % (n, fill))

    # Types: bytes of their patterns over open + patterns + close.
    type_bw = {}
    for t in types:
        where = "partition %d %s type %d" % (t["partition"], t["access"], t["type"])
        total = sum(r["bytes"] for r in patterns if (r["partition"], r["access"], r["type"]) == (t["partition"], t["access"], t["type"]))
        expect(t["bytes"] == total, where + ": bytes != sum of its patterns")
        expect(t["complete"] is True, where + ": incomplete")
        expect(close(t["bandwidth"], t["bytes"] / t["total_time"]), where + ": bandwidth != bytes / total_time")
        expect(t["total_time"] >= max(t["open_time"], t["close_time"], t["delete_time"]), where + ": total time")
        expect(t["delete_time"] == 0 or (t["access"] == "read" and not run["kept"]), where + ": a deletion outside the read")
        type_bw[(t["partition"], t["access"], t["type"])] = t["bytes"] / t["total_time"]
        expect(close(metric(doc, "type_bandwidth", partition=t["partition"], access=t["access"], type=t["type"]), type_bw[(t["partition"], t["access"], t["type"])]),
               where + ": type_bandwidth metric")

    # Access methods, b_eff_io (rev 2.1), the paper's value, system.
    accesses = {(r["partition"], r["access"]): r for r in table(doc, "accesses")}
    best = None
    for n in partitions:
        acc = {}
        for access, types_ in (("write", range(5)), ("rewrite", rewrite_types), ("read", range(5))):
            weights = {t: (2 if t == 0 else 1) for t in types_}
            acc[access] = sum(weights[t] * type_bw[(n, access, t)] for t in types_) / sum(weights.values())
            expect(close(accesses[(n, access)]["bandwidth"], acc[access]), "partition %d %s: access bandwidth" % (n, access))
            expect(close(metric(doc, "access_bandwidth", partition=n, access=access), acc[access]), "access_bandwidth metric")
            moved = sum(t["bytes"] for t in types if t["partition"] == n and t["access"] == access)
            expect(accesses[(n, access)]["bytes"] == moved, "partition %d %s: bytes moved" % (n, access))
        paper = 0.25 * acc["write"] + 0.25 * acc["rewrite"] + 0.5 * acc["read"]
        expect(close(part_rows[n]["b_eff_io_paper"], paper), "partition %d: paper's b_eff_io %s, recomputed %s" % (n, part_rows[n]["b_eff_io_paper"], paper))
        expect(close(metric(doc, "b_eff_io_paper", partition=n), paper), "partition %d: b_eff_io_paper metric" % n)
        wr = (sum(type_bw[(n, "write", t)] for t in range(5)) + type_bw[(n, "rewrite", 0)]) / 6
        beff = math.sqrt(wr * acc["read"])
        expect(close(part_rows[n]["write_rewrite"], wr), "partition %d: WR" % n)
        expect(close(part_rows[n]["b_eff_io"], beff), "partition %d: b_eff_io %s, recomputed sqrt(WR * R) %s" % (n, part_rows[n]["b_eff_io"], beff))
        expect(close(metric(doc, "b_eff_io", partition=n), beff), "partition %d: b_eff_io metric" % n)
        expect(0 < part_rows[n]["write_elapsed"] <= part_rows[n]["elapsed"], "partition %d: elapsed" % n)
        timed = [r for r in patterns if r["partition"] == n and r["drive"] == "time"]
        expect(close(part_rows[n]["time_driven_budget"], sum(r["pattern_time"] for r in timed)),
               "partition %d: time-driven budget" % n)
        expect(close(part_rows[n]["time_driven_time"], sum(r["time"] for r in timed)),
               "partition %d: time-driven time" % n)
        expect(close(part_rows[n]["schedule_time"], T), "partition %d: schedule time" % n)
        expect(close(part_rows[n]["partition_time"], tn), "partition %d: Tn" % n)
        if best is None or beff > best[0]:
            best = (beff, n)
    # The time account: rank 0's clock cut into contiguous parts, which add up to the elapsed
    # time; each part agrees with what the rows record (rank 0's time of a phase lies between
    # the fastest and the slowest process's, all ending in the same barrier).
    account = {a["part"]: a for a in table(doc, "time_account")}
    parts = ["setup", "deletion_probe", "opens", "patterns", "closes", "deletion", "bookkeeping", "removal"]
    expect(sorted(account) == sorted(parts), "time account parts %s" % sorted(account))
    total = sum(a["time"] for a in account.values())
    expect(abs(total - run["elapsed"]) <= 1e-6 * max(1, run["elapsed"]),
           "time account sums to %s s, elapsed %s s" % (total, run["elapsed"]))
    expect(all(a["time"] >= 0 for a in account.values()), "time account: a negative part")
    expect(account["patterns"]["count"] == len(patterns), "time account: %s patterns for %d rows" % (account["patterns"]["count"], len(patterns)))
    expect(account["opens"]["count"] == len(types) and account["closes"]["count"] == len(types), "time account: opens and closes")
    reads = [t for t in types if t["access"] == "read"]
    expect(account["deletion"]["count"] == (0 if run["kept"] else len(reads)), "time account: deletions")
    expect(sum(r["time_min"] for r in patterns) - 1e-9 <= account["patterns"]["time"] <= sum(r["time"] for r in patterns) + 1e-9,
           "time account: patterns %s s outside the rows' %s..%s s" % (account["patterns"]["time"], sum(r["time_min"] for r in patterns), sum(r["time"] for r in patterns)))
    for part, column in (("opens", "open_time"), ("closes", "close_time"), ("deletion", "delete_time")):
        expect(account[part]["time"] <= sum(t[column] for t in types) + 1e-9, "time account: %s above the types' %s" % (part, column))
    expect((account["deletion_probe"]["count"] == 1) == (guarded and not run["kept"]), "time account: the deletion probe")
    limit = 1.10 * T if T >= 60 else 1.15 * T + 3
    expect(close(run["schedule_time"], T) and close(run["elapsed_limit"], limit), "run: T %s, limit %s" % (run["schedule_time"], run["elapsed_limit"]))
    expect(close(metric(doc, "run_elapsed"), run["elapsed"]), "run_elapsed metric")
    expect(run["elapsed"] >= sum(r["elapsed"] for r in part_rows.values()), "run: elapsed shorter than its partitions")
    overran = [x for x in doc["validity"]["reasons"] if x.startswith("elapsed ")]
    expect(bool(overran) == (run["elapsed"] > limit), "run: elapsed %s s against %s s, reasons %s" % (run["elapsed"], limit, overran))
    cut = sum(1 for r in patterns if r["cut"])
    expect(run["cut_rows"] == cut and metric(doc, "cut_rows") == cut, "run: cut rows")
    system = [m for m in doc["summary"] if m["name"] == "b_eff_io_system"]
    expect(len(system) == 1 and close(system[0]["value"], best[0]), "system b_eff_io %s, recomputed %s" % (system, best))
    expect(system[0]["labels"] == {"partition": best[1]}, "system partition %s, expected %d" % (system[0]["labels"], best[1]))

    if args.protocol:
        text = open(args.protocol).read()
        lines = [l for l in text.splitlines() if re.match(r"^\s+\d+\s+(write|rewrite|read)\s+\d\s+\d+\s", l)]
        expect(len(lines) == len(patterns), "protocol has %d pattern lines for %d rows" % (len(lines), len(patterns)))
        for n in partitions:
            expect("Summary of partition %d " % n in text, "protocol: no summary of partition %d" % n)
        final = "b_eff_io = %.3f MB/s (maximum over partitions: partition %d)" % (best[0] / 1e6, best[1])
        expect(final in text, "protocol: no line '%s'" % final)
    print("recomputed b_eff_io: %.3f MB/s (partition %d); %d pattern rows agree" % (best[0] / 1e6, best[1], len(patterns)))


main()
