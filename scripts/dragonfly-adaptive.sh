#!/usr/bin/env bash
# The dragonfly's adaptive routings against MIN and VAL (docs/results.md,
# "Dragonfly: adaptive routing"): the saturation throughput of each on the
# default input-queued router (1-cycle channels, 1-flit packets, 8-flit
# buffers; 3 VCs, PAR 4, the fewest each accepts), under the simulator's
# uniform traffic and the worst case (adversarial: group i to i+1), from
# `routelab saturation` (grid 0.01 of capacity, 3 seeds, accepted >= 0.99 x
# offered with every source served), with the share of packets each
# adaptive routing sent non-minimally at 0.3 (worst case) and 0.5
# (uniform).
#
#     bash scripts/dragonfly-adaptive.sh [TOPOLOGY]
set -euo pipefail
cd "$(dirname "$0")/.."
TOPO="${1:-dragonfly:p=2}"
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
B="$(routelab_bin)"
SIM="--packet-flits 1 --warmup 2000 --cycles 10000"

echo "| routing | VCs | uniform saturation | worst-case saturation | worst case / MIN's |"
echo "|---|---:|---:|---:|---:|"
min_adv=""
for r in min val ugal-l ugal-g par "ugal-l:threshold=30"; do
    vcs=3
    [ "$r" = par ] && vcs=4
    row=()
    for t in uniform adversarial; do
        # shellcheck disable=SC2086
        sat=$("$B" saturation --topology "$TOPO" --routing "$r" --traffic "$t" --vcs "$vcs" \
            $SIM --seeds 3 --json |
            python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f" % d["routings"][0]["load"])')
        row+=("$sat")
    done
    [ "$r" = min ] && min_adv="${row[1]}"
    ratio=$(python3 -c "print(f'{${row[1]} / $min_adv:.1f}x')")
    echo "| $r | $vcs | ${row[0]} | ${row[1]} | $ratio |"
done
