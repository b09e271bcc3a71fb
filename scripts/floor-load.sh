#!/usr/bin/env bash
# The protocol floor on the shared load driver, side by side with Colyseus in one run: runs
# the peer harness's compare-load.sh with `crates/server/examples/protocol_floor.rs` standing
# in for `cardtable serve` (same stack and packets, no rules, no store; see that file). The
# floor takes `serve`'s arguments, so the harness starts it as it starts the server.
#
#   scripts/floor-load.sh [path/to/compare-load.sh] [MATCHES] [SECONDS]
#   FLOOR_COMMIT=1 scripts/floor-load.sh ...   the durable floor: each move committed in SQLite
#                                              first, as the store does (see that file)
#   FLOOR_COMMIT=2 scripts/floor-load.sh ...   the whole-room durable floor: also the room's own
#                                              life (created, joins, start, end, deleted)
set -euo pipefail
cd "$(dirname "$0")/.."
HARNESS=${1:-../shared/bench/compare-load.sh}
[ -x "$HARNESS" ] || { echo "no peer harness at $HARNESS: pass the path of compare-load.sh" >&2; exit 1; }
cargo build -q --release -p server --example protocol_floor
FLOOR_COMMIT=${FLOOR_COMMIT:-0} "$HARNESS" "${CARGO_TARGET_DIR:-$PWD/target}/release/examples/protocol_floor" "${2:-32}" "${3:-8}"
