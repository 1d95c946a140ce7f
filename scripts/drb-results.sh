#!/usr/bin/env bash
# DRB's results (issue 12; Franco, Garcés and Luque, ICS 1999, §4): every
# number docs/results.md's DRB section quotes, regenerated from scratch.
#
#     bash scripts/drb-results.sh [OUT_DIR]      # default target/drb-results
#
# Steps (each writes OUT_DIR/<step>.md and the raw JSON beside it):
#   tau       τ per preset topology: the knee of a DOR sweep under uniform
#             traffic (scripts/drb_knee.py: since 2026-11-26 the load where
#             latency doubles, τ read on the network latency there)
#   sweeps    DOR, DRB and adaptive routing side by side on every preset
#             topology and traffic pattern: saturation throughput, latency,
#             the paper's metrics (waiting time, accepted/applied)
#   table     torus:8x8: DOR, VAL, RLB, adaptive and DRB under every
#             traffic: saturation throughput, latency at half DOR's
#             saturation, coefficient of variation of per-pair latency
#   hotspot   Fig. 9's setting and the hot-spot bar (surface peak and mean,
#             background throughput and p99)
#   buffers   the same comparison with 3-flit buffers (one flit per cycle
#             per VC, the streaming the paper's one-flit links give); VCs
#             reallocated only when empty (--wait-for-tail-credit), which
#             adaptive routing needs with deeper buffers, for every routing
# Run one step with STEPS="tau table". Long: about an hour on two cores
# with the defaults; WARMUP, CYCLES and LOADS shorten it (docs/results.md
# says which settings its numbers used). EXTRA adds routings to the table.
# DRB_OPTS is appended to every DRB spec the script builds: the tables
# measured before stretch=0 and latency=network became DRB's defaults
# (2026-11-23) come back with DRB_OPTS=:stretch=any:latency=total. Every
# DRB spec then goes through drb_as_before (scripts/drb-router.sh): the
# tables were measured with ties to + (`tie=plus`, drb's default before
# 2026-12-01); DRB_TIE="" runs today's default, ties drawn per message.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${1:-target/drb-results}"
STEPS="${STEPS:-tau sweeps table hotspot buffers}"
EXTRA="${EXTRA:-}"
mkdir -p "$OUT"
# BIN: a routelab binary to use instead of building one.
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B="$(routelab_bin)"

# The routers (COMMON: the presets'; COMMON3: 3-flit buffers).
# shellcheck source=scripts/drb-router.sh
. scripts/drb-router.sh
# TOPOS="torus:8x8 ..." restricts the tau and sweeps steps to some of them.
read -r -a TOPOLOGIES <<<"${TOPOS:-torus:4x4 torus:8x8 torus:16x16 hypercube:4 hypercube:6 hypercube:8 midimew:64}"
TRAFFICS=(uniform hotspot bitrev butterfly shuffle transpose)

# Hot-spot traffic: 10% of the messages to one hot node (the paper names
# neither the fraction nor the node): node (3,3) of torus:8x8, node N/2-ish
# elsewhere.
hot_node() {
    case "$1" in
    torus:4x4) echo 5 ;;
    torus:8x8) echo 27 ;;
    torus:16x16) echo 119 ;;
    hypercube:4) echo 5 ;;
    hypercube:6) echo 27 ;;
    hypercube:8) echo 119 ;;
    midimew:64) echo 27 ;;
    esac
}
traffic_spec() {
    if [ "$2" = hotspot ]; then
        echo "hotspot:fraction=0.1:nodes=$(hot_node "$1")"
    else
        echo "$2"
    fi
}
safe() { echo "$1" | tr ':' '-'; }

tau_of() { # topology -> tau (from the tau step's JSON)
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tau'])" "$OUT/tau-$(safe "$1").json"
}
tol_of() { # tau -> the presets' tolerance: the lower edge of the dead band
    # halfway between L_c and ThL, Tol = tau / (2 (1 + tau)), so a metapath can
    # narrow; three decimals.
    python3 -c "import sys; t=float(sys.argv[1]); print(round(t / (2 * (1 + t)), 3))" "$1"
}
drb_spec() { # topology -> the preset's drb spec (DRB=SPEC overrides it)
    if [ -n "${DRB:-}" ]; then
        drb_as_before "$DRB"
        return
    fi
    local t
    t=$(tau_of "$1")
    drb_as_before "drb:tau=$t:tolerance=$(tol_of "$t")${DRB_OPTS:-}"
}

