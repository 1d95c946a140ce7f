#!/usr/bin/env python3
"""The fat-tree tables of docs/results.md: every member of the
fat-tree family (the weighted-path paper's seven steps and the baselines
ECMP, D-mod-k, DRILL) on a preset, over seeds 1-5 (seed s = the switches'
seed in the topology spec and the requests' seed), as mean and 95%
confidence interval (Student t, 4 degrees of freedom) per metric, then
per seed for the baselines.

    cargo build --release --no-default-features
    python3 scripts/fattree-results.py [PRESET] [BINARY] [--set key=value ...]

PRESET defaults to assets/scenarios/fattree-greedy.json, BINARY to
target/release/routelab; --set overrides a scenario field (JSON value),
e.g. --set load=7 or --set topology='"fattree:4:hetero=paper:k_level..."'.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

T95 = 2.776  # Student t, 4 degrees of freedom, two-sided 95%


def main():
    args = [a for a in sys.argv[1:]]
    sets = {}
    while "--set" in args:
        i = args.index("--set")
        k, v = args[i + 1].split("=", 1)
        sets[k] = json.loads(v)
        del args[i : i + 2]
    preset = args[0] if args else "assets/scenarios/fattree-greedy.json"
    binary = args[1] if len(args) > 1 else os.environ.get("BIN", "target/release/routelab")
    base = json.load(open(preset))
    base.update(sets)
    topo = base["topology"]
    assert ":seed=" in topo, topo
    prefix = topo[: topo.rindex(":seed=")]
    rows = {}
    failed = {}
    for seed in range(1, 6):
        sc = dict(base, topology="%s:seed=%d" % (prefix, seed), seed=seed)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(sc, f)
            name = f.name
        p = subprocess.run(
            [binary, "sim", "--scenario", name, "--compare", "--json"],
            capture_output=True,
            text=True,
        )
        os.unlink(name)
        if not p.stdout:
            sys.exit(p.stderr)
        out = json.loads(p.stdout)
        for r in out["runs"]:
            rows.setdefault(r["routing"], {})[seed] = r
        for r in out.get("failed", []):
            failed.setdefault(r["routing"], {})[seed] = r["error"]
    order = list(rows) + [r for r in failed if r not in rows]
    print("preset %s, load %s, %s, R %s, D %s; seeds 1-5 (switches and requests)\n"
          % (preset, base["load"], prefix, base.get("admit_slices", 0), base.get("deadline_slices", 20)))
    print("| routing | success % | avg latency | max latency | refused / slice | runs |")
    print("|---|---|---|---|---|---|")
    for r in order:
        runs = rows.get(r, {})
        def ci(f):
            xs = [f(x) for x in runs.values()]
            if not xs:
                return "-"
            m = sum(xs) / len(xs)
            if len(xs) < 2:
                return "%.2f" % m
            sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
            return "%.2f ± %.2f" % (m, T95 * sd / math.sqrt(len(xs)))
        slices = lambda x: max(1, x["measured_cycles"])
        print("| %s | %s | %s | %s | %s | %d of 5%s |" % (
            r,
            ci(lambda x: 100 * x["success_rate"]),
            ci(lambda x: x["avg_latency"]),
            ci(lambda x: x["max_latency"]),
            ci(lambda x: x["refused_transmissions"] / slices(x)),
            len(runs),
            "" if r not in failed else "; stopped: " + "; ".join(
                "seed %d %s" % (s, e.split(":")[0]) for s, e in sorted(failed[r].items())),
        ))
    print("\nper seed: success % / avg latency / max latency\n")
    print("| routing | " + " | ".join("seed %d" % s for s in range(1, 6)) + " |")
    print("|---|" + "---|" * 5)
    for r in order:
        cells = []
        for s in range(1, 6):
            x = rows.get(r, {}).get(s)
            cells.append("stopped" if x is None else "%.2f / %.2f / %d" % (
                100 * x["success_rate"], x["avg_latency"], x["max_latency"]))
        print("| %s | %s |" % (r, " | ".join(cells)))


main()
