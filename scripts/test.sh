#!/usr/bin/env bash
# The whole test suite, from a fresh machine with only the Rust toolchain:
# formatting, lints, every test with the GUI built in, the command-line
# tests again on the headless binary (no egui), the engine's seams without
# debug assertions, a one-node Slurm cluster and the real-browser test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== rustfmt"
rustup component add rustfmt clippy >/dev/null 2>&1 || true
cargo fmt --all -- --check
cargo fmt --manifest-path scripts/minimal-engine/Cargo.toml -- --check

echo "== clippy (core only, then with the GUI)"
cargo clippy --no-default-features --all-targets -- -D warnings
cargo clippy --all-targets -- -D warnings
# (The minimal engine, scripts/compare-minimal.sh's measuring stick, is its
# own package.)
CARGO_TARGET_DIR=target/minimal-engine cargo clippy --locked \
    --manifest-path scripts/minimal-engine/Cargo.toml -- -D warnings

echo "== rustdoc (intra-doc links resolve, private items' too, with the GUI)"
RUSTDOCFLAGS="-D warnings --document-private-items" cargo doc --no-deps --quiet

# The core's code is the same with and without the GUI (only the command
# line's help and `routelab app` differ; `tests/module_graph.rs` keeps egui
# out of the core), and "tests: everything" below runs every test with it.
# Without it, then, what differs is the headless binary that clusters and
# scripts run. It is built once, on its own (a test build without the GUI
# would build every dev-dependency, egui_kittest's egui included, a second
# time), kept aside, and run by the command-line tests, the Slurm cluster
# and the browser test's digests.
echo "== the headless build (no egui): the binary clusters and scripts run"
cargo build --no-default-features --bin routelab
TARGET="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
HEADLESS="$TARGET/headless/routelab"
mkdir -p "$TARGET/headless"
cp "$TARGET/debug/routelab" "$HEADLESS"
case "$("$HEADLESS" app 2>&1 || true)" in
    *"built without the GUI"*) ;;
    *) echo "$HEADLESS was built with the GUI: its \`app\` does not say it has none" >&2; exit 1 ;;
esac

echo "== tests: everything"
cargo test

# (Each test file is a module of tests/all.rs or tests/fuzz.rs; a filter
# `cli::` runs the file tests/cli.rs. `campaign::` also matches
# fuzz_campaign. The test binaries are the ones just built.)
echo "== tests: the headless binary: its command line, campaigns, fabric files"
ROUTELAB_TEST_BIN="$HEADLESS" cargo test --test all --test fuzz -- cli:: cli_load:: \
    cli_routings:: cli_timeslice:: fuzz_cli:: campaign:: fabric_import::

# A routing's bad answer must stop a run with a named error in a release
# build too, where the router's hot path indexes without bounds checks: the
# engine's seams with the crate's debug assertions and overflow checks off,
# as in release (only the crate and this test are rebuilt).
echo "== tests: the engine's named errors without debug assertions (as in release)"
cargo test --config 'profile.dev.package.routelab.debug-assertions=false' \
    --config 'profile.dev.package.routelab.overflow-checks=false' --test engine_seams

# The minimal engine that docs/performance.md measures routelab's engine
# against must still simulate what routelab does: equal results at three
# loads, for both packet shapes (a few seconds; the speed comparison itself
# is not run here).
echo "== the minimal engine's results are routelab's (scripts/compare-minimal.sh's check)"
BIN="$HEADLESS" CHECK_ONLY=1 bash scripts/compare-minimal.sh

echo "== campaigns: a one-node Slurm cluster runs a job array of 3 tasks (root; installs slurm-wlm and munge)"
BIN="$HEADLESS" bash scripts/slurm-test.sh

echo "== web: set-up (trunk, wasm-bindgen-cli, chromium, playwright-core), then the real-browser test"
bash scripts/web-setup.sh
ROUTELAB_BIN="$HEADLESS" bash scripts/web-test.sh
