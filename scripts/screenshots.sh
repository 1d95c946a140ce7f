#!/usr/bin/env bash
# Screenshots of what users see, into docs/screenshots/: every preset at
# 1280x800, the DRB hot spot and the tornado at 1400x900, the views a talk
# reaches with a click (a DRB pair, a fat-tree pod unfolded, a comparison,
# an imported fabric's colourings; replayed as demos), presenter mode at
# 1920x1080 on the presets a talk uses, and the first step of every guided
# tour. The desktop app runs under Xvfb (Mesa's software renderer)
# and saves each PNG itself (`routelab app FILE --screenshot PNG`) once the
# warm-up and a few thousand measured cycles have run, so every picture
# shows measurements, not a grey warm-up.
#
#     bash scripts/screenshots.sh            # everything (about 10 minutes)
#     bash scripts/screenshots.sh drb        # only the files matching `drb`
#
# It installs xvfb and the Mesa GL drivers with apt when they are missing.
# For the browser's own screenshots see scripts/web-screenshots.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
FILTER="${1:-}"
OUT=docs/screenshots
mkdir -p "$OUT"

if ! command -v xvfb-run >/dev/null || ! ldconfig -p | grep -q libGL.so.1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb libgl1 libgl1-mesa-dri libegl1 >/dev/null
fi
cargo build --release --bin routelab --quiet
BIN=target/release/routelab
# The X screen is larger than any window, so that its pointer (at the
# screen's centre) is outside the window and no plot shows a hover.
# A fresh settings folder for every shot: no remembered theme, colouring,
# comparison or window size leaks from one into the next.
SETTINGS="$(mktemp -d)"
DEMOS="$(mktemp -d)"
trap 'rm -rf "$SETTINGS" "$DEMOS"' EXIT

