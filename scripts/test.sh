#!/usr/bin/env bash
# The whole test suite, from a fresh machine with only the Rust toolchain:
# formatting, lints, the core's tests without the GUI, then everything with it.
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

echo "== tests: core without egui"
cargo test --no-default-features

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
