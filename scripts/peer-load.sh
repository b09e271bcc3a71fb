#!/usr/bin/env bash
# Our server on the peer harness's compare-load.sh (kept outside this repository, in
# ../shared/bench/), side by side with Colyseus in one run. The harness starts the binary it is
# given as `BIN serve --addr … --db … --rate-limit 100000`; its driver opens every room and
# socket from 127.0.0.1 and creates rooms with seeds, which `serve`'s defaults refuse (per-address
# caps, no chosen seeds: a run fails with 404s and 429s after 20 rooms). So the harness is given
# a small wrapper that adds what `cardtable loadtest` passes for the same reason: the per-address
# caps off and `--allow-seeded-rooms`.
#
#   scripts/peer-load.sh [path/to/compare-load.sh] [MATCHES] [SECONDS]
#   CARDTABLE=path/to/cardtable scripts/peer-load.sh ...    another build
set -euo pipefail
cd "$(dirname "$0")/.."
HARNESS=${1:-../shared/bench/compare-load.sh}
[ -x "$HARNESS" ] || { echo "no peer harness at $HARNESS: pass the path of compare-load.sh" >&2; exit 1; }
if [ -z "${CARDTABLE:-}" ]; then
    cargo build -q --release -p cli
fi
CARDTABLE=$(realpath "${CARDTABLE:-${CARGO_TARGET_DIR:-$PWD/target}/release/cardtable}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/cardtable" <<EOF
#!/usr/bin/env bash
exec "$CARDTABLE" "\$@" --allow-seeded-rooms --max-conns-per-addr 0 --max-sockets-per-addr 0 \\
    --max-rooms-per-addr 0 --max-rooms-per-minute-per-addr 0 --max-lookup-misses-per-minute-per-addr 0
EOF
chmod +x "$tmp/cardtable"
"$HARNESS" "$tmp/cardtable" "${2:-32}" "${3:-8}"
