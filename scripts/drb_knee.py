#!/usr/bin/env python3
"""tau for DRB's threshold latency: the knee of a DOR sweep (Franco et al. §2:
"the point of the curve with the minimum radius of curvature").

Reads `routelab sweep --json` of DOR under uniform traffic on stdin. The curve
is x = offered load as a fraction of capacity, y = average latency over the
zero-load latency L0 (the latency at the lowest load swept), over the
unsaturated points. At every point a quadratic is fitted by least squares to
the points within HALF of it (a local, noise-robust estimate of y' and y''),
its curvature k = |y''| / (1 + y'^2)^(3/2) taken there; the knee is the point
of largest k and tau = y(knee) - 1, so DRB's threshold is ThL = L_c (1 + tau).
Prints one JSON object with every point's x, y, y', y'' and k too.
"""
import json
import sys

HALF = 5

d = json.load(sys.stdin)
pts = sorted((p for p in d["points"] if not p["saturated"]), key=lambda p: p["offered"])
cap = pts[0]["capacity"]
l0 = pts[0]["avg_latency"]
xs = [p["offered"] / cap for p in pts]
ys = [p["avg_latency"] / l0 for p in pts]


def solve3(m, v):
    # Gaussian elimination, 3x3.
    m = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(3):
            if r != c and m[c][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][3] / m[i][i] for i in range(3)]


rows = []
for i in range(len(xs)):
    lo, hi = max(0, i - HALF), min(len(xs), i + HALF + 1)
    # At least two points on either side (the ends are extrapolations).
    if i - lo < 2 or hi - 1 - i < 2:
        continue
    # y = c0 + c1 t + c2 t^2, t = x - x_i
    s = [[0.0] * 3 for _ in range(3)]
    v = [0.0] * 3
    for j in range(lo, hi):
        t = xs[j] - xs[i]
        b = [1.0, t, t * t]
        for r in range(3):
            v[r] += b[r] * ys[j]
            for c in range(3):
                s[r][c] += b[r] * b[c]
    c0, c1, c2 = solve3(s, v)
    y1, y2 = c1, 2 * c2
    k = abs(y2) / (1 + y1 * y1) ** 1.5
    rows.append({"x": round(xs[i], 4), "y": round(ys[i], 4), "dy": round(y1, 3),
                 "d2y": round(y2, 2), "k": round(k, 4)})
if not rows:
    sys.exit(f"drb_knee.py: {len(pts)} unsaturated points in the sweep; the knee needs at "
             "least 5 (two on either side of one): sweep more loads below saturation, "
             "or run longer so that fewer points are flagged saturated")
knee = max(rows, key=lambda r: r["k"])
print(json.dumps({
    "zero_load_latency": round(l0, 2),
    "knee_load_fraction": knee["x"],
    "knee_latency": round(knee["y"] * l0, 2),
    "tau": round(knee["y"] - 1, 3),
    "curve": rows,
}))
