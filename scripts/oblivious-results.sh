#!/usr/bin/env bash
# Simulation against analysis for the oblivious torus routings (the table in
# docs/results.md, "Oblivious routing: simulation against analysis"):
# on torus:8x8, for DOR (tie=plus), RDOR, VAL, ROMM (xy), RLB and RLBth,
# under the simulator's uniform traffic, tornado, transpose and each
# routing's own worst-case permutation, the ideal throughput from
# `routelab load` and the simulated saturation from `routelab saturation`
# (output-queued switches, 8 VCs for every routing, 1-flit packets, grid
# 0.01 of capacity, 3 seeds, accepted >= 0.99 x offered with every source
# served). About 5 minutes on 2 cores.
#
#     bash scripts/oblivious-results.sh [TOPOLOGY]
set -euo pipefail
cd "$(dirname "$0")/.."
TOPO="${1:-torus:8x8}"
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
B="$(routelab_bin)"
SIM="--switch-model output-queued --vcs 8 --packet-flits 1 --warmup 2000 --cycles 10000"

echo "| routing | traffic | ideal (analysis) | simulated saturation | simulated / ideal |"
echo "|---|---|---|---|---|"
for r in dor rdor val romm rlb rlbth; do
    for t in uniform tornado transpose worst; do
        # The analysis of the simulator's own uniform (no self-traffic).
        at="$t"
        [ "$t" = uniform ] && at=uniform-other
        ideal=$("$B" load --topology "$TOPO" --routing "$r" --traffic "$at" --json |
            python3 -c 'import json,sys; t=json.load(sys.stdin)["ideal_throughput"]; print("%.4f (%s)" % (t["value"], t["exact"]))')
        # shellcheck disable=SC2086
        sat=$("$B" saturation --topology "$TOPO" --routing "$r" --traffic "$t" $SIM --json |
            python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["routings"][0]["fraction"])')
        ratio=$(python3 -c "print(f'{$sat / float(\"$ideal\".split()[0]):.3f}')")
        echo "| $r | $t | $ideal | $sat | $ratio |"
    done
done
