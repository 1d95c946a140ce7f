#!/usr/bin/env bash
# The campaign bar: a campaign run whole, and the same campaign run,
# interrupted with Ctrl-C (SIGINT) half way, then resumed; the resumed run
# must compute only the missing points and the two merged tables must be
# identical (byte for byte: the merge leaves out timing fields).
#
#     bash scripts/campaign-resume-demo.sh [FILE [OUT_DIR]] [-- campaign run options]
#
# FILE defaults to assets/campaigns/drb-comparison.json (4 500 points),
# OUT_DIR to target/campaign-demo; options after `--` go to every
# `campaign run` (e.g. `-- --set warmup=1000 --set cycles=4000` for short
# runs). BIN=path/to/routelab skips the build; REUSE_WHOLE=1 keeps the
# uninterrupted run of an earlier call (the run then finds every point done).
set -euo pipefail
cd "$(dirname "$0")/.."

FILE="assets/campaigns/drb-comparison.json"
OUT="target/campaign-demo"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then FILE="$1"; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then OUT="$1"; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
OPTS=("$@")
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B="$(routelab_bin)"
# REUSE_WHOLE=1 keeps a finished uninterrupted run from before.
if [ "${REUSE_WHOLE:-}" = 1 ]; then
    rm -rf "$OUT/resumed"
else
    rm -rf "$OUT"
fi
mkdir -p "$OUT"
total=$("$B" campaign run "$FILE" --out "$OUT/whole" "${OPTS[@]}" --check | sed -E 's/.*: ([0-9]+) points.*/\1/')
echo "== $FILE: $total points"

echo "== 1. uninterrupted"
s=$(date +%s.%N)
ROUTELAB_PROGRESS_INTERVAL_MS=30000 "$B" campaign run "$FILE" --out "$OUT/whole" "${OPTS[@]}"
e=$(date +%s.%N)
echo "uninterrupted: $(python3 -c "print(round($e - $s, 1))") s (0 s: reused)"

echo "== 2. interrupted with SIGINT once half the points are done"
s=$(date +%s.%N)
ROUTELAB_PROGRESS_INTERVAL_MS=5000 "$B" campaign run "$FILE" --out "$OUT/resumed" "${OPTS[@]}" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
    n=$(find "$OUT/resumed/points" -name '*.json' 2>/dev/null | wc -l || true)
    if [ "$n" -ge $((total / 2)) ]; then
        kill -INT "$pid"
        break
    fi
    sleep 0.2
done
code=0
wait "$pid" || code=$?
e=$(date +%s.%N)
done_before=$(find "$OUT/resumed/points" -name '*.json' | wc -l)
tmp=$(find "$OUT/resumed/points" -name '.*.tmp' | wc -l)
echo "interrupted: exit code $code after $(python3 -c "print(round($e - $s, 1))") s, $done_before of $total points done, $tmp temporary files"

echo "== 3. resumed"
s=$(date +%s.%N)
ROUTELAB_PROGRESS_INTERVAL_MS=30000 "$B" campaign run "$FILE" --out "$OUT/resumed" "${OPTS[@]}" 2>&1 | tee "$OUT/resume.log"
e=$(date +%s.%N)
echo "resumed: $(python3 -c "print(round($e - $s, 1))") s"
if ! grep -q "$((total - done_before)) computed now, $done_before found done" "$OUT/resume.log"; then
    echo "FAIL: the resumed run did not compute exactly the $((total - done_before)) missing points" >&2
    exit 1
fi

echo "== 4. merged tables"
"$B" campaign merge "$OUT/whole" >"$OUT/whole.csv"
"$B" campaign merge "$OUT/resumed" >"$OUT/resumed.csv"
if cmp "$OUT/whole.csv" "$OUT/resumed.csv"; then
    echo "PASS: identical tables, $(($(wc -l <"$OUT/whole.csv") - 1)) rows ($(sha256sum <"$OUT/whole.csv" | cut -c1-16))"
else
    echo "FAIL: the tables differ" >&2
    exit 1
fi
