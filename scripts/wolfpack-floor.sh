#!/usr/bin/env bash
# Wolf Pack's sim against the rules' plain floor (issue 28 item 4), by CPU time of each process
# on the same machine in the same run: `cardtable sim wolfpack --pilots 5 --ace rookie --games
# GAMES --threads 1 --json` (random pilots, rookie Ace) and `examples/plain.rs` (uniform random
# fights, the rules alone), run alternately ROUNDS times. Prints each run's moves per CPU-second
# (user + system, from /usr/bin/time) and the ratio sim/plain of each pair and of the medians.
#
#   scripts/wolfpack-floor.sh [GAMES] [ROUNDS]       (defaults 100000, 3)
#   CARDTABLE=path PLAIN=path scripts/wolfpack-floor.sh   to measure other builds
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100000}
ROUNDS=${2:-3}
TARGET=${CARGO_TARGET_DIR:-$PWD/target}
if [ -z "${CARDTABLE:-}${PLAIN:-}" ]; then
  cargo build -q --release -p cli
  cargo build -q --release -p wolfpack --example plain
fi
CARDTABLE=${CARDTABLE:-$TARGET/release/cardtable}
PLAIN=${PLAIN:-$TARGET/release/examples/plain}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sims=() plains=()
for r in $(seq "$ROUNDS"); do
  # The sim: moves = games x mean_moves from its JSON; CPU = the whole process (setup included).
  /usr/bin/time -f '%U %S' -o "$tmp/t" "$CARDTABLE" sim wolfpack --pilots 5 --ace rookie \
    --games "$GAMES" --threads 1 --json >"$tmp/sim.json"
  sim=$(python3 - "$tmp/sim.json" "$tmp/t" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); u, s = map(float, open(sys.argv[2]).read().split()[-2:])
print(f"{r['games'] * r['mean_moves'] / (u + s):.0f}")
PY
)
  # Plain: the timed loop only (it first checks 20,000 fights against the engine, untimed),
  # by its own CPU figure (user + system of the process over the loop).
  plain=$("$PLAIN" "$GAMES" 5 2>/dev/null | sed -n 's/.* \([0-9]*\) moves\/s.*/\1/p')
  sims+=("$sim") plains+=("$plain")
  awk -v r="$r" -v s="$sim" -v p="$plain" \
    'BEGIN { printf "round %d: sim %.2f M moves/s, plain %.2f M moves/s, ratio %.3f\n", r, s/1e6, p/1e6, s/p }'
done
med() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ms=$(med "${sims[@]}") mp=$(med "${plains[@]}")
awk -v s="$ms" -v p="$mp" \
  'BEGIN { printf "median: sim %.2f M moves/s, plain %.2f M moves/s, ratio %.3f\n", s/1e6, p/1e6, s/p }'
