#!/usr/bin/env python3
"""tau for DRB's threshold latency: the knee of a DOR sweep (Franco et al. §2:
"the point of the curve with the minimum radius of curvature").

Reads `routelab sweep --json` of DOR under uniform traffic on stdin (with
--pair-stats, for the network latency). The curve is x = offered load as a
fraction of capacity, y = average latency over the zero-load latency L0 (the
latency at the lowest load swept), over the unsaturated points; tau =
y(knee) - 1, so DRB's threshold is ThL = L_c (1 + tau). Four readings of the
knee (`--reading`; every reading's knee is in the output's "readings"):

  double      (the default since 2026-11-26) the knee is the load at which
              the average latency reaches twice its zero-load value
              (interpolated): where a person puts it by eye, the flat part
              over and the steep one begun, and free of the axes' units. tau
              is read at that load on the latency DRB compares with ThL, the
              network latency (head injection to tail delivery,
              `latency=network`: the average latency less the wait in the
              source queue, from the sweep's paper metrics): tau = network
              latency at the knee / network latency at the lowest load - 1
              ("tau_total" = 1 by construction is the reading for
              `latency=total`). Without paper metrics in the sweep, tau = 1.
  asymptotes  the intersection of the low-load asymptote (the line fitted by
              least squares to the LOW lowest-load points) and the high-load
              asymptote (the line through the last HIGH unsaturated points);
              the knee is the curve at that load (interpolated). The last
              points are nearly vertical, so it lands close to saturation.
  curvature   the point of largest curvature k = |y''| / (1 + y'^2)^(3/2),
              y' and y'' from a quadratic fitted by least squares to the
              points within HALF of each point (routelab before 2026-11-26).
              With y in units of L0 and x in units of capacity the slopes
              are small everywhere below saturation, so k follows |y''|,
              which is largest at the lowest loads: the knee lands there.
  log         the same on ln y (the curvature of log latency): it lands at
              the lowest loads too.
Prints one JSON object with every point's x, y, y', y'' and k too.
"""
import argparse
import json
import math
import sys

HALF = 5
LOW = 5
HIGH = 3

ap = argparse.ArgumentParser()
ap.add_argument("--reading", default="double",
                choices=["asymptotes", "curvature", "log", "double"])
reading = ap.parse_args().reading

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


def curvature(ys):
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
    return rows


def line(px, py):
    # Least-squares line y = a + b x.
    n = len(px)
    mx, my = sum(px) / n, sum(py) / n
    sxx = sum((x - mx) ** 2 for x in px)
    b = sum((x - mx) * (y - my) for x, y in zip(px, py)) / sxx if sxx else 0.0
    return my - b * mx, b


def at(x):
    # The curve (piecewise linear) at load x.
    for j in range(1, len(xs)):
        if xs[j] >= x:
            f = (x - xs[j - 1]) / (xs[j] - xs[j - 1])
            return ys[j - 1] + f * (ys[j] - ys[j - 1])
    return ys[-1]


rows = curvature(ys)
if not rows or len(xs) < LOW + HIGH:
    sys.exit(f"drb_knee.py: {len(pts)} unsaturated points in the sweep; the knee needs at "
             f"least {max(5, LOW + HIGH)}: sweep more loads below saturation, "
             "or run longer so that fewer points are flagged saturated")
readings = {}
k = max(rows, key=lambda r: r["k"])
readings["curvature"] = (k["x"], k["y"])
logs = curvature([math.log(y) for y in ys])
k = max(logs, key=lambda r: r["k"])
readings["log"] = (k["x"], round(math.exp(k["y"]), 4))
a0, b0 = line(xs[:LOW], ys[:LOW])
a1, b1 = line(xs[-HIGH:], ys[-HIGH:])
x = (a0 - a1) / (b1 - b0) if b1 != b0 else xs[-1]
x = min(max(x, xs[0]), xs[-1])
readings["asymptotes"] = (round(x, 4), round(at(x), 4))
double = next((j for j in range(1, len(xs)) if ys[j] >= 2), None)
if double is not None:
    f = (2 - ys[double - 1]) / (ys[double] - ys[double - 1])
    readings["double"] = (round(xs[double - 1] + f * (xs[double] - xs[double - 1]), 4), 2.0)
if reading not in readings:
    sys.exit(f"drb_knee.py: latency never reaches {reading!r}'s knee below saturation")
kx, ky = readings[reading]
tau = round(ky - 1, 3)
net = None
if reading == "double" and all("paper" in p for p in pts):
    # Network latency: the average less the wait in the source queue.
    nets = [p["avg_latency"] - (p["paper"]["wait_latency"] - p["paper"]["blocked_latency"])
            for p in pts]
    f = (kx - xs[double - 1]) / (xs[double] - xs[double - 1])
    at_knee = nets[double - 1] + f * (nets[double] - nets[double - 1])
    net = {"zero_load": round(nets[0], 2), "at_knee": round(at_knee, 2)}
    tau = round(at_knee / nets[0] - 1, 3)
print(json.dumps({
    "reading": reading,
    "zero_load_latency": round(l0, 2),
    "knee_load_fraction": kx,
    "knee_latency": round(ky * l0, 2),
    "tau": tau,
    "tau_total": round(ky - 1, 3),
    "network_latency": net,
    "readings": {r: {"knee_load_fraction": x, "knee_latency": round(y * l0, 2),
                     "tau": round(y - 1, 3)} for r, (x, y) in readings.items()},
    "curve": rows,
}))
