#!/usr/bin/env bash
# pbench-io beside the original b_eff_io rev 2.1 on this machine: both at 2 processes with the
# same T and memory per process, interleaved (original, pbench, original, pbench, ...), and the
# median over the rounds of pbench / original for b_eff_io, each access method, each pattern
# type, the single 1 MiB pattern rows, and the elapsed time against T.
#
#   bench/io_vs_original.sh [--self] ORIGINAL [ROUNDS] [T] [MB] [DIR]
#     --self    the original against itself (A/A): it runs twice a round and the ratios are its
#               second run over its first, the noise floor a pbench ratio is to be read against
#     ORIGINAL  the original's source b_eff_io.c (built here with mpicc in a temporary
#               directory, never in the repository) or its built binary
#     ROUNDS    interleaved rounds (default 5); T: scheduled time in seconds for all
#               partitions, both codes' -T (default 30); MB: memory per process in MiB, the
#               original's -MB (default 256: M_PART = 2 MiB); DIR: where both write (default
#               a new directory under /tmp)
# PBENCH_IO_ARGS: more arguments for pbench-io, word-split (e.g. "--unguarded": rev 2.1's
# schedule without the time guard, so that no row is cut short).
# Needs a build (scripts/build). Both run the default partitions of 2 processes, {1, 2}. The
# load average is printed before and after: MPI-IO timing on a loaded machine is noisy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
self=0
if [[ "${1:-}" == --self ]]; then self=1; shift; fi
original=${1:?usage: bench/io_vs_original.sh [--self] ORIGINAL [ROUNDS] [T] [MB] [DIR]}
rounds=${2:-5}
T=${3:-30}
MB=${4:-256}
io=$build/workers/io/pbench-io
[[ -x $io ]] || { echo "missing $io: run scripts/build" >&2; exit 1; }
[[ $T =~ ^[1-9][0-9]*$ ]] || { echo "T must be whole seconds (the original's -T is an integer): '$T'" >&2; exit 2; }
[[ $MB =~ ^[1-9][0-9]*$ ]] || { echo "MB must be a positive integer: '$MB'" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer: '$rounds'" >&2; exit 2; }
work=$(mktemp -d "${5:-/tmp}/pbench-io-vs-original.XXXXXX")
trap 'rm -rf "$work"' EXIT

case $original in
  *.c)
    [[ -f $original ]] || { echo "no such source file: $original" >&2; exit 2; }
    mpicc -O2 -w -o "$work/b_eff_io" "$original" -lm
    binary=$work/b_eff_io ;;
  *)
    [[ -x $original ]] || { echo "not an executable: $original" >&2; exit 2; }
    binary=$(cd "$(dirname "$original")" && pwd)/$(basename "$original") ;;
esac

what="pbench-io vs the original b_eff_io"
((self == 0)) || what="the original b_eff_io vs itself (A/A)"
[[ -z "${PBENCH_IO_ARGS:-}" ]] || what+=" (pbench-io $PBENCH_IO_ARGS)"
echo "$what: 2 processes, T = $T s, -MB $MB, $rounds rounds, in $work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$work/orig" "$work/pbench" "$work/self"
for round in $(seq 1 "$rounds"); do
  start=$(date +%s.%N)
  (cd "$work/orig" && mpiexec -n 2 "$binary" -MB "$MB" -MT $((2 * MB)) -T "$T" \
    -f "round$round" > "round$round.out")
  end=$(date +%s.%N)
  echo "$round $start $end" >> "$work/orig/elapsed"
  start=$(date +%s.%N)
  if ((self)); then
    (cd "$work/self" && mpiexec -n 2 "$binary" -MB "$MB" -MT $((2 * MB)) -T "$T" \
      -f "round$round" > "round$round.out")
    end=$(date +%s.%N)
    echo "$round $start $end" >> "$work/self/elapsed"
  else
    # shellcheck disable=SC2086  # PBENCH_IO_ARGS is a list of words
    mpiexec -n 2 "$io" -T "$T" --memory-per-proc $((MB * 1048576)) --dir "$work/pbench" \
      --output "$work/pbench/round$round.json" ${PBENCH_IO_ARGS:-} > "$work/pbench/round$round.txt"
    end=$(date +%s.%N)
    echo "$round $start $end" >> "$work/pbench/elapsed"
  fi
  echo "round $round done; load average $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 - "$work" "$rounds" "$T" "$self" <<'PY'
