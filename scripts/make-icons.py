#!/usr/bin/env python3
"""Draw routelab's app icons (web/icons/icon-192.png, icon-512.png and a
maskable 512 with a safe margin): a 4x4 torus, its wrap-around links
curving off the edges, one path highlighted hot. Pure Python (zlib), no
imaging library needed.

    python3 scripts/make-icons.py
"""
import math
import os
import struct
import zlib

BG = (18, 20, 26)
GRID = (90, 110, 140)
NODE = (200, 210, 225)
HOT = (240, 120, 40)


def png(path, w, h, pixels):
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def draw(size, margin):
    px = [[BG for _ in range(size)] for _ in range(size)]

    def disc(cx, cy, r, col):
        for y in range(max(0, int(cy - r - 1)), min(size, int(cy + r + 2))):
            for x in range(max(0, int(cx - r - 1)), min(size, int(cx + r + 2))):
                d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
                if d <= r:
                    px[y][x] = col

    def line(x0, y0, x1, y1, width, col):
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(n + 1):
            t = i / n
            disc(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, width / 2, col)

    k = 4
    lo, hi = margin + size * 0.16, size - margin - size * 0.16
    step = (hi - lo) / (k - 1)
    pos = [lo + i * step for i in range(k)]
    w = max(2.0, size / 48)
    for i in range(k):
        line(pos[0] - step * 0.45, pos[i], pos[-1] + step * 0.45, pos[i], w, GRID)
        line(pos[i], pos[0] - step * 0.45, pos[i], pos[-1] + step * 0.45, w, GRID)
    # A hot path: (0,0) -> (2,0) -> (2,3).
    line(pos[0], pos[0], pos[2], pos[0], w * 2.2, HOT)
    line(pos[2], pos[0], pos[2], pos[3], w * 2.2, HOT)
    for y in pos:
        for x in pos:
            disc(x, y, size / 22, NODE)
    return px


here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "icons")
os.makedirs(here, exist_ok=True)
for name, size, margin in [
    ("icon-192.png", 192, 0),
    ("icon-512.png", 512, 0),
    ("icon-maskable-512.png", 512, 512 * 0.1),
]:
    png(os.path.join(here, name), size, size, draw(size, margin))
    print("wrote", os.path.join("web", "icons", name))
