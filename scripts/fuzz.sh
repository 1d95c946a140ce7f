#!/usr/bin/env bash
# Long fuzzing runs of every target in tests/fuzz_*.rs (proptest, stable
# toolchain): each target runs for a time budget with an unlimited case
# count, in a release build, and prints its cases, slowest case and peak
# heap. Any panic, hang over 30 s or allocation over 4 GiB fails the target.
#
#     bash scripts/fuzz.sh                 # 5 minutes per target
#     FUZZ_SECONDS=60 bash scripts/fuzz.sh # 1 minute per target
#     ROUTELAB_FUZZ_SEED=7 bash scripts/fuzz.sh   # other inputs
#
# The counts of a run go in docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${FUZZ_SECONDS:-300}
export ROUTELAB_FUZZ_SECONDS=$SECONDS_PER_TARGET
export PROPTEST_CASES=${PROPTEST_CASES:-1000000000}
LOG=${FUZZ_LOG:-/tmp/routelab-fuzz.log}
: >"$LOG"

run() {
    local features="$1" test="$2" name="$3"
    echo "== $test::$name ($SECONDS_PER_TARGET s)"
    # Every target is a module of the one fuzz test crate (tests/fuzz.rs).
    # shellcheck disable=SC2086
    cargo test --release $features --test fuzz -- --exact "$test::$name" --nocapture 2>&1 |
        tee -a "$LOG" | grep -E '^fuzz |panicked|FAILED|test result|running 0 tests' || true
    # A renamed test would otherwise pass by running nothing.
    if tail -n 20 "$LOG" | grep -q 'running 0 tests'; then
        echo "FAILED: no test named $name in tests/$test.rs" | tee -a "$LOG"
    fi
}

CORE="--no-default-features"
run "$CORE" fuzz_specs topology_specs
run "$CORE" fuzz_specs routing_specs
run "$CORE" fuzz_specs traffic_specs
run "$CORE" fuzz_scenario scenario_json
run "$CORE" fuzz_campaign campaign_files
run "$CORE" fuzz_edge_list edge_list_files
run "$CORE" fuzz_fabric edited_examples
run "$CORE" fuzz_fabric random_record_files
run "" fuzz_share url_fragments
run "" fuzz_share valid_scenarios_survive_a_share_link
run "$CORE" fuzz_cli malformed_invocations

echo "== summary"
grep -E '^fuzz ' "$LOG"
if grep -qE 'panicked|FAILED' "$LOG"; then
    echo "FUZZING FOUND A FAILURE (see $LOG)" >&2
    exit 1
fi
echo "fuzz: every target passed"
