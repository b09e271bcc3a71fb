#!/usr/bin/env bash
# Every test cardtable has: commit subjects (scripts/commit-msg), formatting, lints, doc
# warnings, the Rust test suites (rules, invariants, server protocol, the store on SQLite and
# PostgreSQL, kill -9 restart) and the browser tests
# in headless Chromium. Installs what is missing (Chromium, PostgreSQL 15, HAProxy and
# python3-websockets from Debian, the npm packages of e2e/). The PostgreSQL tests get a server of their own (scripts/pg.sh: a
# temporary directory, a free loopback port, stopped and removed at exit, also on failure);
# set CARDTABLE_TEST_PG to use yours instead, or CARDTABLE_SKIP_PG=1 to skip them.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (seconds since the script began): CI's budget is read from it.
step() { printf '\n==> [%ds] %s\n' "$SECONDS" "$*"; }

step "commit subjects (scripts/commit-msg)"
# Every commit this build has since 30b4af7, the last one before the 72-character rule (the
# older history keeps its long subjects: it is not rewritten). A clone that cannot reach that
# commit (a shallow one, or a history without it) checks HEAD alone.
baseline=30b4af7
if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "not a git checkout: no commits to check"
else
    if git rev-parse --verify -q "$baseline^{commit}" >/dev/null &&
        git merge-base --is-ancestor "$baseline" HEAD 2>/dev/null; then
        commits=$(git rev-list "$baseline..HEAD")
    else
        echo "$baseline is not in this clone's history (shallow?): checking HEAD only"
        commits=$(git rev-parse HEAD)
    fi
    bad=0
    for commit in $commits; do
        scripts/commit-msg --rev "$commit" || bad=$((bad + 1))
    done
    echo "$(echo "$commits" | grep -c .) commits checked, $bad refused"
    if [ "$bad" -ne 0 ]; then
        echo "reword them (git rebase -i $baseline, 'reword'), and install the hook (README, Prerequisites)" >&2
        exit 1
    fi
fi

step "the house's figures (scripts/house.sh)"
# Printed, not judged: it fails only if the script itself breaks.
scripts/house.sh

if ! pkg-config --exists openssl 2>/dev/null; then
    # Passkeys (webauthn-rs) verify with OpenSSL: its headers and pkg-config to build.
    step "OpenSSL's headers for the build (apt-get install libssl-dev pkg-config)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq libssl-dev pkg-config >/dev/null
fi

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc --no-deps, warnings denied"
RUSTDOCFLAGS="${RUSTDOCFLAGS:-} -D warnings" cargo doc --workspace --no-deps --locked

if [ -z "${CARDTABLE_TEST_PG:-}" ] && [ "${CARDTABLE_SKIP_PG:-}" != 1 ]; then
    step "PostgreSQL 15 for the store tests (scripts/pg.sh)"
    # shellcheck source=scripts/pg.sh
    source scripts/pg.sh
fi

if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ]; then
    # The cluster tests (scripts/cluster.sh: PostgreSQL, nodes and HAProxy on loopback).
    step "HAProxy for the cluster tests (apt-get install haproxy)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq haproxy >/dev/null
fi

if ! python3 -c 'import websockets' 2>/dev/null && ! /usr/bin/python3 -c 'import websockets' 2>/dev/null; then
    # examples/bot.py (the protocol's Python bot) and its test (crates/cli/tests/python_bot.rs).
    step "Python's websockets for the Python bot's test (apt-get install python3-websockets)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq python3-websockets >/dev/null
fi

step "cargo test"
# `--tests`: every library's and binary's unit tests and every integration test, but not the
# examples (benchmarks and probes: clippy above has checked them, and no test runs one), whose
# linking cost minutes on a 2-core machine; the doc tests after.
cargo test --workspace --locked --tests
cargo test --workspace --locked --doc

if [ -f e2e/run.sh ]; then
    step "browser tests (e2e/run.sh)"
    # `cargo test` has just built the (optimized, see [profile.dev]) binary for the cli's
    # integration tests; the browser tests use it rather than building another.
    export CARDTABLE_BIN="${CARDTABLE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/cardtable}"
    [ -x "$CARDTABLE_BIN" ] || cargo build -p cli --locked
    bash e2e/run.sh
fi

step "every test passed"