import json, re, statistics, sys

work, rounds, T, self_test = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "1"
ACCESS = ["write", "rewrite", "read"]
TYPES = {"scatter": 0, "shared": 1, "separated": 2, "segmented": 3, "seg_coll": 4}
SINGLE = {3: "type 0 (scatter) l = L = 1 MiB", 11: "type 1 (shared) 1 MiB",
          19: "type 2 (separate) 1 MiB"}


def elapsed(path):
    out = {}
    for line in open(path):
        r, a, b = line.split()
        out[int(r)] = float(b) - float(a)
    return out


def original(r, run="orig"):
    """Figures of round r from the original's protocol (.prot), in B/s (it prints 1e6 B/s)."""
    f = {}
    n = None
    for line in open("%s/%s/round%d.prot" % (work, run, r)):
        m = re.match(r"n=(\d+)\s+a=(\d) type=(\d) p=\s*(\d+) .* bw=\s*([-\d.]+) MB/s", line)
        if m:
            n, a, p = int(m.group(1)), int(m.group(2)), int(m.group(4))
            f[("pattern", n, ACCESS[a], p)] = float(m.group(5)) * 1e6
            continue
        m = re.search(r"total pattern type:.* b_eff_io_(\w+?)_(\w+)=\s*([\d.]+) MB/s", line)
        if m:
            f[("type", n, m.group(1), TYPES[m.group(2)])] = float(m.group(3)) * 1e6
            continue
        m = re.search(r"total access method:.* b_eff_io_(\w+)=\s*([\d.]+) MB/s", line)
        if m:
            f[("access", n, m.group(1))] = float(m.group(2)) * 1e6
            continue
        m = re.search(r"total partition: n=(\d+) .* b_eff_io=\s*([\d.]+) MB/s", line)
        if m:
            f[("b_eff_io", int(m.group(1)))] = float(m.group(2)) * 1e6
            continue
        m = re.search(r"b_eff_io := maximum over all bw_partition =\s*([\d.]+) MB/s", line)
        if m:
            f[("system",)] = float(m.group(1)) * 1e6
    return f


cuts = {}


def pbench(r):
    doc = json.load(open("%s/pbench/round%d.json" % (work, r)))

    def rows(name):
        t = doc["measurements"][name]
        names = [c["name"] for c in t["columns"]]
        return [dict(zip(names, x)) for x in t["rows"]]

    f = {}
    for x in rows("patterns"):
        f[("pattern", x["partition"], x["access"], x["pattern"])] = x["bandwidth"]
    for x in rows("types"):
        f[("type", x["partition"], x["access"], x["type"])] = x["bandwidth"]
    for x in rows("accesses"):
        f[("access", x["partition"], x["access"])] = x["bandwidth"]
    for x in rows("partitions"):
        f[("b_eff_io", x["partition"])] = x["b_eff_io"]
        f[("paper", x["partition"])] = x["b_eff_io_paper"]
    cut = [x for x in rows("patterns") if x.get("cut")]
    cuts[r] = ["partition %d pattern %d (%d of %d)" % (x["partition"], x["pattern"], x["repetitions"],
                                                       x["planned_repetitions"]) for x in cut]
    for m in doc["summary"]:
        if m["name"] == "b_eff_io_system":
            f[("system",)] = m["value"]
        if m["name"] == "b_eff_io_paper_system":
            f[("paper_system",)] = m["value"]
    return f


