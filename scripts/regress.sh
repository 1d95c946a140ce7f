#!/usr/bin/env bash
# Results of a fixed set of scenarios, to show that a refactor changes no
# result: `sim --json` (timing fields removed) and `sim --channels` for
# every topology kind, switch model, switching mode, selection policy, port
# priority and arrival process, the oblivious, adaptive and DRB routings
# (with acknowledgement packets and as a delay) and the fat-tree balancers,
# DOR on two engine threads with one-flit and longer packets, plus
# `paths --json` for the path-selection algorithms.
#
#     bash scripts/regress.sh save DIR [BINARY]     # write the results to DIR
#     bash scripts/regress.sh compare DIR [BINARY]  # compare with DIR, byte for byte
#
# BINARY defaults to a release build without the GUI, built first
# (scripts/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

MODE="${1:-}"
DIR="${2:-}"
if [ -z "$MODE" ] || [ -z "$DIR" ]; then
    echo "usage: bash scripts/regress.sh save|compare DIR [BINARY]" >&2
    exit 2
fi
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
BIN="$(BIN="${3:-}" routelab_bin)"

# name | sim flags
SCENARIOS=(
    "torus-dor-uniform|--topology torus:8x8 --routing dor --traffic uniform --load 0.3"
    "torus-dor-4vcs|--topology torus:8x8 --routing dor --traffic uniform --load 0.45 --vcs 4 --packet-flits 3"
    "torus-dor-pair-stats|--topology torus:8x8 --routing dor --traffic bitrev --load 0.35 --pair-stats"
    "torus-caminos|--topology torus:8x8 --routing dor --traffic uniform --load 0.5 --packet-flits 1"
    "torus-caminos-16|--topology torus:8x8 --routing dor --traffic uniform --load 0.5 --packet-flits 16 --buffer-flits 32"
    "torus-two-threads-1flit|--topology torus:16x16 --routing dor --traffic uniform --load 0.45 --packet-flits 1 --engine-threads 2"
    "torus-two-threads-4flit|--topology torus:16x16 --routing dor --traffic uniform --load 0.35 --packet-flits 4 --engine-threads 2"
    "torus-tie-random-vct|--topology torus:8x8 --routing dor:tie=random --traffic transpose --load 0.4 --switching vct --vcs 4 --selection first-free"
    "ring-tornado-balanced|--topology torus:8 --routing dor:classes=balanced --traffic tornado --load 0.6 --packet-flits 1 --port-priority random"
    "ring-tornado-parity|--topology torus:8 --routing dor:tie=parity --traffic tornado --load 0.6 --packet-flits 1"
    "torus3d-hotspot|--topology torus:4x4x4 --routing minimal --traffic hotspot:fraction=0.2:nodes=0,21 --load 0.2"
    "mesh-saf|--topology mesh:4x4 --routing dor --traffic uniform --load 0.2 --switching saf --buffer-flits 8"
    "mesh-randperm|--topology mesh:8x8 --routing dor --traffic randperm --load 0.3 --seed 7"
    "hypercube-exp|--topology hypercube:6 --routing dor --traffic bitcomp --load 0.3 --process exponential"
    "midimew|--topology midimew:64 --routing minimal --traffic uniform --load 0.3 --vcs 4"
    "fattree-adaptive|--topology fattree:4 --routing dmodk --traffic uniform --load 0.4 --selection adaptive"
    "fattree8-firstfree|--topology fattree:8 --routing minimal --traffic shuffle --load 0.3 --selection first-free --vcs 3"
    "torus-hosts2-neighbor|--topology torus:8x8:hosts=2 --routing dor --traffic neighbor --load 0.2 --selection adaptive --vcs 4 --link-latency 2 --switch-delay 3"
    "irregular-updown|--topology irregular:16:seed=3 --routing updown --traffic uniform --load 0.2 --selection first-free"
    "irregular-paths-maxcp|--topology irregular:16:seed=1 --routing paths:updown-dfs:maxcp --traffic uniform --load 0.1"
    "irregular-paths-udwm-sa|--topology irregular:16:seed=1 --routing paths:udwm:sa:budget=2000 --traffic uniform --load 0.1 --vcs 3"
    "irregular-paths-ga|--topology irregular:16:seed=2 --routing paths:updown-bfs:ga:budget=20 --traffic bitrev --load 0.15 --switching vct"
    "torus-rlb-tornado|--topology torus:8x8 --routing rlb --traffic tornado --load 0.3 --vcs 8"
    "torus-romm-transpose|--topology torus:8x8 --routing romm --traffic transpose --load 0.3 --vcs 4"
    "torus-adaptive-tail-credit|--topology torus:8x8 --routing adaptive --traffic uniform --load 0.35 --vcs 4 --packet-flits 1 --wait-for-tail-credit --selection first-free"
    "torus-drb-ack-packets|--topology torus:8x8 --routing drb --traffic transpose --load 0.3 --vcs 12"
    "torus-drb-random-ties|--topology torus:8x8 --routing drb:ack=delay:tie=random --traffic uniform --load 0.35 --vcs 8"
    "midimew-drb|--topology midimew:64 --routing drb:ack=delay --traffic bitrev --load 0.2 --vcs 8"
    "fattree-greedy-timeslice|--topology fattree:4:hetero=paper:seed=2 --switch-model timeslice --routing greedy --load 0.5"
    "fattree-drill-timeslice|--topology fattree:4:hetero=paper:seed=2 --switch-model timeslice --routing drill --load 0.5"
    "torus-output-queued|--topology torus:8x8 --routing dor --traffic uniform --load 0.4 --switch-model output-queued --packet-flits 4"
    "fattree-output-queued-onoff|--topology fattree:4 --routing dmodk --traffic uniform --load 0.6 --switch-model output-queued --process on_off --packet-flits 3 --switching saf"
)
# name | paths flags
PATHS=(
    "paths-dfs-compare|--topology irregular:16:seed=1 --routing updown-dfs --compare"
    "paths-udwm-lvcf|--topology irregular:16:seed=1 --routing udwm --vcs 3 --select lvcf"
    "paths-bfs-sa|--topology irregular:16:seed=4 --routing updown-bfs --select sa --budget 3000"
)

