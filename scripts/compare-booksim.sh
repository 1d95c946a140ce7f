#!/usr/bin/env bash
# Simulated cycles per second of routelab and of BookSim2 on the same
# network and load, on this machine, in one run, alternating the two:
# k-ary 2-cube tori (8x8 at load 0.3, 16x16 at 0.15, 32x32 at 0.075, all
# below saturation), one node per router, dimension-order routing, 4 VCs of
# 8 flits, 1-flit packets, uniform traffic, Bernoulli injection.
#
#     bash scripts/compare-booksim.sh /path/to/booksim2
#
# BookSim2 is not fetched: point the script at a copy of its source tree
# (the directory holding `src/Makefile`, e.g. a clone of
# github.com/booksim/booksim2). It is built there with `make -C src` if
# `src/booksim` is missing, which needs g++, make, flex and bison
# (Debian: `apt-get install g++ make flex bison`).
#
# Knobs (environment): REPS (3 runs of each, alternating; the median of
# each is reported), CYCLES (30000: BookSim runs one warm-up period and
# three measured periods of CYCLES/4 each, then drains; routelab runs the
# same warm-up and measured cycles), SIZES ("8:0.3 16:0.15 32:0.075",
# radix:load pairs), BIN (a routelab binary to run instead of building
# one, scripts/lib.sh). Both rates are whole-process: cycles simulated over
# CPU time (user + system) of the process, building included; BookSim's
# cycle count is its own "Time taken is N cycles" (drain included).
# See docs/performance.md for what the numbers mean.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/src/Makefile" ]; then
    echo "usage: bash scripts/compare-booksim.sh BOOKSIM2_DIR   (the directory with src/Makefile)" >&2
    exit 2
fi
BOOKSIM_DIR="$(cd "$1" && pwd)"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPS="${REPS:-3}"
CYCLES="${CYCLES:-30000}"
SIZES="${SIZES:-8:0.3 16:0.15 32:0.075}"
PERIOD=$((CYCLES / 4))

# --- BookSim2 (built from the copy given) -------------------------------------
BOOKSIM="$BOOKSIM_DIR/src/booksim"
if [ ! -x "$BOOKSIM" ]; then
    for tool in g++ make flex bison; do
        command -v "$tool" >/dev/null || {
            echo "building BookSim2 needs $tool (Debian: apt-get install g++ make flex bison)" >&2
            exit 2
        }
    done
    echo "building BookSim2 (make -C $BOOKSIM_DIR/src, ~1 min)" >&2
    make -C "$BOOKSIM_DIR/src" -j"$(nproc)" >/dev/null
fi

# --- routelab (release, core and CLI only) ------------------------------------
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
ROUTELAB="$(routelab_bin)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

rate() { awk -v c="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", c / t; else print 0 }'; }
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

machine_line
echo "DOR, uniform, 4 VCs x 8 flits, 1-flit packets; $PERIOD warm-up + $((3 * PERIOD)) measured cycles; median of $REPS"
printf '%-8s %6s %14s %14s %8s\n' "torus" "load" "booksim c/s" "routelab c/s" "ratio"
for pair in $SIZES; do
    k="${pair%%:*}" load="${pair##*:}"
    # BookSim2: the input-queued router (its defaults: separable input-first
    # allocators, one iteration), dimension order with two dateline VC
    # classes, a fixed run: one warm-up period, then three measured ones
    # (every convergence threshold off), then the drain.
    cat >"$TMP/k$k.cfg" <<EOF
topology = torus;
k = $k;
n = 2;
routing_function = dim_order;
num_vcs = 4;
vc_buf_size = 8;
wait_for_tail_credit = 0;
traffic = uniform;
injection_process = bernoulli;
packet_size = 1;
injection_rate = $load;
sim_type = latency;
warmup_periods = 1;
sample_period = $PERIOD;
max_samples = 4;
warmup_thres = -1.0;
acc_warmup_thres = -1.0;
stopping_thres = -1.0;
acc_stopping_thres = -1.0;
latency_thres = -1.0;
EOF
    : >"$TMP/bs" ; : >"$TMP/rl"
    for rep in $(seq 1 "$REPS"); do
        # (BookSim2 exits with -1 when its simulation succeeded: its
        # "Time taken" line is the test.)
        { TIMEFORMAT='%U %S'; time "$BOOKSIM" "$TMP/k$k.cfg" >"$TMP/bs.out" 2>&1 || true; } 2>"$TMP/bs.time"
        bs_cycles=$(sed -n 's/^Time taken is \([0-9]*\) cycles.*/\1/p' "$TMP/bs.out" | tail -1)
        if [ -z "$bs_cycles" ]; then
            tail -5 "$TMP/bs.out" >&2
            exit 1
        fi
        bs_cpu=$(awk '{ print $1 + $2 }' "$TMP/bs.time")
        rate "$bs_cycles" "$bs_cpu" >>"$TMP/bs"
        echo >>"$TMP/bs"

        { TIMEFORMAT='%U %S'; time "$ROUTELAB" sim --topology "torus:${k}x${k}" --routing dor \
            --vcs 4 --buffer-flits 8 --packet-flits 1 --traffic uniform --load "$load" \
            --warmup "$PERIOD" --cycles "$((3 * PERIOD))" --seed 1 --json >"$TMP/rl.json" \
            2>"$TMP/rl.err"; } 2>"$TMP/rl.time" || {
            cat "$TMP/rl.err" >&2
            exit 1
        }
        rl_cpu=$(awk '{ print $1 + $2 }' "$TMP/rl.time")
        rate "$((4 * PERIOD))" "$rl_cpu" >>"$TMP/rl"
        echo >>"$TMP/rl"
        echo "  torus:${k}x${k} run $rep: booksim $(tail -1 "$TMP/bs") cycles/s ($bs_cycles cycles), routelab $(tail -1 "$TMP/rl") cycles/s (accepted $(field accepted <"$TMP/rl.json"))" >&2
    done
    sed -i '/^$/d' "$TMP/bs" "$TMP/rl"
    bs=$(median "$TMP/bs") rl=$(median "$TMP/rl")
    printf '%-8s %6s %14s %14s %8s\n' "${k}x${k}" "$load" "$bs" "$rl" "$(ratio "$rl" "$bs")"
done
echo "bars (issue 24): routelab >= 40x BookSim2 on 8x8, >= 60x on 32x32"