# shot FILE PNG WxH CYCLES [app flags...]
shot() {
    local file="$1" png="$2" size="$3" after="$4"
    shift 4
    if [ -n "$FILTER" ] && [[ "$file $png" != *"$FILTER"* ]]; then
        return
    fi
    echo "  $png"
    rm -rf "${SETTINGS:?}"/*
    XDG_DATA_HOME="$SETTINGS" timeout 600 xvfb-run -a -s "-screen 0 4000x2400x24" \
        "$BIN" app "$file" --window "$size" --screenshot "$OUT/$png" --screenshot-after "$after" "$@" \
        >/dev/null 2>"$OUT/.log" || { cat "$OUT/.log" >&2; echo "failed: $png" >&2; exit 1; }
    rm -f "$OUT/.log"
}

echo "== every preset at 1280x800"
for f in assets/scenarios/*.json; do
    name=$(basename "$f" .json)
    case "$name" in
        fattree16*) after=200 ;;
        fattree*) after=400 ;;
        torus16* | drb-torus16* | drb-hypercube8*) after=1500 ;;
        *) after=3000 ;;
    esac
    shot "$f" "preset-$name.png" 1280x800 "$after"
done

echo "== 1400x900"
shot assets/scenarios/drb-torus8-hotspot.json stage-1400-drb-hotspot.png 1400x900 3000
shot assets/scenarios/torus-dor-tornado.json stage-1400-tornado.png 1400x900 3000
shot assets/scenarios/fattree8-greedy.json stage-fattree-k8-1400x900.png 1400x900 400
shot assets/scenarios/fattree16-greedy.json stage-fattree-k16-1400x900.png 1400x900 200

# demo NAME ACTION... : a demo file (the app replays its actions at once,
# no tour card over the view) for the shots that need a click: a DRB pair
# picked, a pod unfolded, a comparison, a colouring.
demo() {
    local name="$1"
    shift
    local steps="" a
    for a in "$@"; do
        steps="${steps:+$steps, }{\"at_ms\": 0, \"action\": $a}"
    done
    printf '{"demo": "routelab", "steps": [%s]}\n' "$steps" >"$DEMOS/$name.json"
    echo "$DEMOS/$name.json"
}

echo "== stage views that need a click (replayed as demos)"
pair=$(demo drb-pair '{"preset": "drb-torus8-hotspot.json"}' '{"panel": "drb"}' \
    '{"pair": [46, 27]}' '{"play": true}')
shot "$pair" stage-drb-hotspot-pair-1280x800.png 1280x800 3000
shot "$pair" stage-drb-hotspot-pair-1400x900.png 1400x900 3000
pod=$(demo fattree16-pod '{"preset": "fattree16-greedy.json"}' '{"pod": 9}' '{"play": true}')
shot "$pod" stage-fattree-k16-pod-1280x800.png 1280x800 200
shot "$pod" stage-fattree-k16-pod-1400x900.png 1400x900 200
ecmp=$(demo fattree-ecmp '{"preset": "fattree-greedy.json"}' '{"compare": "fattree-ecmp"}' \
    '{"play": true}')
shot "$ecmp" stage-fattree-k4-vs-ecmp-1400x900.png 1400x900 400
for f in fattree irregular; do
    cp=$(demo "fabric-$f-cp" "{\"preset\": \"paths-fabric-$f-ibnetdiscover.json\"}" \
        '{"metric": "crossing_paths"}' '{"play": true}')
    shot "$cp" "fabric-$f-crossing-paths.png" 1400x900 3000
    heat=$(demo "fabric-$f-heat" "{\"preset\": \"paths-fabric-$f-ibnetdiscover.json\"}" \
        '{"metric": "utilization"}' '{"play": true}')
    shot "$heat" "fabric-$f-heatmap.png" 1400x900 3000
done

# Live swaps (the stage's second pass): the curves after a swap at the
# browser's default speed, a refused swap's way out, and two swaps in
# presenter mode. Timed demos: each swap comes a few seconds into the
# measured cycles, as a user's would.
timed() {
    local name="$1"
    shift
    local steps
    steps="$(IFS=,; echo "$*")"
    printf '{"demo": "routelab", "steps": [%s]}\n' "$steps" >"$DEMOS/$name.json"
    echo "$DEMOS/$name.json"
}
echo "== live swaps"
swap=$(timed swap-speed10 '{"at_ms": 0, "action": {"preset": "torus-dor-uniform.json"}}' \
    '{"at_ms": 0, "action": {"speed": 10}}' '{"at_ms": 0, "action": {"play": true}}' \
    '{"at_ms": 3000, "action": {"swap_routing": "dor:tie=random"}}')
shot "$swap" stage-swap-speed10-1280x800.png 1280x800 3000
refused=$(timed swap-refused '{"at_ms": 0, "action": {"preset": "torus-dor-tornado.json"}}' \
    '{"at_ms": 0, "action": {"speed": 20}}' '{"at_ms": 0, "action": {"play": true}}' \
    '{"at_ms": 1500, "action": {"swap_routing": "rlb"}}')
shot "$refused" stage-swap-refused-1280x800.png 1280x800 3000
two=$(timed two-swaps '{"at_ms": 0, "action": {"preset": "oblivious-c-torus8-tornado.json"}}' \
    '{"at_ms": 0, "action": {"speed": 50}}' '{"at_ms": 0, "action": {"play": true}}' \
    '{"at_ms": 2500, "action": {"swap_routing": "val"}}' \
    '{"at_ms": 5000, "action": {"swap_routing": "rlb"}}')
shot "$two" stage-two-swaps-1400x900.png 1400x900 6000
shot "$two" presenter-two-swaps.png 1920x1080 6000 --presenter

echo "== presenter mode at 1920x1080"
for name in torus-dor-tornado drb-torus8-hotspot oblivious-c-torus8-tornado fattree-greedy paths-irregular-16; do
    case "$name" in fattree*) after=400 ;; *) after=3000 ;; esac
    shot "assets/scenarios/$name.json" "presenter-$name.png" 1920x1080 "$after" --presenter
done

echo "== the first step of every tour at 1280x800"
for f in assets/tours/*.json; do
    shot "$f" "tour-$(basename "$f" .json).png" 1280x800 0
done
echo "wrote $OUT"
