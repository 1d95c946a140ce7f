#!/usr/bin/env bash
# Build the web app with trunk, serve it on localhost and check it in
# headless Chromium: the canvas draws, no panic reaches the console, a
# scenario in the URL is the one shown, playing advances the cycle, and
# scenarios run inside the page give the digest the native CLI prints
# (ROUTELAB_BIN: the native binary; default: a debug build, core only).
# Run scripts/web-setup.sh first. `--fps` also measures the frame rate,
# `--rate` the simulated cycles per second in the page (docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

echo "== trunk build (release, wasm-opt off)"
trunk build --release=true index.html

PORT=${ROUTELAB_WEB_PORT:-8765}
echo "== serving dist/ on http://127.0.0.1:$PORT"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist >/tmp/routelab-web-server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/')" 2>/dev/null; then
        break
    fi
    sleep 0.2
done

echo "== native binary for the digests (native equals web)"
if [ -z "${ROUTELAB_BIN:-}" ]; then
    cargo build --no-default-features --bin routelab --quiet
    ROUTELAB_BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/routelab"
fi
export ROUTELAB_BIN

echo "== browser test"
node tests/web/browser-test.mjs "http://127.0.0.1:$PORT/" "$@"

echo "== offline: the installed app starts with the network off"
node tests/web/offline-test.mjs dist