step_tau() {
    {
        echo "| topology | zero-load latency | knee load (fraction of capacity) | knee latency | network latency zero-load / knee | τ | tolerance |"
        echo "|---|---|---|---|---|---|---|"
    } >"$OUT/tau.md"
    for topo in "${TOPOLOGIES[@]}"; do
        local f="$OUT/tau-$(safe "$topo")"
        "$B" sweep --topology "$topo" --routing dor --traffic uniform "${COMMON[@]}" \
            --loads 0.01:0.40:0.01 --pair-stats --json >"$f-sweep.json"
        python3 scripts/drb_knee.py <"$f-sweep.json" >"$f.json"
        python3 - "$topo" "$f.json" >>"$OUT/tau.md" <<'EOF'
import json, sys
d = json.load(open(sys.argv[2]))
t = d["tau"]
n = d.get("network_latency") or {}
print(f"| {sys.argv[1]} | {d['zero_load_latency']} | {d['knee_load_fraction']} | {d['knee_latency']} | {n.get('zero_load', '-')} / {n.get('at_knee', '-')} | {t} | {round(t / (2 * (1 + t)), 3)} |")
EOF
    done
    cat "$OUT/tau.md"
}

# sweep TOPOLOGY TRAFFIC ROUTING... -> OUT/sweep-<topo>-<traffic>.json
sweep_json() {
    local topo="$1" traffic="$2"
    shift 2
    local args=()
    for r in "$@"; do args+=(--routing "$r"); done
    "$B" sweep --topology "$topo" --traffic "$(traffic_spec "$topo" "$traffic")" "${COMMON[@]}" \
        "${args[@]}" --loads "${LOADS:-0.02:0.40:0.02}" --no-stop --pair-stats --json \
        >"$OUT/sweep-$(safe "$topo")-$traffic.json"
}

step_sweeps() {
    {
        echo "Saturation throughput (largest accepted, fraction of capacity) and DRB over DOR; latency (cycles) at 0.1 and at 0.2 flits/node/cycle; the paper's latency (waiting cycles) and throughput (accepted/applied) at 0.2."
        echo
        echo "| topology | traffic | DOR sat. | DRB sat. | adaptive sat. | DRB/DOR | DOR lat 0.1 / 0.2 | DRB lat 0.1 / 0.2 | adaptive lat 0.1 / 0.2 | waiting 0.2 DOR / DRB | acc/app 0.2 DOR / DRB |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|"
    } >"$OUT/sweeps.md"
    for topo in "${TOPOLOGIES[@]}"; do
        for traffic in "${TRAFFICS[@]}"; do
            # Adaptive routing needs dimensions: none on midimew.
            local ada=(adaptive)
            case "$topo" in midimew:*) ada=() ;; esac
            sweep_json "$topo" "$traffic" dor "$(drb_spec "$topo")" "${ada[@]}"
            python3 - "$topo" "$traffic" "$OUT/sweep-$(safe "$topo")-$traffic.json" >>"$OUT/sweeps.md" <<'EOF'
import json, sys
topo, traffic, path = sys.argv[1:4]
d = json.load(open(path))["routings"]
def at(r, load, key, paper=False):
    for p in r["points"]:
        if abs(p["offered"] - load) < 1e-9:
            v = p["paper"][key] if paper else p[key]
            return f"{v:.1f}" if key.endswith("latency") else f"{v:.3f}"
    return "-"
dor, drb = d[:2]
ada = d[2] if len(d) > 2 else None
def sat(r):
    return f"{r['saturation_fraction']:.3f}" if r else "-"
row = [topo, traffic, sat(dor), sat(drb), sat(ada),
       f"{drb['saturation_fraction'] / dor['saturation_fraction']:.2f}",
       at(dor, 0.1, "avg_latency") + " / " + at(dor, 0.2, "avg_latency"),
       at(drb, 0.1, "avg_latency") + " / " + at(drb, 0.2, "avg_latency"),
       (at(ada, 0.1, "avg_latency") + " / " + at(ada, 0.2, "avg_latency")) if ada else "-",
       at(dor, 0.2, "wait_latency", True) + " / " + at(drb, 0.2, "wait_latency", True),
       at(dor, 0.2, "accepted_over_applied", True) + " / " + at(drb, 0.2, "accepted_over_applied", True)]
print("| " + " | ".join(row) + " |")
EOF
        done
    done
    cat "$OUT/sweeps.md"
}

step_table() {
    local topo=torus:8x8 drb
    drb=$(drb_spec "$topo")
    local routings=(dor val rlb adaptive "$drb")
    for r in $EXTRA; do routings+=("$r"); done
    {
        echo "torus:8x8, every traffic: saturation throughput (fraction of capacity) / mean latency (cycles) at half of DOR's saturation load / coefficient of variation of per-pair mean latency at that load."
        echo
        printf "| traffic |"
        for r in "${routings[@]}"; do printf " %s |" "$r"; done
        echo
        printf "|---|"
        for _ in "${routings[@]}"; do printf -- "---|"; done
        echo
    } >"$OUT/table.md"
    for traffic in "${TRAFFICS[@]}"; do
        sweep_json "$topo" "$traffic" "${routings[@]}"
        local f="$OUT/sweep-$(safe "$topo")-$traffic.json"
        # Half of DOR's saturation load: the largest accepted throughput, halved.
        local half
        half=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['routings'][0]; print(round(d['saturation_throughput'] / 2, 4))" "$f")
        local args=()
        for r in "${routings[@]}"; do args+=(--routing "$r"); done
        "$B" sim --topology "$topo" --traffic "$(traffic_spec "$topo" "$traffic")" "${COMMON[@]}" \
            "${args[@]}" --load "$half" --json >"$OUT/half-$traffic.json"
        python3 - "$traffic" "$f" "$OUT/half-$traffic.json" "$half" >>"$OUT/table.md" <<'EOF'
import json, sys
traffic, sweep, half, load = sys.argv[1:5]
s = json.load(open(sweep))["routings"]
h = json.load(open(half))["runs"]
cells = []
for r, p in zip(s, h):
    cells.append(f"{r['saturation_fraction']:.3f} / {p['avg_latency']:.1f} / {p['paper']['pair_latency_cv']:.3f}")
print(f"| {traffic} (half load {load}) | " + " | ".join(cells) + " |")
EOF
    done
    cat "$OUT/table.md"
}

