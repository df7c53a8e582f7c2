#!/usr/bin/env python3
"""Decodes a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes them) with zlib alone
and checks it is not blank: many distinct colours, and a share of pixels off the background.
Usage: png_nonblank.py FILE"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = previous[x]
            c = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = pixels(sys.argv[1])
    counts = {}
    for line in rows:
        for x in range(0, len(line), bpp):
            p = line[x:x + 3]
            counts[p] = counts.get(p, 0) + 1
    background = max(counts, key=counts.get)
    off = width * height - counts[background]
    share = off / (width * height)
    print(f"{width}x{height}: {len(counts)} colours, {share:.1%} off the background")
    assert len(counts) >= 50, "too few colours: a blank page?"
    assert share >= 0.01, "almost every pixel is the background: a blank page?"


if __name__ == "__main__":
    main()
