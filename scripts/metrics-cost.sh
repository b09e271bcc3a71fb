#!/usr/bin/env bash
# What recording metrics costs the server: `cardtable loadtest` with metrics on and with
# `--no-metrics` (the server installs no recorder: every recording is a no-op), alternated
# ROUNDS times on one release build, each run its own server on a fresh SQLite database. Prints
# each run's moves per server CPU-second and the ratio of the medians (target: on within 3% of
# off). Then one run with ROOMS rooms open times GET /metrics (target: under 50 ms).
# Usage: scripts/metrics-cost.sh [ROUNDS] [MATCHES] [SECONDS] [ROOMS]
# (CARDTABLE_BIN=path: another build of the server instead of the release one).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5} matches=${2:-16} seconds=${3:-8} rooms=${4:-1000}
bin=${CARDTABLE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release -p cli --locked -q
    bin=target/release/cardtable
fi
on=() off=()
for r in $(seq 1 "$rounds"); do
    # Which goes first alternates: a drift of the machine over a round falls on both.
    modes=(on off)
    [ $((r % 2)) = 0 ] && modes=(off on)
    for mode in "${modes[@]}"; do
        flag=(); [ "$mode" = off ] && flag=(--no-metrics)
        v=$("$bin" loadtest --matches "$matches" --seconds "$seconds" --sockets 0 --json "${flag[@]}" |
            python3 -c 'import json,sys; r=json.load(sys.stdin); print(round(r["movesPerCpuSec"]), r["p50Ms"], r["errors"])')
        read -r per p50 errors <<<"$v"
        echo "round $r metrics $mode: $per moves per server CPU-second, p50 $p50 ms ($errors client errors)"
        if [ "$mode" = on ]; then on+=("$per"); else off+=("$per"); fi
    done
done
python3 - "${on[*]}" "${off[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"median metrics on {ma:.0f}, off {mb:.0f} moves per CPU-second: on / off = {ma / mb:.3f}"
      f" (on {min(a):.0f}-{max(a):.0f}, off {min(b):.0f}-{max(b):.0f})")
PY
"$bin" loadtest --matches "$matches" --seconds 2 --sockets 0 --scrape-rooms "$rooms" --scrapes 50 --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print("GET /metrics with %d rooms: p50 %.2f ms, max %.2f ms, %d bytes" % (r["scrapeRooms"], r["scrapeP50Ms"], r["scrapeMaxMs"], r["scrapeBytes"]))'
