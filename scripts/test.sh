#!/usr/bin/env bash
# The whole test suite, from a fresh machine with only the Rust toolchain:
# formatting, lints, the headless build's command-line tests without the GUI,
# then every test with it.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== rustfmt"
rustup component add rustfmt clippy >/dev/null 2>&1 || true
cargo fmt --all -- --check

echo "== clippy (core only, then with the GUI)"
cargo clippy --no-default-features --all-targets -- -D warnings
cargo clippy --all-targets -- -D warnings

echo "== rustdoc (intra-doc links resolve, with the GUI)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet

# The core's code is the same with and without the GUI (only the command
# line's help and `routelab app` differ; `tests/module_graph.rs` keeps egui
# out of the core), and "tests: everything" below runs every test with it.
# Without it, then, what differs is the headless binary that clusters and
# scripts run: the tests that run that binary, and the architecture test.
echo "== tests: the headless build (no egui): its command line, campaigns, fabric files"
# (Each test file is a module of tests/all.rs or tests/fuzz.rs; a filter
# `cli::` runs the file tests/cli.rs. `campaign::` also matches
# fuzz_campaign.)
cargo test --no-default-features --test all --test fuzz -- cli:: cli_load:: cli_routings:: \
    cli_timeslice:: fuzz_cli:: campaign:: fabric_import:: module_graph::

echo "== tests: the engine's named errors in a release build"
cargo test --release --no-default-features --test engine_seams

echo "== tests: the fat-tree preset's bars on seeds 1-5 (release: 50 runs)"
cargo test --release --no-default-features --test fattree_preset

echo "== tests: everything"
cargo test

echo "== campaigns: a one-node Slurm cluster runs a job array of 3 tasks (root; installs slurm-wlm and munge)"
bash scripts/slurm-test.sh

echo "== web: set-up (trunk, wasm-bindgen-cli, chromium, playwright-core), then the real-browser test"
bash scripts/web-setup.sh
bash scripts/web-test.sh
