#!/usr/bin/env python3
"""Checks that report figures are drawn for the page: each SVG at least --min-width px wide and
every font size in it at least --min-font px (gnuplot writes font-size attributes); with
--hollow, that the figure draws hollow markers (gnuplot's point type 6) and has the key entry
"not valid (hollow marker)"; with --no-hollow, that it has neither.
Usage: svg_check.py [--min-width N] [--min-font N] [--hollow | --no-hollow] FILE...
"""
import argparse
import re
import xml.etree.ElementTree as ET

KEY = "not valid (hollow marker)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--min-width", type=float, default=1200)
    ap.add_argument("--min-font", type=float, default=14)
    ap.add_argument("--hollow", action="store_true")
    ap.add_argument("--no-hollow", action="store_true")
    a = ap.parse_args()
    for path in a.files:
        root = ET.parse(path).getroot()
        width = float(re.match(r"[0-9.]+", root.get("width", "0")).group(0))
        assert width >= a.min_width, (path, "width", width)
        sizes = []
        for e in root.iter():
            if e.get("font-size"):
                sizes.append(float(re.match(r"[0-9.]+", e.get("font-size")).group(0)))
            for m in re.finditer(r"font-size:\s*([0-9.]+)", e.get("style", "")):
                sizes.append(float(m.group(1)))
        assert sizes, (path, "no font size in the SVG")
        assert min(sizes) >= a.min_font, (path, "font sizes", sorted(set(sizes)))
        text = open(path, encoding="utf-8").read()
        hollow = "#gpPt6" in text and KEY in text
        if a.hollow:
            assert hollow, (path, "no hollow marker or no key entry for not valid points")
        if a.no_hollow:
            assert "#gpPt6" not in text and KEY not in text, (path, "hollow markers drawn")
        print(f"{path}: {width:g} px wide, fonts {min(sizes):g}-{max(sizes):g} px"
              + (", hollow markers" if hollow else ""))


if __name__ == "__main__":
    main()