step_hotspot() {
    local topo=torus:8x8 drb
    drb=$(drb_spec "$topo")
    local traffic
    traffic=$(traffic_spec "$topo" hotspot)
    # DOR's saturation under this hot spot, from a fine sweep.
    "$B" sweep --topology "$topo" --traffic "$traffic" "${COMMON[@]}" --routing dor \
        --loads 0.01:0.30:0.01 --json >"$OUT/hotspot-dor-sweep.json"
    local sat
    sat=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(min([p['offered'] for p in d['points'] if p['saturated']] or [0.3]))" "$OUT/hotspot-dor-sweep.json")
    {
        echo "torus:8x8, \`$traffic\`; DOR saturates at offered load $sat."
        echo
        echo "| load | routing | accepted | background accepted | background p99 | p99 | surface peak | surface mean | waiting |"
        echo "|---|---|---|---|---|---|---|---|---|"
    } >"$OUT/hotspot.md"
    # Fig. 9's load: 0.9 of DOR's saturation (clear peaks, not saturated);
    # the bar's: 1.2 times it.
    for factor in 0.9 1.2; do
        local load
        load=$(python3 -c "import sys; print(round(float(sys.argv[1]) * float(sys.argv[2]), 4))" "$sat" "$factor")
        for r in dor "$drb" adaptive; do
            local f="$OUT/hotspot-$(safe "$r")-$factor"
            "$B" sim --topology "$topo" --traffic "$traffic" "${COMMON[@]}" --routing "$r" --load "$load" \
                --pair-stats --json --surface "$f-surface.csv" >"$f.json"
            python3 - "$load" "$r" "$f.json" >>"$OUT/hotspot.md" <<'EOF'
import json, sys
load, r, path = sys.argv[1:4]
d = json.load(open(path)); p = d["paper"]
print(f"| {load} | {r} | {d['accepted']:.4f} | {p['background_accepted']:.4f} | {p['background_p99_latency']} | {d['p99_latency']} | {p['surface_peak']:.2f} | {p['surface_mean']:.2f} | {p['wait_latency']:.1f} |")
EOF
        done
    done
    cat "$OUT/hotspot.md"
}

step_buffers() {
    local topo=torus:8x8 drb
    # τ is remeasured for the deeper buffers.
    "$B" sweep --topology "$topo" --routing dor --traffic uniform "${COMMON3[@]}" \
        --loads 0.02:0.80:0.02 --pair-stats --json >"$OUT/buffers-tau-sweep.json"
    python3 scripts/drb_knee.py <"$OUT/buffers-tau-sweep.json" >"$OUT/buffers-tau.json"
    local t
    t=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['tau'])" "$OUT/buffers-tau.json")
    drb=$(drb_as_before "drb:tau=$t:tolerance=$(tol_of "$t")${DRB_OPTS:-}")
    {
        echo "torus:8x8 with 3-flit buffers (τ = $t): saturation throughput (fraction of capacity)."
        echo
        echo "| traffic | DOR | $drb | drb (ack=delay) | drb:limit=random | adaptive | DRB/DOR |"
        echo "|---|---|---|---|---|---|---|"
    } >"$OUT/buffers.md"
    for traffic in "${TRAFFICS[@]}"; do
        local f="$OUT/buffers-$traffic.json"
        "$B" sweep --topology "$topo" --traffic "$(traffic_spec "$topo" "$traffic")" "${COMMON3[@]}" \
            --routing dor --routing "$drb" --routing "$drb:ack=delay" --routing "$(drb_as_before drb:limit=random)" --routing adaptive \
            --loads 0.04:0.80:0.04 --no-stop --json >"$f"
        python3 - "$traffic" "$f" >>"$OUT/buffers.md" <<'EOF'
import json, sys
traffic, path = sys.argv[1:3]
d = json.load(open(path))["routings"]
s = [r["saturation_fraction"] for r in d]
print(f"| {traffic} | " + " | ".join(f"{x:.3f}" for x in s) + f" | {s[1] / s[0]:.2f} |")
EOF
    done
    cat "$OUT/buffers.md"
}

for s in $STEPS; do
    echo "== $s"
    "step_$s"
done
