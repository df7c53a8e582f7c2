#!/usr/bin/env python3
"""Checks a pbench report against the rules its figures and tables follow (docs/user-guide.md,
"How the figures and tables read"; orchestrator/report/FigureRules.hpp), as headless Chromium
lays them out: every SVG of DIR is inlined into one page whose script measures, with the
browser's own text metrics, each panel's plot area (gnuplot's border), each key entry's box and
colour, each marker and each tic label; DIR/index.html is measured likewise for its tables.
The rules checked:
  units      no tic label in e-notation; no axis in base units (B/s, s/B, s below a second);
  axis kind  a linear axis whose markers span two decades or more fails (it must be log);
  hollow     not valid points are hollow markers with the key entry "not valid (hollow
             marker)", never a filled series of their own ("not valid, ..."); --hollow FILE:
             that figure has hollow markers;
  runs       the history figures' run tics are whole numbers;
  legends    no key entry intersects a plot area, and every key entry and marker lies within
             the SVG (nothing clipped);
  colours    --env LABEL (twice or more): in each figure, the key entries of different
             environments have different colours;
  tables     every table's box lies within the page (at most 1,260 px wide) and a table wider
             than its box scrolls with its first (key) column kept (position: sticky).
Prints what it measured per figure; exits 1 on the first failure, naming the figure and rule.
Usage: figure_rules.py DIR [--env LABEL]... [--hollow FILE]... [--shots DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

KEY = "not valid (hollow marker)"
# gnuplot's SVG ids of its hollow point types 4, 6, 8, 10, 12, 14 (pt N is #gpPt(N-1)).
HOLLOW = {"gpPt3", "gpPt5", "gpPt7", "gpPt9", "gpPt11", "gpPt13"}

MEASURE_SVG = r"""
<script>
const out = [];
const num = s => parseFloat(s);
for (const box of document.querySelectorAll('div.fig')) {
  const svg = box.querySelector('svg');
  const origin = svg.getBoundingClientRect();
  const rel = r => ({x0: r.left - origin.left, y0: r.top - origin.top,
                     x1: r.right - origin.left, y1: r.bottom - origin.top});
  const f = {name: box.dataset.name, w: origin.width, h: origin.height, rects: [], keys: [],
             marks: [], tics: [], labels: []};
  const border = /^M([\d.]+),([\d.]+) L([\d.]+),([\d.]+) L([\d.]+),([\d.]+) L([\d.]+),([\d.]+) L([\d.]+),([\d.]+) Z/;
  for (const p of svg.querySelectorAll('path')) {
    const m = (p.getAttribute('d') || '').trim().match(border);
    if (m && m[1] === m[3] && m[4] === m[6] && m[5] === m[7] && m[8] === m[2])
      f.rects.push({x0: num(m[1]), y0: num(m[2]), x1: num(m[5]), y1: num(m[4])});
  }
  f.grid = [];
  const line = /^M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)\s*$/;
  for (const p of svg.querySelectorAll('path.gridline')) {
    const m = (p.getAttribute('d') || '').trim().match(line);
    if (m && m[2] === m[4]) f.grid.push({x0: num(m[1]), x1: num(m[3]), y: num(m[2])});
  }
  const inPlot = new Set();
  for (const g of svg.querySelectorAll('g[id^="gnuplot_plot_"]')) {
    const texts = g.querySelectorAll('text');
    if (texts.length === 1) {
      const t = texts[0];
      let colour = '';
      for (const e of g.querySelectorAll('path, use')) {
        colour = e.getAttribute('color') || e.getAttribute('stroke') || '';
        if (colour && colour !== 'currentColor') break;
      }
      f.keys.push(Object.assign({text: t.textContent, colour: colour.replace(/\s/g, '')},
                                rel(t.getBoundingClientRect())));
    }
    for (const t of texts) inPlot.add(t);
    for (const u of g.querySelectorAll('use')) {
      const m = (u.getAttribute('transform') || '').match(/translate\(([-\d.]+),([-\d.]+)\)/);
      if (!m) continue;
      f.marks.push({href: (u.getAttribute('xlink:href') || u.getAttribute('href') || '').slice(1),
                    x: num(m[1]), y: num(m[2]),
                    colour: (u.getAttribute('color') || '').replace(/\s/g, '')});
    }
  }
  for (const t of svg.querySelectorAll('text')) {
    if (inPlot.has(t)) continue;
    const r = rel(t.getBoundingClientRect());
    f.labels.push(Object.assign({text: t.textContent.trim()}, r));
  }
  out.push(f);
}
document.getElementById('measured').textContent = JSON.stringify(out);
</script>
"""

MEASURE_TABLES = r"""
<script>
const out = {body: document.body.getBoundingClientRect().width, tables: []};
for (const box of document.querySelectorAll('div.table')) {
  const r = box.getBoundingClientRect(), table = box.querySelector('table');
  const first = table.querySelector('td, th');
  out.tables.push({right: r.right, left: r.left, width: r.width,
                   content: table.scrollWidth, room: box.clientWidth,
                   sticky: first ? getComputedStyle(first).position : '',
                   head: first ? first.textContent : ''});
}
out.pageRight = document.body.getBoundingClientRect().right;
const pre = document.createElement('pre');
pre.id = 'measured';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>
"""


def chromium_dom(page, width, work):
    profile = os.path.join(work, "profile")
    os.makedirs(profile, exist_ok=True)
    run = subprocess.run(
        ["timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
         "--user-data-dir=" + profile, "--window-size=%d,2000" % width, "--dump-dom",
         "file://" + os.path.realpath(page)], capture_output=True, text=True)
    m = re.search(r'<pre id="measured">(.*?)</pre>', run.stdout, re.S)
    if not m:
        sys.exit("FAIL: chromium measured nothing in %s: %s" % (page, run.stderr[-2000:]))
    text = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    return json.loads(text.replace("&amp;", "&"))


def fail(figure, rule, what):
    sys.exit("FAIL: %s: %s: %s" % (figure, rule, what))


def overlaps(a, b):
    return a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"]


def number(text):
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None


def check_axis(f, rect):
    """The y tics left of the plot area: e-notation, and a linear axis over decades."""
    tics = []
    for t in f["labels"]:
        cy = (t["y0"] + t["y1"]) / 2
        if t["x1"] <= rect["x0"] + 1 and rect["y0"] - 4 <= cy <= rect["y1"] + 4:
            if re.search(r"[0-9]e[+-]?[0-9]", t["text"]):
                fail(f["name"], "units", "tic label in e-notation: " + t["text"])
            v = number(t["text"])
            if v is not None:
                tics.append((cy, v))
    tics.sort()
    if len(tics) < 3:
        return "?"
    values = [v for _, v in tics]
    steps = [values[i] - values[i + 1] for i in range(len(values) - 1)]
    linear = max(steps) - min(steps) <= 1e-6 * max(abs(s) for s in steps)
    if not linear:
        return "log"
    # The tics' own heights: the horizontal grid lines across the plot area (a label's centre
    # sits a little off its tic).
    grid = sorted({round(g["y"], 2) for g in f["grid"] if abs(g["x0"] - rect["x0"]) < 1
                   and rect["y0"] - 0.5 <= g["y"] <= rect["y1"] + 0.5})
    if len(grid) == len(tics):
        tics = [(y, v) for y, (_, v) in zip(grid, tics)]
    (y_a, v_a), (y_b, v_b) = tics[0], tics[-1]
    marks = [m for m in f["marks"] if rect["x0"] <= m["x"] <= rect["x1"]
             and rect["y0"] <= m["y"] <= rect["y1"]]
    drawn = [v_a + (m["y"] - y_a) * (v_b - v_a) / (y_b - y_a) for m in marks]
    positive = [v for v in drawn if v > 0]
    if positive and max(positive) >= 100 * min(positive):
        fail(f["name"], "axis kind", "a linear axis over %.3g to %.3g (two decades or more): "
             "it must be logarithmic" % (min(positive), max(positive)))
    return "linear"


def check_figure(f, envs, hollow_wanted):
    name = f["name"]
    if not f["rects"]:
        fail(name, "legends", "no plot area found")
    for t in f["labels"]:
        if re.search(r"\[(B/s|s/B)\]", t["text"]):
            fail(name, "units", "an axis in base units: " + t["text"])
    kinds = [check_axis(f, r) for r in f["rects"]]
    for k in f["keys"]:
        for r in f["rects"]:
            if overlaps(k, r):
                fail(name, "legends", "key entry '%s' over a plot area %s" % (k["text"], r))
        if k["x0"] < -0.5 or k["x1"] > f["w"] + 0.5 or k["y0"] < -0.5 or k["y1"] > f["h"] + 0.5:
            fail(name, "legends", "key entry '%s' clipped at the SVG's edge" % k["text"])
        if k["text"].startswith("not valid") and k["text"] != KEY:
            fail(name, "hollow", "a series of not valid points of its own: " + k["text"])
    for m in f["marks"]:
        if not (0 <= m["x"] <= f["w"] and 0 <= m["y"] <= f["h"]):
            fail(name, "legends", "a marker outside the SVG at %g,%g" % (m["x"], m["y"]))
    hollow = [m for m in f["marks"] if m["href"] in HOLLOW]
    keyed = any(k["text"] == KEY for k in f["keys"])
    if hollow and not keyed:
        fail(name, "hollow", "hollow markers without the key entry")
    if keyed and not hollow:
        fail(name, "hollow", "the key says not valid points are hollow, none is")
    if hollow_wanted and not hollow:
        fail(name, "hollow", "no hollow marker for the not valid results")
    if name.startswith("history-"):
        for r in f["rects"]:
            for t in f["labels"]:
                if t["y0"] >= r["y1"] - 1 and t["y0"] <= r["y1"] + 40 and \
                        r["x0"] - 30 <= t["x0"] <= r["x1"] + 30:
                    v = number(t["text"])
                    if v is not None and v != round(v):
                        fail(name, "runs", "a run tic between runs: " + t["text"])
    colours = {}
    for env in envs:
        # A key entry whose sample has no colour the SVG states (an empty text) says nothing of
        # its environment's colour.
        colours[env] = {k["colour"] for k in f["keys"] if k["colour"] and (k["text"] == env or
                        k["text"].endswith(", " + env) or (", " + env + ",") in k["text"])}
    named = [e for e in envs if colours[e]]
    for i, a in enumerate(named):
        for b in named[i + 1:]:
            if colours[a] & colours[b]:
                fail(name, "colours", "environments %s and %s share %s" %
                     (a, b, sorted(colours[a] & colours[b])))
    print("%s: %d panels (%s), %d key entries, %d markers (%d hollow)%s" % (
        name, len(f["rects"]), ", ".join(kinds), len(f["keys"]), len(f["marks"]), len(hollow),
        "; environments " + ", ".join("%s %s" % (e, "/".join(sorted(colours[e])))
                                      for e in named) if named else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--hollow", action="append", default=[])
    a = ap.parse_args()
    svgs = sorted(n for n in os.listdir(a.dir) if n.endswith(".svg"))
    with tempfile.TemporaryDirectory() as work:
        page = os.path.join(work, "figures.html")
        with open(page, "w", encoding="utf-8") as out:
            out.write("<!DOCTYPE html><html><body style='margin:0'>")
            for n in svgs:
                svg = open(os.path.join(a.dir, n), encoding="utf-8").read()
                svg = svg[svg.index("<svg"):]
                out.write("<div class='fig' data-name='%s'>%s</div>" % (n[:-4], svg))
            out.write("<pre id='measured'></pre>" + MEASURE_SVG + "</body></html>")
        figures = chromium_dom(page, 1400, work) if svgs else []
        for f in figures:
            check_figure(f, a.env, f["name"] + ".svg" in a.hollow)
        for h in a.hollow:
            if h[:-4] not in [f["name"] for f in figures]:
                fail(h, "hollow", "no such figure")
        index = os.path.join(a.dir, "index.html")
        measured_page = os.path.join(a.dir, ".measure-tables.html")
        html = open(index, encoding="utf-8").read()
        with open(measured_page, "w", encoding="utf-8") as out:
            out.write(html.replace("</body>", MEASURE_TABLES + "</body>"))
        try:
            tables = chromium_dom(measured_page, 1400, work)
        finally:
            os.remove(measured_page)
    if tables["body"] > 1260.5:
        fail("index.html", "tables", "the page is %g px wide" % tables["body"])
    for i, t in enumerate(tables["tables"]):
        if t["right"] > tables["pageRight"] + 0.5:
            fail("index.html", "tables", "table %d (%s...) ends at %g px, past the page's %g" %
                 (i + 1, t["head"], t["right"], tables["pageRight"]))
        if t["content"] > t["room"] + 1 and t["sticky"] != "sticky":
            fail("index.html", "tables", "table %d scrolls without its key column kept" % (i + 1))
    wide = sum(1 for t in tables["tables"] if t["content"] > t["room"] + 1)
    print("index.html: %d tables within %g px, %d of them scrolling with the key column kept" %
          (len(tables["tables"]), tables["body"], wide))


if __name__ == "__main__":
    main()
