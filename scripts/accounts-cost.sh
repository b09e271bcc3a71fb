#!/usr/bin/env bash
# What signed-in players cost the server beside anonymous ones: `cardtable loadtest` with and
# without `--signed-in` (every client a guest account, its socket opened with its session
# cookie, its matches recorded to it), alternated ROUNDS times on one release build, each run
# its own server on a fresh SQLite database. Prints each run's moves per server CPU-second and
# the ratio of the medians. The order alternates each round (ABBA). Usage: scripts/accounts-cost.sh [ROUNDS] [MATCHES] [SECONDS]
# (CARDTABLE_BIN=path: another build of the server instead of the release one).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} matches=${2:-16} seconds=${3:-8}
bin=${CARDTABLE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release -p cli --locked -q
    bin=target/release/cardtable
fi
anon=() signed=()
for r in $(seq 1 "$rounds"); do
    # ABBA: which mode runs first alternates, so a drift over the run (the machine's other load,
    # its clock) falls on both alike.
    order="anon signed"; [ $((r % 2)) -eq 0 ] && order="signed anon"
    for mode in $order; do
        flag=(); [ "$mode" = signed ] && flag=(--signed-in)
        v=$("$bin" loadtest --matches "$matches" --seconds "$seconds" --sockets 0 --json "${flag[@]}" |
            python3 -c 'import json,sys; r=json.load(sys.stdin); print(round(r["movesPerCpuSec"]), r["errors"])')
        read -r per errors <<<"$v"
        echo "round $r $mode: $per moves per server CPU-second ($errors client errors)"
        if [ "$mode" = anon ]; then anon+=("$per"); else signed+=("$per"); fi
    done
done
python3 - "${anon[*]}" "${signed[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
s = [float(x) for x in sys.argv[2].split()]
ma, ms = statistics.median(a), statistics.median(s)
print(f"median anonymous {ma:.0f}, signed in {ms:.0f} moves per CPU-second: signed in / anonymous = {ms / ma:.3f}"
      f" (anonymous {min(a):.0f}-{max(a):.0f}, signed in {min(s):.0f}-{max(s):.0f})")
PY
