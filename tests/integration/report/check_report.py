#!/usr/bin/env python3
"""Checks a pbench report directory: index.html parses, every <img> it references exists and
is a well-formed SVG, every SVG in the directory is referenced, and prints the figures found.
Usage: check_report.py DIR [--expect-figure NAME]... [--expect-no-data TEXT]... [--no-figure PREFIX]...
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

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append(attrs.get("src"))
        if tag == "p" and attrs.get("class") == "no-data":
            self._in_no_data = True
            self.no_data.append("")

    def handle_endtag(self, tag):
        if tag == "p":
            self._in_no_data = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_no_data:
            self.no_data[-1] += data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--expect-figure", action="append", default=[])
    ap.add_argument("--expect-no-data", action="append", default=[])
    ap.add_argument("--no-figure", action="append", default=[])
    ap.add_argument("--expect-text", action="append", default=[])
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
    print("figures:", " ".join(page.images))
    print("no data:", len(page.no_data))


if __name__ == "__main__":
    main()
