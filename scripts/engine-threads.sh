#!/usr/bin/env bash
# One engine thread against two (`sim --engine-threads`), alternating, on
# DOR tori, for docs/performance.md ("Two threads per cycle"): this
# machine's speed drifts from minute to minute, so the two are run in turn
# ROUNDS times and the medians compared.
#
#     ROUNDS=7 bash scripts/engine-threads.sh [BINARY]
#
# BINARY defaults to a release build without the GUI (built here). Prints,
# per scenario, every round's cycles per second and the medians' ratio.
# The results of the two are the same, bit for bit (tests/engine_threads.rs);
# only the speed is measured here.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
BIN="$(BIN="${1:-}" routelab_bin)"
ROUNDS="${ROUNDS:-7}"
rate() {
    "$BIN" sim --routing dor --traffic uniform --packet-flits 1 --seed 1 \
        --engine-threads "$1" --json "${@:2}" |
        python3 -c 'import json, sys; print(round(json.load(sys.stdin)["cycles_per_second"]))'
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for scenario in \
    "--topology torus:8x8 --load 0.3 --warmup 1000 --cycles 20000" \
    "--topology torus:16x16 --load 0.2 --warmup 500 --cycles 6000" \
    "--topology torus:32x32 --load 0.1 --warmup 300 --cycles 3000" \
    "--topology torus:64x64 --load 0.05 --warmup 100 --cycles 600"; do
    one=() two=()
    for _ in $(seq "$ROUNDS"); do
        # shellcheck disable=SC2086
        one+=("$(rate 1 $scenario)")
        # shellcheck disable=SC2086
        two+=("$(rate 2 $scenario)")
    done
    m1=$(median "${one[@]}") m2=$(median "${two[@]}")
    printf '%s\n  one thread:  %s (median %s)\n  two threads: %s (median %s)  ratio %s\n' \
        "$scenario" "${one[*]}" "$m1" "${two[*]}" "$m2" \
        "$(python3 -c "print(f'{$m2 / $m1:.2f}')")"
done
