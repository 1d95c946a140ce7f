#!/usr/bin/env bash
# Issue 27's uniform-traffic bar: DRB within 10 % of DOR (`dor:tie=random`,
# the same VCs) on torus:8x8, at 8 and 12 VCs, on the default router and on
# the presets' router, seeds 1..5; with the specs that split DRB's cost
# (the static limit `drb:max-size=0`, `ack=delay`, `single-step=classes`,
# ties drawn per message as dor:tie=random draws them: `tie=random`).
# docs/results.md ("The uniform bar", "Ties drawn per message") has the
# tables and the ROUTINGS each was measured with.
#
#     bash scripts/drb-uniform.sh [OUT_DIR]      # default target/drb-uniform
#
# Saturation throughput = the largest accepted throughput over the sweep:
#   default   the default router (4-flit packets, 8-flit buffers, fixed
#             selection), 3000 + 10000 cycles, loads 0.02..0.90 step 0.02
#             (the issue's command; a sweep stops after saturation)
#   presets   the presets' router (scripts/drb-router.sh's COMMON with the
#             VC count changed), 10000 + 20000 cycles, loads 0.02..0.40
#             step 0.02, --no-stop (docs/results.md's short runs)
# SEEDS, VCS, ROUTERS and ROUTINGS narrow it down (ROUTERS="" only prints
# the table of what OUT_DIR holds). Every drb spec goes through
# drb_as_before (scripts/drb-router.sh): the tables were measured before
# 2026-12-01, when a bare `drb` was drb:tau=0.023:tolerance=0.011:tie=plus;
# DRB_TAU="" DRB_TIE="" run today's defaults (τ from the router's knee,
# ties drawn per message). Writes OUT_DIR/<router>-
# vcs<V>-seed<S>.json and prints one markdown table, mean (min..max) over
# the seeds, each routing's ratio to dor:tie=random taken per seed.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${1:-target/drb-uniform}"
read -r -a SEED_LIST <<<"${SEEDS:-1 2 3 4 5}"
read -r -a VC_LIST <<<"${VCS:-8 12}"
read -r -a ROUTER_LIST <<<"${ROUTERS-default presets}"
read -r -a ROUTING_LIST <<<"${ROUTINGS:-dor:tie=random drb drb:single-step=classes drb:ack=delay drb:max-size=0 drb:tie=random drb:tie=random:ack=delay}"
mkdir -p "$OUT"
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B="$(routelab_bin)"
# shellcheck source=scripts/drb-router.sh
. "$(dirname "${BASH_SOURCE[0]}")/drb-router.sh"
ARGS=()
for r in "${ROUTING_LIST[@]}"; do ARGS+=(--routing "$(drb_as_before "$r")"); done

for router in "${ROUTER_LIST[@]}"; do
    case "$router" in
    default) FLAGS=(--warmup 3000 --cycles 10000 --loads 0.02:0.9:0.02) ;;
    presets) FLAGS=(--packet-flits 10 --buffer-flits 1 --process exponential
        --selection first-free --warmup 10000 --cycles 20000 --loads 0.02:0.40:0.02 --no-stop) ;;
    *) echo "unknown router $router" >&2; exit 2 ;;
    esac
    for v in "${VC_LIST[@]}"; do
        for s in "${SEED_LIST[@]}"; do
            f="$OUT/$router-vcs$v-seed$s.json"
            [ -s "$f" ] && continue
            "$B" sweep --topology torus:8x8 --traffic uniform --vcs "$v" --seed "$s" \
                "${FLAGS[@]}" "${ARGS[@]}" --json >"$f.tmp"
            mv "$f.tmp" "$f"
        done
    done
done

python3 - "$OUT" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
runs = {}
for f in sorted(glob.glob(os.path.join(out, "*-vcs*-seed*.json"))):
    router, v, s = re.match(r".*/(\w+)-vcs(\d+)-seed(\d+)\.json", f).groups()
    d = json.load(open(f))
    for r in d["routings"]:
        sat = max(p["accepted_fraction"] for p in r["points"])
        runs.setdefault((router, int(v)), {}).setdefault(r["routing"], {})[int(s)] = sat
def cell(xs):
    return f"{sum(xs)/len(xs):.3f} ({min(xs):.3f}..{max(xs):.3f})"
print("| router | VCs | routing | saturation | / dor:tie=random |")
print("|---|---|---|---|---|")
for (router, v), by in sorted(runs.items()):
    base = by.get("dor:tie=random", {})
    for name, seeds in by.items():
        xs = [seeds[k] for k in sorted(seeds)]
        ratio = [seeds[k] / base[k] for k in sorted(seeds) if k in base]
        print(f"| {router} | {v} | `{name}` | {cell(xs)} | {cell(ratio) if ratio else '-'} |")
PY
