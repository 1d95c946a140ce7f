#!/usr/bin/env bash
# routelab's engine against the smallest program that simulates the same
# thing (scripts/minimal-engine: an 8x8 torus, DOR, uniform traffic,
# routelab's default router, nothing else), for docs/performance.md
# ("The minimal engine"): how much of routelab's time per cycle is
# its generality.
#
#     ROUNDS=10 bash scripts/compare-minimal.sh [ROUTELAB_BINARY]
#
# SHAPES (default "1:8 16:32") lists the packet and buffer sizes, in
# flits, to run: one-flit packets with 8-flit buffers (the `engine` bench
# and compare-booksim.sh), and 16-flit packets with 32-flit buffers
# (compare-caminos.sh's FLITS=16 BUFFER=32, the issue's CAMINOS scenario).
#
# First it checks that the two simulate the same thing: for each shape, at
# loads 0.1, 0.3 and 0.5 (seed 1), their accepted load, average and
# maximum latency, average hops, delivered packets and every network
# channel's utilization must be equal, bit for bit; it stops with the
# differences if not. CHECK_ONLY=1 stops there (CI runs that).
# Then, for each shape and each load in LOADS (default "0.3 0.5"), it runs
# the two in turn ROUNDS times (this machine's speed drifts from minute to
# minute) and prints each round's cycles per second (each program's own
# run loop, warm-up included), the medians and the median of the rounds'
# ratios. CALLGRIND=1 also counts each one's instructions first
# (valgrind's callgrind, 1 000 + 10 000 cycles), exactly, where time is
# noisy.
#
# ROUTELAB_BINARY (or $BIN) defaults to a release build without the GUI,
# built here. The minimal engine is built with cargo (release, its own
# Cargo.lock) into target/minimal-engine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
BIN="$(BIN="${1:-${BIN:-}}" routelab_bin)"
ROUNDS="${ROUNDS:-10}"
LOADS="${LOADS:-0.3 0.5}"
SHAPES="${SHAPES:-1:8 16:32}"
WARMUP="${WARMUP:-2000}"
CYCLES="${CYCLES:-100000}"

TARGET="$ROOT/target/minimal-engine"
(cd "$ROOT/scripts/minimal-engine" &&
    CARGO_TARGET_DIR="$TARGET" cargo build --release --locked --quiet) >&2
MIN="$TARGET/release/minimal-engine"

# routelab / minimal SHAPE LOAD WARMUP CYCLES [more flags]: one run's JSON.
routelab() {
    local shape=$1 load=$2 warmup=$3 cycles=$4
    "$BIN" sim --topology torus:8x8 --routing dor --traffic uniform \
        --packet-flits "${shape%:*}" --buffer-flits "${shape#*:}" --seed 1 --load "$load" \
        --warmup "$warmup" --cycles "$cycles" --json "${@:5}"
}
minimal() {
    local shape=$1 load=$2 warmup=$3 cycles=$4
    "$MIN" --packet-flits "${shape%:*}" --buffer-flits "${shape#*:}" --seed 1 --load "$load" \
        --warmup "$warmup" --cycles "$cycles" "${@:5}"
}

CHK="$(mktemp -d)"
trap 'rm -rf "$CHK"' EXIT
for shape in $SHAPES; do
    echo "== the same results: ${shape%:*}-flit packets, ${shape#*:}-flit buffers (loads 0.1, 0.3, 0.5; 500 + 3000 cycles)"
    for load in 0.1 0.3 0.5; do
        a="$(routelab "$shape" "$load" 500 3000 --channels "$CHK/routelab.csv" 2>/dev/null)"
        b="$(minimal "$shape" "$load" 500 3000 --channels "$CHK/minimal.csv")"
        python3 - "$load" "$a" "$b" "$CHK/routelab.csv" "$CHK/minimal.csv" <<'EOF'
import csv, json, sys
load, a, b = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
keys = ["accepted", "avg_latency", "max_latency", "avg_hops", "delivered_packets"]
diff = [f"{k}: routelab {a[k]}, minimal engine {b[k]}" for k in keys if a[k] != b[k]]
ours = {r["src"]: r["utilization"] for r in csv.DictReader(open(sys.argv[4])) if r["kind"] == "network"}
theirs = {r["src"]: r["utilization"] for r in csv.DictReader(open(sys.argv[5]))}
if ours.keys() != theirs.keys():
    diff.append(f"channels: routelab {len(ours)}, minimal engine {len(theirs)}")
diff += [f"channel {c}: utilization routelab {ours[c]}, minimal engine {theirs[c]}"
         for c in sorted(ours.keys() & theirs.keys()) if ours[c] != theirs[c]]
if diff:
    for d in diff[:10]:
        print(f"load {load}: {d}", file=sys.stderr)
    sys.exit("the minimal engine no longer simulates what routelab does: "
             "mend scripts/minimal-engine (or routelab) before comparing their speed")
print(f"load {load}: equal ({', '.join(f'{k} {a[k]}' for k in keys)}, "
      f"and the {len(ours)} channels' utilization)")
EOF
    done
done
[ "${CHECK_ONLY:-0}" = 1 ] && exit 0

if [ "${CALLGRIND:-0}" = 1 ]; then
    command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }
    echo "== instructions (callgrind, 1000 + 10000 cycles)"
    for shape in $SHAPES; do
        for load in $LOADS; do
            for who in routelab minimal; do
                log="$CHK/callgrind.log"
                if [ "$who" = routelab ]; then
                    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" sim \
                        --topology torus:8x8 --routing dor --traffic uniform \
                        --packet-flits "${shape%:*}" --buffer-flits "${shape#*:}" --seed 1 \
                        --load "$load" --warmup 1000 --cycles 10000 >/dev/null 2>"$log"
                else
                    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$MIN" \
                        --packet-flits "${shape%:*}" --buffer-flits "${shape#*:}" --seed 1 \
                        --load "$load" --warmup 1000 --cycles 10000 >/dev/null 2>"$log"
                fi
                printf 'shape %-5s load %s  %-9s %s instructions\n' "$shape" "$load" "$who" \
                    "$(awk '/Collected/ {print $4}' "$log")"
            done
        done
    done
fi

echo "== cycles per second, alternating ($ROUNDS rounds, $WARMUP + $CYCLES cycles)"
for shape in $SHAPES; do
    for load in $LOADS; do
        for _ in $(seq "$ROUNDS"); do
            r="$(routelab "$shape" "$load" "$WARMUP" "$CYCLES")"
            m="$(minimal "$shape" "$load" "$WARMUP" "$CYCLES")"
            python3 -c 'import json, sys; print(json.loads(sys.argv[1])["cycles_per_second"], json.loads(sys.argv[2])["cycles_per_second"])' "$r" "$m"
        done | python3 -c '
import statistics, sys
case = f"shape {sys.argv[1]} load {sys.argv[2]}"
rows = [tuple(map(float, line.split())) for line in sys.stdin]
for r, m in rows:
    print(f"{case}  routelab {r:9.0f}  minimal {m:9.0f}  minimal/routelab {m / r:.3f}")
mr = statistics.median(r for r, _ in rows)
mm = statistics.median(m for _, m in rows)
ratio = statistics.median(m / r for r, m in rows)
print(f"{case}  medians: routelab {mr:.0f}, minimal {mm:.0f} cycles/s; median ratio {ratio:.3f}")
' "$shape" "$load"
    done
done
