#!/usr/bin/env bash
# Web screenshots: presenter mode and the first step of every guided tour,
# at 1280x800, into docs/screenshots/ (release web build in headless
# Chromium). Run scripts/web-setup.sh once first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
trunk build --release=true index.html
node tests/web/screenshots.mjs dist docs/screenshots
