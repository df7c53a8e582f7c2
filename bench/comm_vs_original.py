#!/usr/bin/env python3
"""Analysis of a bench/comm_vs_original.sh run directory: pbench-comm against the original b_eff
3.6.0.1 (or the original against itself), the headline figures and each message size, median
over the rounds.

    bench/comm_vs_original.py WORKDIR

WORKDIR is the run directory comm_vs_original.sh made (kept with PBENCH_COMM_VS_KEEP=1): its
`settings` file, orig/roundN.prot and .short (the original's protocols), pbench/roundN.json
(pbench-comm's results), self/roundN.* (the original's second run of a round) and `load`.

Headline figures: as each code prints them (the original's summary in its .short, pbench's
summary metrics). Per message size: both codes' own measurements (the original's per-repetition
bandwidths of every pattern and method in its .prot, pbench's measurement rows) reduced here by
one rule, b_eff's: the maximum over the repetitions, then over the methods (or one method), the
logavg over the 6 rings and over the random patterns, and b_eff(L) = logavg(rings, random).
Reducing the original's own rows this way gives back its printed table (5th analysis path).

Modes (from `settings`): pair: ratio = median over rounds of pbench / original; self: original
B / original A; both: pbench / sqrt(A * B) beside B / A, and a permutation test per headline
figure (bench/io_vs_original.py's permutation_p).
"""
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from io_vs_original import permutation_p  # noqa: E402  (one definition of the test)

METHODS = ["sendrecv", "alltoallv", "nonblocking"]
HEADLINE = [  # key, label, unit scale, unit
    ("b_eff", "b_eff", 1e6, "MB/s"),
    ("b_eff_at_lmax", "b_eff at L_max", 1e6, "MB/s"),
    ("ring_at_lmax", "b_eff at L_max, rings only", 1e6, "MB/s"),
    ("latency_rings_random", "latency, rings and random", 1e-6, "us"),
    ("latency_rings", "latency, rings only", 1e-6, "us"),
    ("latency_pingpong", "ping-pong latency", 1e-6, "us"),
    ("pingpong_bandwidth", "ping-pong bandwidth at L_max", 1e6, "MB/s"),
]
COLUMNS = ["b_eff(L)", "rings", "random"] + METHODS + ["pingpong"]


def logavg(values):
    if not values or any(v is None or v <= 0 for v in values):
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def per_size(sizes, kinds, best):
    """Per size, the columns of COLUMNS from best[(pattern, size, method)] (max over reps)."""
    out = {}
    rings = [p for p, k in kinds.items() if k == "ring"]
    randoms = [p for p, k in kinds.items() if k == "random"]
    pingpong = [p for p, k in kinds.items() if k == "pingpong"]
    for L in sizes:
        def value(p, methods):
            got = [best.get((p, L, m)) for m in methods]
            got = [v for v in got if v is not None]
            return max(got) if got else None
        row = {}
        for name, methods in [("best", METHODS)] + [(m, [m]) for m in METHODS]:
            ring = logavg([value(p, methods) for p in rings])
            rand = logavg([value(p, methods) for p in randoms])
            both = logavg([ring, rand]) if ring and rand else None
            if name == "best":
                row.update({"b_eff(L)": both, "rings": ring, "random": rand})
            else:
                row[name] = both
        row["pingpong"] = value(pingpong[0], ["sendrecv"]) if pingpong else None
        out[L] = row
    return out


def read_settings(work):
    try:
        lines = open(os.path.join(work, "settings")).readlines()
    except OSError:
        sys.exit("%s is not a run directory of bench/comm_vs_original.sh (no readable settings "
                 "file)" % work)
    return dict(line.strip().partition("=")[::2] for line in lines if "=" in line)


