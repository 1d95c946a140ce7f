#!/usr/bin/env python3
"""Time two routelab binaries against each other on one `sim` scenario,
alternating runs (A B, then B A, ...) so that this machine's drift (up to
20 % from one minute to the next) falls on both alike. Prints each
binary's median and top-quartile mean of the cycles per second `sim`
reports, and the median of the pairwise ratios B/A (each run against the
other binary's run next to it), which is the figure to go by.

    python3 scripts/compare-binaries.py A B [RUNS] [-- SIM_ARGS...]

RUNS defaults to 25 (about a minute on `torus:8x8`). Without SIM_ARGS the
scenario is `torus:8x8`, DOR, uniform, one-flit packets, load 0.3, 1 000
warm-up and 40 000 measured cycles (the `engine` bench's case); with
them, `sim` gets exactly those. Use it for a change that instruction
counts (`scripts/callgrind-engine.sh`) cannot judge: one that trades
instructions for fewer mispredicted branches or cache misses
(docs/performance.md, "How to repeat them").
"""
import re
import statistics
import subprocess
import sys

DEFAULT = (
    "--topology torus:8x8 --routing dor --traffic uniform --packet-flits 1 "
    "--seed 1 --load 0.3 --warmup 1000 --cycles 40000"
).split()


def rate(binary, args):
    out = subprocess.run(
        [binary, "sim", *args], capture_output=True, text=True, check=False
    )
    m = re.search(r"= (\d+) cycles/s", out.stdout)
    if out.returncode != 0 or not m:
        sys.exit(f"{binary} sim {' '.join(args)} failed:\n{out.stderr}")
    return int(m.group(1))


def main():
    argv = sys.argv[1:]
    sim_args = DEFAULT
    if "--" in argv:
        k = argv.index("--")
        argv, sim_args = argv[:k], argv[k + 1 :]
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    a, b = argv[0], argv[1]
    runs = int(argv[2]) if len(argv) == 3 else 25
    if runs < 1:
        sys.exit("RUNS must be at least 1")
    # (By position, not by name: A and B may be the same binary, to see
    # the noise alone.)
    got = ([], [])
    for i in range(runs):
        for k in (0, 1) if i % 2 == 0 else (1, 0):
            got[k].append(rate((a, b)[k], sim_args))
    for k, (name, binary) in enumerate((("A", a), ("B", b))):
        v = sorted(got[k])
        top = v[len(v) * 3 // 4 :]
        print(
            f"{name} {binary}: median {statistics.median(v):.0f}, "
            f"top quarter {statistics.mean(top):.0f}, max {v[-1]} cycles/s"
        )
    ratios = [y / x for x, y in zip(got[0], got[1])]
    print(f"B/A, median of {runs} pairs: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
