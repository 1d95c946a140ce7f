#!/usr/bin/env bash
# Long-run soak: random scenarios (every registered routing on every switch
# model, random topologies, switching, VCs, buffers, traffic, arrivals and
# loads) for a fixed wall time with the invariants checked every cycle,
# each run drained at the end; prints how many scenarios and cycles it
# covered. Any broken invariant, failed run or deadlock without a real wait
# cycle stops it with the scenario. Then as long again of random scenarios
# run on one engine thread and on two (taken and given back mid-run), whose
# results must be the same bit for bit (tests/engine_threads.rs
# `two_threads_soak`).
#
#     bash scripts/soak.sh            # 10 minutes each
#     bash scripts/soak.sh 3600       # an hour each
#     ROUTELAB_SOAK_SEED=7 bash scripts/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."

export ROUTELAB_SOAK_SECONDS=${1:-${ROUTELAB_SOAK_SECONDS:-600}}
echo "== soak for $ROUTELAB_SOAK_SECONDS s (release build)"
cargo test --release --no-default-features --test all -- --ignored --exact trust_invariants::soak --nocapture 2>&1 |
    grep -E '^soak|panicked|test result'
echo "== one engine thread against two for $ROUTELAB_SOAK_SECONDS s (release build)"
cargo test --release --no-default-features --test all -- --ignored --exact engine_threads::two_threads_soak --nocapture 2>&1 |
    grep -E '^two_threads_soak|panicked|test result'
