#!/usr/bin/env python3
"""The monitoring test's reading of Prometheus's HTTP API against pbench's exports.
  prometheus_api.py API holds EXPORT [--why]
      exit 0 when Prometheus's latest OL (pbench_headline_seconds, figure bcast_ol) of every
      environment, from node_exporter (job node) and from the Pushgateway (job pbench), is the
      export's value
  prometheus_api.py API firing
      exit 0 when PbenchOlRegressed fires for env a from both sources
  prometheus_api.py API verify START EXPORT1 EXPORT2 EXPORT3 RECEIVED BEFORE
      the exports have the same series; Prometheus has exactly those series since START from
      each source (none new per run); each env's one OL series holds every night's value; the
      alert PbenchOlRegressed fires for env a from both sources, and reached the receiver
      (RECEIVED: one notification per line, the first BEFORE of them before night 3) after
      night 3 with the sweep, figure and env labels"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
OL = 'pbench_headline_seconds{figure="bcast_ol",job="%s"}'
SOURCES = ("node", "pbench")  # node_exporter's textfile collector; the Pushgateway's group


def unescape(value):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def series_of(path):
    """{(family, frozenset(labels without empty values)): value} of an export."""
    out = {}
    for line in open(path, encoding="utf-8"):
        m = SAMPLE.match(line.strip())
        if not m:
            continue
        labels = {k: unescape(v) for k, v in LABEL.findall(m.group(2)) if v != ""}
        labels["__name__"] = m.group(1)
        out[frozenset(labels.items())] = float(m.group(3))
    return out


def get(api, path, **params):
    url = f"{api}/{path}?{urllib.parse.urlencode(params, doseq=True)}"
    with urllib.request.urlopen(url, timeout=10) as response:
        body = json.load(response)
    assert body["status"] == "success", body
    return body["data"]


def ol_values(export):
    return {dict(k)["env"]: v for k, v in series_of(export).items()
            if dict(k)["__name__"] == "pbench_headline_seconds" and dict(k).get("figure") == "bcast_ol"}


def holds(api, export, why):
    want = ol_values(export)
    assert set(want) == {"a", "b"}, f"{export}: OL of environments {sorted(want)}, expected a and b"
    for job in SOURCES:
        got = {r["metric"]["env"]: float(r["value"][1])
               for r in get(api, "query", query=OL % job)["result"]}
        if got != want:
            if why:
                print(f"job {job}: Prometheus has {got}, the export {want}")
            return False
    return True


def own_labels(metric):
    return frozenset((k, v) for k, v in metric.items() if k not in ("job", "instance"))


def verify(api, start, exports, received, received_before):
    nights = [series_of(e) for e in exports]
    keys = set(nights[0])
    for e, night in zip(exports[1:], nights[1:]):
        assert set(night) == keys, f"{e}: other series than {exports[0]}: {set(night) ^ keys}"
    now = time.time()
    for job in SOURCES:
        found = get(api, "series", **{"match[]": '{__name__=~"pbench_.+",job="%s"}' % job},
                    start=start, end=now)
        got = {own_labels(m) for m in found}
        assert len(found) == len(got) == len(keys) and got == keys, (
            f"job {job}: {len(found)} series in Prometheus since the first night, the exports "
            f"{len(keys)}: not in the exports {sorted(map(sorted, got - keys))[:3]}, missing "
            f"{sorted(map(sorted, keys - got))[:3]}")
        # The range ends a step past now: its points are start + k s, and a sample scraped less
        # than a step before now can fall between the last point and now (a night-3 value held by
        # an instant query was missing from the range, CI of aeaa79c). A point past the last
        # sample reads that sample, as an instant query does.
        matrix = get(api, "query_range", query=OL % job, start=start, end=now + 1,
                     step=1)["result"]
        assert sorted(r["metric"]["env"] for r in matrix) == ["a", "b"], matrix
        for r in matrix:
            values = {float(v) for _, v in r["values"]}
            env = r["metric"]["env"]
            for e in exports:
                assert ol_values(e)[env] in values, (
                    f"job {job} env {env}: {e}'s OL {ol_values(e)[env]} is not in its one series "
                    f"({sorted(values)})")
    night3 = ol_values(exports[2])
    assert night3["a"] > 5 * ol_values(exports[0])["a"], f"night 3 not regressed: {night3}"
    assert firing_everywhere(api), f"PbenchOlRegressed firing: {get(api, 'alerts')['alerts']}"
    delivered = []
    for number, line in enumerate(open(received, encoding="utf-8")):
        for alert in json.loads(line)["alerts"]:
            labels = alert["labels"]
            if labels.get("alertname") != "PbenchOlRegressed":
                continue
            assert (labels.get("sweep"), labels.get("figure")) == ("nightly", "bcast_ol") and \
                labels.get("env") in ("a", "b"), f"delivered: {alert}"
            if number >= received_before and labels["env"] == "a" and alert["status"] == "firing":
                delivered.append(alert)
    assert delivered, f"no PbenchOlRegressed of env a reached the receiver after night 3"
    print(f"{len(keys)} series, one each across 3 nights from {len(SOURCES)} sources; "
          f"PbenchOlRegressed delivered {len(delivered)} time(s): {delivered[0]['annotations']}")


def firing_everywhere(api):
    """Whether PbenchOlRegressed fires for env a from every source."""
    firing = {(a["labels"]["env"], a["labels"]["job"]) for a in get(api, "alerts")["alerts"]
              if a["labels"]["alertname"] == "PbenchOlRegressed" and a["state"] == "firing"}
    return {("a", job) for job in SOURCES} <= firing


def main():
    api, command = sys.argv[1], sys.argv[2]
    if command == "holds":
        sys.exit(0 if holds(api, sys.argv[3], "--why" in sys.argv) else 1)
    if command == "firing":
        sys.exit(0 if firing_everywhere(api) else 1)
    try:
        verify(api, float(sys.argv[3]), sys.argv[4:7], sys.argv[7], int(sys.argv[8]))
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