run_all() {
    local out="$1"
    mkdir -p "$out"
    for entry in "${SCENARIOS[@]}"; do
        local name="${entry%%|*}" flags="${entry#*|}"
        # shellcheck disable=SC2086
        "$BIN" sim $flags --cycles 4000 --warmup 1000 --json --channels "$out/$name.channels.csv" |
            python3 -c 'import json,sys; d=json.load(sys.stdin); [d.pop(k, None) for k in ("elapsed_ms","cycles_per_second")]; print(json.dumps(d, sort_keys=True, indent=1))' \
                >"$out/$name.json"
    done
    for entry in "${PATHS[@]}"; do
        local name="${entry%%|*}" flags="${entry#*|}"
        # shellcheck disable=SC2086
        "$BIN" paths $flags --json |
            python3 -c 'import json,sys; d=json.load(sys.stdin)
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("elapsed_ms", "build_ms")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(d), sort_keys=True, indent=1))' >"$out/$name.json"
    done
}

case "$MODE" in
save)
    run_all "$DIR"
    echo "saved $(ls "$DIR" | wc -l) files in $DIR"
    ;;
compare)
    NEW="$(mktemp -d)"
    trap 'rm -rf "$NEW"' EXIT
    run_all "$NEW"
    if diff -r "$DIR" "$NEW"; then
        echo "identical: $(ls "$DIR" | wc -l) files"
    else
        echo "RESULTS DIFFER (above)" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: bash scripts/regress.sh save|compare DIR [BINARY]" >&2
    exit 2
    ;;
esac
