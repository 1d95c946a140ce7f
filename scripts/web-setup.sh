#!/usr/bin/env bash
# Everything the web build and its browser test need, from crates.io, Debian
# and npm only (no downloads from elsewhere): the wasm32 target, trunk, the
# wasm-bindgen-cli matching Cargo.lock, Chromium and playwright-core.
# Each step is skipped when already done. Versions: see the README (Development).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

echo "== wasm32 target"
rustup target add wasm32-unknown-unknown

echo "== trunk 0.21.14"
if ! trunk --version 2>/dev/null | grep -q ' 0\.21\.14'; then
    # 0.22 needs a newer rustc; --locked works for this version (~10 min).
    cargo install trunk --locked --version 0.21.14
fi

echo "== wasm-bindgen-cli (the version in Cargo.lock)"
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$WB_VERSION" ]; then
    echo "no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WB_VERSION\$"; then
    # Without --locked: its lockfile pins a crate version the registry lacks.
    cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi
apt_install() {
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@"
}

echo "== chromium, node"
if ! command -v chromium >/dev/null; then apt_install chromium; fi
if ! command -v npm >/dev/null; then apt_install nodejs npm; fi

echo "== playwright-core (tests/web)"
if [ ! -f tests/web/node_modules/playwright-core/package.json ]; then
    (cd tests/web && npm install --no-audit --no-fund --loglevel=error)
fi
echo "web set-up done: trunk $(trunk --version | cut -d' ' -f2), wasm-bindgen $WB_VERSION, $(chromium --version)"
