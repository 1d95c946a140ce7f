#!/usr/bin/env bash
# Exact instruction counts of the engine (valgrind's callgrind) on four DOR
# runs, for judging a change to the simulation core where this machine's
# speed drifts too much for timings (docs/performance.md, "How to repeat
# them"):
#
#     bash scripts/callgrind-engine.sh [BINARY] [OUT_DIR]
#
# BINARY defaults to a release build without the GUI (built here); OUT_DIR
# (default: a temporary directory) keeps the callgrind files for
# `callgrind_annotate` or `scripts/profile-lines.py` (which wants a build
# with line tables: CARGO_PROFILE_RELEASE_DEBUG=line-tables-only).
# Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
BIN="$(BIN="${1:-}" routelab_bin)"
OUT="${2:-$(mktemp -d)}"
mkdir -p "$OUT"
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }
run() {
    local tag=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg-$tag" "$BIN" sim --routing dor \
        --traffic uniform --packet-flits 1 --seed 1 "$@" >/dev/null 2>"$OUT/log-$tag"
    printf '%-40s %s instructions\n' "$tag ($*)" "$(awk '/Collected/ {print $4}' "$OUT/log-$tag")"
}
run torus8x8 --topology torus:8x8 --load 0.3 --warmup 1000 --cycles 10000
run torus32x32 --topology torus:32x32 --load 0.1 --warmup 300 --cycles 1000
run torus64x64 --topology torus:64x64 --load 0.05 --warmup 200 --cycles 300
# The `flit_hops` bench's light load, where per-host work weighs most.
run torus8x8-light --topology torus:8x8 --load 0.05 --warmup 1000 --cycles 20000
echo "callgrind files in $OUT" >&2
