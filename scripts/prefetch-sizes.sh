#!/usr/bin/env bash
# Whether prefetching pays, by network size (docs/performance.md,
# "Prefetching on large networks"): the same binary with prefetching
# forced off and on (ROUTELAB_PREFETCH=0/1), alternating, user CPU time,
# median of ROUNDS runs each, on tori from 16x16 to 64x64:
#
#     bash scripts/prefetch-sizes.sh [ROUNDS]     # default 6
#
# BIN names the binary (default: a release build without the GUI, built
# here). Needs GNU time (/usr/bin/time). Takes about 3 minutes at 6 rounds.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B="$(routelab_bin)"
ROUNDS="${1:-6}"
case "$ROUNDS" in '' | *[!0-9]* | 0) echo "ROUNDS must be a positive whole number, got '$ROUNDS'" >&2; exit 2 ;; esac
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (apt-get install time)" >&2; exit 1; }
median() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
printf '%-48s %10s %10s\n' "run (user CPU s, median of $ROUNDS)" never always
while read -r name args; do
    off=() on=()
    for _ in $(seq "$ROUNDS"); do
        for pf in 0 1; do
            # shellcheck disable=SC2086 # the arguments are split on purpose
            t=$( { ROUTELAB_PREFETCH=$pf /usr/bin/time -f %U "$B" sim --routing dor --traffic uniform \
                --packet-flits 1 --seed 1 $args >/dev/null; } 2>&1 | tail -1)
            if [ "$pf" = 0 ]; then off+=("$t"); else on+=("$t"); fi
        done
    done
    printf '%-48s %10s %10s\n' "$name" "$(printf '%s\n' "${off[@]}" | median)" "$(printf '%s\n' "${on[@]}" | median)"
done <<'RUNS'
torus:16x16,load-0.15,20000-cycles --topology torus:16x16 --load 0.15 --warmup 300 --cycles 20000
torus:32x32,load-0.1,5000-cycles --topology torus:32x32 --load 0.1 --warmup 300 --cycles 5000
torus:48x48,load-0.05,3000-cycles --topology torus:48x48 --load 0.05 --warmup 300 --cycles 3000
torus:64x64,load-0.05,1500-cycles --topology torus:64x64 --load 0.05 --warmup 300 --cycles 1500
RUNS
