# Sourced by scripts/drb-results.sh and scripts/drb-seeds.sh: the routers
# every DRB measurement in docs/results.md runs on.
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
