#!/usr/bin/env bash
# Every test cardtable has: formatting, lints, the Rust test suites (rules, invariants,
# server protocol, kill -9 restart) and the browser tests in headless Chromium.
# Installs what is missing (Chromium from Debian, the npm packages of e2e/).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked

if [ -f e2e/run.sh ]; then
    step "browser tests (e2e/run.sh)"
    # `cargo test` has just built the (optimized, see [profile.dev]) binary for the cli's
    # integration tests; the browser tests use it rather than building another.
    export CARDTABLE_BIN="${CARDTABLE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/cardtable}"
    [ -x "$CARDTABLE_BIN" ] || cargo build -p cli --locked
    bash e2e/run.sh
fi
