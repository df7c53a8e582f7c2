#!/usr/bin/env python3
"""Checks a pbench-io consortium-suite run, independently of the worker's C++ code.

consortium_check.py RESULT.json RUN_DIRECTORY
From the parameters and the seed echoed in the result it recomputes each pattern's layout
(segmented, strided, random, general; shared file or file per process) and checks the kept
files byte by byte: every data byte is the stamp of the process that owns that offset, header
bytes and padding are holes (read as 0), the file ends where the last block ends. It checks
that sustained read never read the reader's own data, that no read byte was wrong, and that
the rates and times agree with the bytes and the counts. Exits 1 on the first mismatch.
"""
import json
import os
import sys


def fail(message):
    print("FAIL:", message, file=sys.stderr)
    sys.exit(1)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def table(doc, name):
    t = doc["measurements"][name]
    names = [c["name"] for c in t["columns"]]
    return [dict(zip(names, r)) for r in t["rows"]]


MASK = (1 << 64) - 1


def split_mix(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def transfers(lay, client):
    out = []
    stride = lay["clients"] * lay["block"] + lay["padding"]
    for s in range(lay["segments"]):
        start = lay["header"] + s * stride + client * lay["block"]
        state = lay["seed"] ^ ((client * 0x100000001B3) & MASK) ^ ((s << 32) & MASK)
        done = 0
        while done < lay["block"]:
            size = lay["transfer"]
            if lay["random"]:
                state, r = split_mix(state)
                size = 1 + r % lay["transfer"]
            size = min(size, lay["block"] - done)
            out.append((start + done, size))
            done += size
    return out


def stamp(client, offset):
    return (client * 7 + offset) % 251 + 1


def main():
    doc = json.load(open(sys.argv[1]))
    run_dir = sys.argv[2]
    p = {k: v["value"] for k, v in doc["parameters"].items()}
    n = doc["nprocs"]
    fpp = p["file_per_process"] != 0
    lay = {
        "clients": 1 if fpp else n,
        "header": p["header_bytes"],
        "transfer": p["transfer_size"],
        "block": p["block_size"],
        "segments": p["segment_count"],
        "padding": p["padding"],
        "seed": doc["seeds"]["transfer_sizes"],
        "random": p["pattern"] in ("random", "general"),
    }
    if p["random_seed"] != 0 and lay["seed"] != p["random_seed"]:
        fail("the recorded seed is not the one given")
    stride = lay["clients"] * lay["block"] + lay["padding"]
    file_bytes = lay["header"] + (lay["segments"] - 1) * stride + lay["clients"] * lay["block"]
    iterations = p["iterations"]

    # The files, byte by byte.
    checked = 0
    for test in ("sustained_write", "cached_write"):
        for it in range(iterations):
            for f in range(n if fpp else 1):
                name = "%s.%s.%d" % (p["filename"], test, it) + (".%d" % f if fpp else "")
                path = os.path.join(run_dir, name)
                data = open(path, "rb").read()
                if len(data) != file_bytes:
                    fail("%s has %d bytes, the layout ends at %d" % (name, len(data), file_bytes))
                expected = bytearray(file_bytes)  # holes: header and padding
                for c in range(lay["clients"]):
                    writer = f if fpp else c
                    for off, size in transfers(lay, c):
                        for i in range(off, off + size):
                            if expected[i] != 0:
                                fail("offset %d belongs to two processes" % i)
                            expected[i] = stamp(writer, i)
                if data != bytes(expected):
                    i = next(k for k in range(file_bytes) if data[k] != expected[k])
                    fail("%s byte %d is %d, expected %d (%s)" % (
                        name, i, data[i], expected[i],
                        "a hole" if expected[i] == 0 else "the owner's stamp"))
                if lay["header"] and any(data[: lay["header"]]):
                    fail("%s: the header bytes were written" % name)
                checked += 1

    # Per-process rows: sustained read never reads the reader's own data.
    rows = table(doc, "consortium_processes")
    per_client = lay["block"] * lay["segments"]
    for r in rows:
        if r["test"] == "sustained_read" and n > 1 and r["read_process"] == r["process"]:
            fail("sustained_read: process %d read its own data" % r["process"])
        if r["bytes"] != per_client:
            fail("process %d moved %d B, expected %d" % (r["process"], r["bytes"], per_client))
        parts = r["open_time"] + r["transfer_time"] + r["close_time"]
        if not close(parts, r["total_time"], 1e-6) or min(
                r["open_time"], r["transfer_time"], r["close_time"]) < 0:
            fail("process %d: open + transfer + close %g != total %g" % (
                r["process"], parts, r["total_time"]))

    # Per-test rows: bytes, transfer counts, the aggregate time and rate, statistics.
    tests = table(doc, "consortium_tests")
    if len(tests) != 3 * iterations:
        fail("%d test rows, expected %d" % (len(tests), 3 * iterations))
    transfer_count = sum(len(transfers(lay, 0 if fpp else c)) for c in range(n))
    best = {}
    for t in tests:
        mine = [r for r in rows if r["test"] == t["test"] and r["iteration"] == t["iteration"]]
        if len(mine) != n:
            fail("%s iteration %d has %d process rows" % (t["test"], t["iteration"], len(mine)))
        if t["bytes"] != n * per_client:
            fail("%s: %d B, expected %d" % (t["test"], t["bytes"], n * per_client))
        if t["transfers"] != transfer_count:
            fail("%s: %d transfers, the layout has %d" % (t["test"], t["transfers"],
                                                          transfer_count))
        aggregate = max(r["total_time"] for r in mine)
        if not close(t["aggregate_time"], aggregate):
            fail("%s: aggregate time is not the slowest process's" % t["test"])
        if not close(t["transfer_rate"], t["bytes"] / aggregate):
            fail("%s: transfer rate %g != bytes / aggregate time" % (t["test"], t["transfer_rate"]))
        if t["read_errors"] != 0:
            fail("%s: %d read errors" % (t["test"], t["read_errors"]))
        for what in ("open_time", "transfer_time", "close_time"):
            values = [r[what] for r in mine]
            mean = sum(values) / n
            dev = (sum((v - mean) ** 2 for v in values) / n) ** 0.5
            for stat, want in (("min", min(values)), ("max", max(values)), ("mean", mean),
                               ("deviation", dev)):
                if not close(t[what + "_" + stat], want, 1e-6) and abs(want) > 1e-12:
                    fail("%s: %s_%s %g, recomputed %g" % (t["test"], what, stat,
                                                          t[what + "_" + stat], want))
        best[t["test"]] = max(best.get(t["test"], 0), t["transfer_rate"])
    metrics = {m["name"]: m for m in doc["summary"]}
    for test, rate in best.items():
        m = metrics[test + "_transfer_rate"]
        if not close(m["value"], rate) or m["samples"] != iterations or m["unit"] != "B/s":
            fail("%s_transfer_rate is not the maximum over iterations" % test)
    if not doc["validity"]["valid"]:
        fail("the result is marked invalid: %s" % doc["validity"])
    print("consortium check: %d files byte by byte, %d test rows: ok" % (checked, len(tests)))


main()
