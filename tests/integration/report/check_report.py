#!/usr/bin/env python3
"""Checks a pbench report directory: index.html parses, every <img> it references exists and
is a well-formed SVG, every SVG in the directory is referenced, and prints the figures found.
With --sections ID,ID,...: the page's sections (level-2 headings with an id) are exactly these,
in this order, and its table of contents links to each of them (every link of the contents
leads to a section or a figure). --expect-header LABEL: the provenance header has a row LABEL
with some text. --no-data-count N: exactly N "no data" notes.
Usage: check_report.py DIR [--expect-figure NAME]... [--expect-no-data TEXT]... [--no-figure PREFIX]...
       [--sections IDS] [--expect-header LABEL]... [--no-data-count N]
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.no_data, self._in_no_data, self.text = [], [], False, []
        self.sections, self.links, self.header, self._in, self._dt = [], [], {}, None, None
        self._nav = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs.get("src"))
        if tag == "p" and attrs.get("class") == "no-data":
            self._in_no_data = True
            self.no_data.append("")
        if tag == "h2" and attrs.get("id"):
            self.sections.append(attrs["id"])
        if tag == "nav":
            self._nav = True
        if tag == "a" and self._nav and attrs.get("href", "").startswith("#"):
            self.links.append(attrs["href"][1:])
        if tag in ("dt", "dd"):
            self._in = tag
            if tag == "dt":
                self._dt = ""

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_no_data = False
        if tag == "nav":
            self._nav = False
        if tag in ("dt", "dd"):
            self._in = None

    def handle_data(self, data):
        self.text.append(data)
        if self._in == "dt":
            self._dt += data
        elif self._in == "dd" and self._dt is not None:
            self.header[self._dt] = self.header.get(self._dt, "") + data
        if self._in_no_data:
            self.no_data[-1] += data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--expect-figure", action="append", default=[])
    ap.add_argument("--expect-no-data", action="append", default=[])
    ap.add_argument("--no-figure", action="append", default=[])
    ap.add_argument("--expect-text", action="append", default=[])
    ap.add_argument("--sections")
    ap.add_argument("--expect-header", action="append", default=[])
    ap.add_argument("--no-data-count", type=int)
    a = ap.parse_args()
    index = os.path.join(a.dir, "index.html")
    page = Page()
    with open(index, encoding="utf-8") as f:
        page.feed(f.read())
    svgs = sorted(n for n in os.listdir(a.dir) if n.endswith(".svg"))
    for src in page.images:
        assert src and "/" not in src and src.endswith(".svg"), ("unexpected img src", src)
        path = os.path.join(a.dir, src)
        assert os.path.isfile(path), ("referenced file missing", src)
        root = ET.parse(path).getroot()  # raises on a malformed SVG
        assert root.tag.endswith("svg"), (src, root.tag)
        paths = [e for e in root.iter() if e.tag.endswith("path")]
        assert paths, ("SVG without any drawn path", src)
    assert sorted(page.images) == svgs, ("SVGs not referenced or missing", page.images, svgs)
    for name in a.expect_figure:
        assert name in page.images, ("figure missing", name, page.images)
    for prefix in a.no_figure:
        drawn = [i for i in page.images if i.startswith(prefix)]
        assert not drawn, ("figure drawn without data", prefix, drawn)
    for text in a.expect_no_data:
        assert any(text in n for n in page.no_data), ("no 'no data' note", text, page.no_data)
    text = "".join(page.text)
    for t in a.expect_text:
        assert t in text, ("text missing from the page", t)
    if a.sections is not None:
        want = a.sections.split(",")
        assert page.sections == want, ("sections", page.sections, "expected", want)
        assert [l for l in page.links if l in page.sections] == want, ("contents", page.links)
    for label in a.expect_header:
        assert page.header.get(label, "").strip(), ("header row missing or empty", label,
                                                    page.header)
    if a.no_data_count is not None:
        assert len(page.no_data) == a.no_data_count, ("'no data' notes", page.no_data)
    ids = set(page.sections) | {i[:-4] for i in page.images}
    for link in page.links:
        assert link in ids, ("a contents link to nothing", link)
    print("sections:", " ".join(page.sections))
    print("figures:", " ".join(page.images))
    print("no data:", len(page.no_data))


if __name__ == "__main__":
    main()
