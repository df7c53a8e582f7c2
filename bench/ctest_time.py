#!/usr/bin/env python3
"""Where the test suite's time goes, from a ctest console log (what scripts/test prints).

Usage: bench/ctest_time.py LOG [--top N]

ctest -j prints "Start N: name" when a test starts and "i/n Test #N: name ... Passed x sec" when
it ends, in that order, without clock times: the schedule is rebuilt from the order (a test
starts when the one before it in the log ended or started) and the durations. Prints the wall
time, the sum of the tests' times, the time spent with 1, 2, 3... tests running (with RUN_SERIAL
tests, the time with one running is mostly theirs), the serial tests' sum (label measures and
slurm: time_limits, read from tests/CMakeLists.txt beside this script), the bound
serial + rest / 3 for three at a time, and the N longest tests with their start and end.
Figures, never a verdict: bench/README.md ("The test suite's time") keeps them.
"""
import argparse
import os
import re
import sys

DONE = re.compile(r"^\s*\d+/\d+ Test\s+#\d+: (.*?) \.+\s*(?:\*+)?\w[\w ]*?\s+([\d.]+) sec")
START = re.compile(r"^\s*Start\s+\d+: (.*)$")


def serial_tests():
    """The names tests/CMakeLists.txt runs alone (measuring_tests and time_limit_tests)."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "..", "tests", "CMakeLists.txt")).read()
    names = set()
    for block in re.findall(r"set\((?:measuring_tests|time_limit_tests)\s+(.*?)\)", text, re.S):
        names.update(re.findall(r'"([^"]+)"', block))
    # A measures test declared in an area file (RUN_SERIAL TRUE beside its own LABELS).
    tests_dir = os.path.join(here, "..", "tests")
    for name in sorted(os.listdir(tests_dir)):
        if name.endswith(".cmake"):
            area = open(os.path.join(tests_dir, name)).read()
            for test in re.findall(r'set_tests_properties\("([^"]+)"[^)]*RUN_SERIAL TRUE', area):
                names.add(test)
    return names


def schedule(path):
    """Start, end and duration of every test of the first ctest run in the log."""
    now, start, end, took = 0.0, {}, {}, {}
    for line in open(path, errors="replace"):
        if "Total Test time" in line:
            break
        m = START.match(line)
        if m:
            start[m.group(1).strip()] = now
            continue
        m = DONE.match(line)
        if m:
            name, seconds = m.group(1), float(m.group(2))
            took[name] = seconds
            now = max(now, start.get(name, now) + seconds)
            end[name] = now
            start.setdefault(name, now - seconds)
    return start, end, took


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    start, end, took = schedule(args.log)
    if not took:
        sys.exit(f"{args.log}: no ctest results in it (a console log of ctest -j, please)")
    events = sorted([(start[n], 1) for n in end] + [(end[n], -1) for n in end])
    running, last, spent = 0, 0.0, {}
    for at, step in events:
        spent[running] = spent.get(running, 0.0) + at - last
        last, running = at, running + step
    wall = max(end.values())
    total = sum(took.values())
    serial = sum(took.get(n, 0.0) for n in serial_tests())
    print(f"{args.log}: {len(took)} tests, wall {wall:.0f} s, sum {total:.0f} s")
    print("time with k tests running: " +
          ", ".join(f"{k}: {v:.0f} s" for k, v in sorted(spent.items()) if k and v >= 0.5))
    print(f"run alone (RUN_SERIAL): {serial:.0f} s; serial + rest / 3 = "
          f"{serial + (total - serial) / 3:.0f} s")
    print(f"the {args.top} longest (start, end, seconds):")
    for name in sorted(took, key=took.get, reverse=True)[:args.top]:
        print(f"  {start[name]:6.0f} {end[name]:6.0f} {took[name]:7.1f}  {name}")


if __name__ == "__main__":
    main()
