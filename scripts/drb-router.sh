# Sourced by scripts/drb-results.sh, scripts/drb-seeds.sh and
# scripts/drb-uniform.sh: the routers every DRB measurement in
# docs/results.md runs on, and `drb_as_before` for the specs they run.
#
# COMMON, the presets' router: wormhole, 10-flit packets, one-flit
# buffers, exponential inter-arrival times, the same 12 VCs for every
# routing (DRB uses 6 step VCs, 2 acknowledgement VCs and 4 adaptive
# ones), a selection that takes any free candidate (adaptive routing needs
# it; DOR and DRB behave the same under it as under `fixed` when they
# offer one port).
# COMMON3: the same with 3-flit buffers (a flit per cycle per VC) and VCs
# reallocated only when empty (--wait-for-tail-credit, which adaptive
# routing needs with buffers deeper than one flit).
# WARMUP and CYCLES set the run lengths (default 20000 and 40000);
# ROUTER_OPTS adds flags to both (e.g. "--port-priority oldest").
read -r -a ROUTER_EXTRA <<<"${ROUTER_OPTS:-}"
# shellcheck disable=SC2034 # used by the scripts that source this file
COMMON=(--packet-flits 10 --buffer-flits 1 --vcs 12 --process exponential
    --selection first-free --warmup "${WARMUP:-20000}" --cycles "${CYCLES:-40000}"
    "${ROUTER_EXTRA[@]}")
# shellcheck disable=SC2034
COMMON3=(--packet-flits 10 --buffer-flits 3 --vcs 12 --process exponential
    --selection first-free --warmup "${WARMUP:-20000}" --cycles "${CYCLES:-40000}" --wait-for-tail-credit
    "${ROUTER_EXTRA[@]}")

# drb_as_before SPEC: a drb spec as it ran before 2026-12-01, when a `drb`
# spec without `tau=` had τ = 0.023 and tolerance 0.011, and one without
# `tie=` ties to + (docs/results.md's DRB tables up to "Ties drawn per
# message" were measured so): DRB_TAU is appended to a spec without
# tau= or tolerance= (not to the random limit, which reads no threshold),
# DRB_TIE to one without tie=. Other routings are left as they are.
# DRB_TAU="" DRB_TIE="" run today's defaults (τ read on the router's knee,
# ties drawn per message).
DRB_TAU="${DRB_TAU-:tau=0.023:tolerance=0.011}"
DRB_TIE="${DRB_TIE-:tie=plus}"
drb_as_before() {
    local r="$1"
    case "$r" in
    drb | drb:*) ;;
    *)
        echo "$r"
        return
        ;;
    esac
    case "$r" in
    *tau=* | *tolerance=* | *limit=random*) ;;
    *) r="$r$DRB_TAU" ;;
    esac
    case "$r" in
    *tie=*) ;;
    *) r="$r$DRB_TIE" ;;
    esac
    echo "$r"
}