orig = {r: original(r) for r in range(1, rounds + 1)}
# "pb" is the side measured against the original: pbench-io, or with --self the original's
# second run of each round.
pb = {r: original(r, "self") if self_test else pbench(r) for r in range(1, rounds + 1)}
te_o = elapsed(work + "/orig/elapsed")
te_p = elapsed(work + ("/self/elapsed" if self_test else "/pbench/elapsed"))
side = "original B" if self_test else "pbench"
partitions = sorted({k[1] for k in orig[1] if k[0] == "b_eff_io"})

lines = []


def row(label, key_p, key_o=None, unit=1e6, verdict_of=None):
    key_o = key_o or key_p
    vp = [pb[r].get(key_p) for r in pb]
    vo = [orig[r].get(key_o) for r in orig]
    ratios = [p / o for p, o in zip(vp, vo) if p is not None and o not in (None, 0)]
    if not ratios:
        lines.append((label, "-", "-", "-", "-", "-"))
        return
    mp = statistics.median(v for v in vp if v is not None) / unit
    mo = statistics.median(v for v in vo if v is not None) / unit
    q = statistics.median(ratios)
    known = [v for v in vo if v is not None]
    # The original's own spread over the rounds: (max - min) / median.
    spread = "%.0f%%" % (100 * (max(known) - min(known)) / statistics.median(known)) if known else "-"
    verdict = "within 10%" if abs(q - 1) <= 0.10 else "OFF by %+.0f%%" % (100 * (q - 1))
    if verdict_of:
        verdict = verdict_of
    lines.append((label, "%.2f" % mp, "%.2f" % mo, "%.3f" % q, spread, verdict))


row("b_eff_io (system: max over partitions)", ("system",))
if not self_test:
    row("  pbench's paper 0.25/0.25/0.5 vs original's b_eff_io", ("paper_system",), ("system",),
        verdict_of="another definition (for reference)")
for n in partitions:
    row("partition %d: b_eff_io" % n, ("b_eff_io", n))
    for a in ACCESS:
        row("partition %d: access %s" % (n, a), ("access", n, a))
    for a, types in (("write", range(5)), ("rewrite", [0]), ("read", range(5))):
        for t in types:
            row("partition %d: type %d %s" % (n, t, a), ("type", n, a, t))
    for p, what in SINGLE.items():
        for a in ("write", "read"):
            row("partition %d: single row %s %s" % (n, a, what), ("pattern", n, a, p))
lines.append(("elapsed / T: %s %.2f, original %.2f" % (
    side, statistics.median(te_p.values()) / T, statistics.median(te_o.values()) / T),
    "%.1f s" % statistics.median(te_p.values()), "%.1f s" % statistics.median(te_o.values()),
    "%.3f" % statistics.median(te_p[r] / te_o[r] for r in te_p),
    "%.0f%%" % (100 * (max(te_o.values()) - min(te_o.values())) / statistics.median(te_o.values())),
    "within 10%" if abs(statistics.median(te_p[r] / te_o[r] for r in te_p) - 1) <= 0.10 else "OFF"))

print()
if self_test:
    print("The original against itself: A = its first run of each round, B = its second")
print("Medians over %d interleaved rounds; MB/s = 10^6 B/s; ratio = median of %s/original per "
      "round; spread = the original's own (max - min) / median over the rounds (its noise)"
      % (rounds, side))
w = max(len(l[0]) for l in lines)
print("%-*s %12s %12s %8s %8s  %s" % (w, "figure", side, "original", "ratio", "spread", "verdict"))
for l in lines:
    print("%-*s %12s %12s %8s %8s  %s" % (w, *l))
off = [l[0] for l in lines if l[5].startswith("OFF")]
print()
# pbench's time guard (issue 14) is the one deliberate difference that changes what is measured:
# a row it cuts is not the original's row.
for r in sorted(cuts):
    print("round %d: pbench's time guard cut %s" % (r, ", ".join(cuts[r]) if cuts[r] else "no row"))
print("%d of %d figures within 10%%%s" % (len(lines) - len(off), len(lines),
      "" if not off else "; off: " + ", ".join(x.strip() for x in off)))
PY