def original(work, arm, r):
    """The original's round r: headline figures (B/s, s), per-size table, elapsed check."""
    prot = open("%s/%s/round%d.prot" % (work, arm, r)).read()
    short = open("%s/%s/round%d.short" % (work, arm, r)).read()
    sizes = [int(x) for x in re.search(r"msglng=([\d ]+)", prot).group(1).split()]
    kinds = {}
    counts = {}
    for m in re.finditer(r"^ p(\d\d) (.{17}) +(\d+) +(\d+) ", short, re.M):
        p, name = int(m.group(1)), m.group(2).strip()
        kinds[p] = ("ring" if name.startswith("ring-") else "random" if name.startswith("random-")
                    else "pingpong" if name == "one PingPong Pair" else "extra")
        counts[p] = (int(m.group(3)), int(m.group(4)))  # sendrecv calls, messages
    best = {}
    values = prot[prot.index("SECTION-VALUES-BEGIN"):prot.index("SECTION-VALUES-END")]
    L = method = None
    for m in re.finditer(r"^ +(?:(\d+) )? *(?:mthd(\d) )? *p(\d\d) min=(.*?) ->", values, re.M):
        if m.group(1):
            L = int(m.group(1))
        if m.group(2):
            method = METHODS[int(m.group(2))]
        p = int(m.group(3))
        reps = [float(v) for v in m.group(4).split() if v != "------"]
        calls, messages = counts[p]
        if reps and calls:
            # its b(L) of the pattern: the slowest process's bandwidth per call * messages / calls
            best[(p, L, method)] = max(reps) * 1e6 * messages / calls
    f = {}
    num = r"\s*([-\d.]+)"
    for key, pattern, scale in [
            ("b_eff", r"The effective bandwidth is b_eff =" + num, 1e6),
            ("b_eff_at_lmax", r"b_eff at Lmax:" + num, 1e6),
            ("ring_at_lmax", r"b_eff at Lmax \(ring pattern\):" + num, 1e6),
            ("latency_rings_random", r"\nLatency:" + num, 1e-6),
            ("latency_pingpong", r"Ping-pong latency:" + num, 1e-6),
            ("pingpong_bandwidth", r"Ping-pong bandwidth at Lmax:" + num, 1e6)]:
        m = re.search(pattern, short)
        f[key] = float(m.group(1)) * scale if m else None
    # "Latency ring pattern" in its text omits the x size of its own table (ORIGINALS.md): the
    # table's row "accumulated" has the latency per process, 7th number.
    m = re.search(r"^accumulated \|(.*)$", short, re.M)
    f["latency_rings"] = float(m.group(1).replace("MB", "").split()[6]) * 1e-6 if m else None
    gaps = [float(x) for x in re.findall(r"difference to elapsed time += +[-\d.]+ sec = +([\d.]+)%",
                                         short)]
    return f, per_size(sizes, kinds, best), sizes, gaps


def pbench(work, r):
    doc = json.load(open("%s/pbench/round%d.json" % (work, r)))
    metrics = {m["name"]: m["value"] for m in doc["summary"] if not m.get("labels")}
    f = {k: metrics.get(k) for k, *_ in HEADLINE}
    f["ring_at_lmax"] = metrics["ring_per_process_at_lmax"] * doc["nprocs"]

    def rows(name):
        t = doc["measurements"][name]
        names = [c["name"] for c in t["columns"]]
        return [dict(zip(names, x)) for x in t["rows"]]

    kinds = {x["pattern"]: ("pingpong" if x["pattern"] == "pingpong" else x["kind"])
             for x in rows("patterns")}
    best = {}
    for x in rows("measurements"):
        k = (x["pattern"], x["l"], x["method"])
        best[k] = max(best.get(k, 0), x["bandwidth"])
    sizes = [x["l"] for x in rows("message_sizes")]
    return f, per_size(sizes, kinds, best), sizes, doc.get("validity", {})


