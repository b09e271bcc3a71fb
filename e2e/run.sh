#!/usr/bin/env bash
# Browser tests of the web client: installs what they need if it is missing (Debian's
# Chromium, playwright-core from the lock file, the release server binary), then runs them.
# Exits non-zero if anything fails. Env: CARDTABLE_BIN (use this binary, do not build),
# CARGO_TARGET_DIR (where cargo builds), CHROMIUM (browser path, default /usr/bin/chromium).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "e2e: installing Debian's chromium" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

cd "$here"
if [ ! -d node_modules/playwright-core ]; then
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi

if [ -z "${CARDTABLE_BIN:-}" ]; then
  # A no-op when the binary is fresh; the web files are compiled into it, so this also picks
  # up any change under web/.
  (cd "$repo" && cargo build --release -p cli)
fi

mkdir -p "$here/artifacts"
exec node --test --test-concurrency=2 --test-timeout=300000 tests/
