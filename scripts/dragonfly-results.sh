#!/usr/bin/env bash
# Simulation against analysis for the dragonfly's MIN and VAL (the table in
# docs/results.md, "Dragonfly: simulation against analysis"): on
# dragonfly:p=2 (a=4, h=2, g=9, 72 hosts) under the simulator's uniform
# traffic and the adversarial (worst-case) pattern, the ideal throughput
# from `routelab load` (flits per host per cycle) and the simulated
# saturation from `routelab saturation` (output-queued switches, 4 VCs for
# every routing, 1-flit packets, grid 0.01 of capacity, 3 seeds, accepted
# >= 0.99 x offered with every source served), as for the tori.
#
#     bash scripts/dragonfly-results.sh [TOPOLOGY]
set -euo pipefail
cd "$(dirname "$0")/.."
TOPO="${1:-dragonfly:p=2}"
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
B="$(routelab_bin)"
SIM="--switch-model output-queued --vcs 4 --packet-flits 1 --warmup 2000 --cycles 10000"

echo "| routing | traffic | ideal (analysis), flits/host/cycle | simulated saturation, flits/host/cycle | simulated / ideal |"
echo "|---|---|---|---|---|"
for r in min val val:intermediate=router; do
    for t in uniform adversarial; do
        at="$t"
        [ "$t" = uniform ] && at=uniform-other
        ideal=$("$B" load --topology "$TOPO" --routing "$r" --traffic "$at" --json |
            python3 -c 'import json,sys; t=json.load(sys.stdin)["ideal_throughput"]; print("%.4f (%s)" % (t["value"], t["exact"]))')
        # shellcheck disable=SC2086
        sat=$("$B" saturation --topology "$TOPO" --routing "$r" --traffic "$t" $SIM --json |
            python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % d["routings"][0]["load"])')
        ratio=$(python3 -c "print(f'{$sat / float(\"$ideal\".split()[0]):.3f}')")
        echo "| $r | $t | $ideal | $sat | $ratio |"
    done
done