def ratios(vp, vo, vb=None):
    if vb is None:
        return [p / o for p, o in zip(vp, vo) if p and o]
    return [p / math.sqrt(o * b) for p, o, b in zip(vp, vo, vb) if p and o and b]


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.exit("usage: bench/comm_vs_original.py WORKDIR")
    work = argv[1]
    s = read_settings(work)
    mode, rounds = s["mode"], int(s["rounds"])
    rs = range(1, rounds + 1)
    a = {r: original(work, "orig", r) for r in rs}
    b = {r: original(work, "self", r) for r in rs} if mode in ("self", "both") else {}
    p = {r: pbench(work, r) for r in rs} if mode in ("pair", "both") else {}
    side = b if mode == "self" else p
    side_name = "original B" if mode == "self" else "pbench"
    reference = "sqrt(original A * original B)" if mode == "both" else "original A" \
        if mode == "self" else "original"
    sizes = a[1][2]
    if p and p[1][2] != sizes:
        sys.exit("the codes measured different message sizes: original %s, pbench %s"
                 % (sizes, p[1][2]))

    print()
    print("Medians over %d rounds; MB/s = 10^6 B/s; ratio = median over rounds of %s / %s; "
          "spread = the original's own (max - min) / median over its runs%s"
          % (rounds, side_name, reference,
             "; B/A = the original's second run over its first (its noise floor)"
             if mode == "both" else ""))
    lines = []
    low = []
    outside = []
    for key, label, scale, unit in HEADLINE:
        vo = [a[r][0][key] for r in rs]
        vs = [side[r][0][key] for r in rs]
        vb = [b[r][0][key] for r in rs] if mode == "both" else None
        q = ratios(vs, vo, vb)
        # the original's own range: every run of it (A and, with --both, B)
        known = [v for v in vo + (vb or []) if v]
        spread = "%.0f%%" % (100 * (max(known) - min(known)) / statistics.median(known)) \
            if known else "-"
        ms = statistics.median(v for v in vs if v)
        verdict = "-" if not known or mode == "self" else "inside" \
            if min(known) <= ms <= max(known) else "above by %.0f%%" % (
                100 * (ms / max(known) - 1)) if ms > max(known) else "below by %.0f%%" % (
                100 * (1 - ms / min(known)))
        if verdict.startswith(("above", "below")):
            outside.append(label)
        aa, test = "-", ""
        if mode == "both":
            aa = "%.3f" % statistics.median(ratios(vb, vo))
            triples = [(o, x, y) for o, x, y in zip(vo, vs, vb) if o and x and y]
            if len(triples) >= 3:
                pv = permutation_p(triples, __import__("random").Random(19))
                test = "p = %.3f" % pv
                if pv < 0.05:
                    low.append(label)
        lines.append((label + " [" + unit + "]", "%.3f" % (ms / scale),
                      "%.3f" % (statistics.median(known) / scale),
                      "%.3f" % statistics.median(q) if q else "-", aa, spread, verdict, test))
    w = max(len(x[0]) for x in lines)
    head = ("figure", side_name, "original", "ratio", "B/A", "spread",
            "original's range" if mode != "self" else "", "permutation test" if mode == "both"
            else "")
    for x in [head] + lines:
        print("%-*s %12s %12s %7s %7s %7s  %-16s %s" % (w, *x))

    def table(title, num, den, den2=None):
        print()
        print(title)
        print("%10s " % "L [B]" + " ".join("%9s" % c for c in COLUMNS))
        beff = []
        for L in sizes:
            cells = []
            for c in COLUMNS:
                q = ratios([num[r][1][L][c] for r in rs], [den[r][1][L][c] for r in rs],
                           [den2[r][1][L][c] for r in rs] if den2 else None)
                cells.append("%9.3f" % statistics.median(q) if q else "%9s" % "-")
                if c == "b_eff(L)" and q:
                    beff.append(statistics.median(q))
            print("%10d " % L + " ".join(cells))
        if beff:
            # a lean one way shows as most sizes on one side of 1
            print("b_eff(L): above 1 at %d of %d sizes, median %.3f" % (
                sum(1 for x in beff if x > 1), len(beff), statistics.median(beff)))

    table("Per message size, the median ratio %s / %s (b_eff(L) = logavg(rings, random), "
          "best method; a method column: that method alone; pingpong: MPI_Sendrecv ranks 0-1)"
          % (side_name, reference), side, a, b if mode == "both" else None)
    if mode == "both":
        table("The same for the original against itself, B / A (the noise floor)", b, a)

    print()
    gaps = [g for r in rs for g in a[r][3] + (b[r][3] if b else [])]
    caution = sum(1 for r in rs for x in [a[r]] + ([b[r]] if b else []) if max(x[3] or [0]) > 5)
    print("the original's own check (its .short, SECTION-ELAPSED): the sum of its fastest "
          "repetitions differs from its elapsed time by %s%%; %d of %d runs print its CAUTION "
          "(\"processes weren't on dedicated processors\")"
          % ("-".join("%.0f" % x for x in (min(gaps), max(gaps))) if gaps else "?", caution,
             len(rs) * (2 if b else 1)))
    if p:
        invalid = sorted({reason for r in rs for reason in p[r][3].get("reasons", [])})
        if invalid:
            print("pbench-comm's results say NOT VALID: %s" % "; ".join(invalid))
    if mode != "self":
        print("headline figures of pbench (median over the rounds) inside the original's range "
              "(min to max over its %d runs): %d of %d%s" % (
                  len(rs) * (2 if b else 1), len(lines) - len(outside), len(lines),
                  "" if not outside else "; outside: " + ", ".join(outside)))
    if mode == "both":
        print("permutation tests with p < 0.05: %d of %d%s" % (
            len(low), len(lines), "" if not low else " (" + ", ".join(low) + ")"))
    try:
        load = [line.split()[1] for line in open(os.path.join(work, "load"))]
        print("load average (1 min) after each round: %s" % " ".join(load))
    except OSError:
        pass


if __name__ == "__main__":
    main(sys.argv)
