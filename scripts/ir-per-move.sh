#!/usr/bin/env bash
# Instructions the server executes per move, without and with one `cardtable loadtest` flag
# (e.g. `--no-metrics`, `--signed-in`): the release server runs under valgrind's callgrind,
# counting only over loadtest's measured window (its `--window-hook` zeroes the counts at the
# start and dumps them at the end). Unlike CPU seconds, which move ±10% from run to run on a
# shared VM, the count per move repeats within a few tenths of a percent, so a cost of 1-3% can
# be seen. Alternates which goes first each round. Needs valgrind (apt-get install valgrind).
# Usage: scripts/ir-per-move.sh FLAG [ROUNDS] [MATCHES] [SECONDS]
# (CARDTABLE_BIN=path: another build of the server instead of the release one).
set -euo pipefail
cd "$(dirname "$0")/.."
flag=${1:?usage: scripts/ir-per-move.sh FLAG [ROUNDS] [MATCHES] [SECONDS]}
rounds=${2:-4} matches=${3:-4} seconds=${4:-15}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
bin=${CARDTABLE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --release -p cli --locked -q
    bin=target/release/cardtable
fi
bin=$(realpath "$bin")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# loadtest's `--server`: the server under callgrind, counting from the start. loadtest kills
# this wrapper with SIGKILL at the end; a watcher then sends the server SIGTERM, so valgrind
# exits cleanly rather than living on.
cat >"$dir/server.sh" <<EOF
#!/usr/bin/env bash
setsid valgrind --tool=callgrind --callgrind-out-file=$dir/cg.%p "$bin" "\$@" 2>"$dir/valgrind.log" &
vg=\$!
( while kill -0 \$\$ 2>/dev/null; do sleep 0.2; done; kill -TERM \$vg 2>/dev/null ) &
wait \$vg
EOF
cat >"$dir/hook.sh" <<EOF
#!/usr/bin/env bash
if [ "\$LOADTEST_MARK" = start ]; then callgrind_control -z >/dev/null 2>&1; else callgrind_control -d >/dev/null 2>&1; fi
EOF
chmod +x "$dir/server.sh" "$dir/hook.sh"
without=() with=()
for r in $(seq 1 "$rounds"); do
    modes=(without with)
    [ $((r % 2)) = 0 ] && modes=(with without)
    for mode in "${modes[@]}"; do
        extra=()
        [ "$mode" = with ] && extra=("$flag")
        rm -f "$dir"/cg.*
        moves=$("$bin" loadtest --matches "$matches" --seconds "$seconds" --sockets 0 --pin false --json \
            --server "$dir/server.sh" --window-hook "$dir/hook.sh" "${extra[@]}" |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["moves"])')
        # The exit dump comes after the window's; wait for the server to be gone.
        for _ in $(seq 50); do pgrep -f "callgrind-out-file=$dir" >/dev/null || break; sleep 0.2; done
        ir=$(grep -l "Trigger: dump" "$dir"/cg.* | head -1 | xargs grep -h '^summary' | awk '{print $2}')
        per=$((ir / moves))
        echo "round $r $mode $flag: $moves moves, $ir instructions, $per per move"
        if [ "$mode" = with ]; then with+=("$per"); else without+=("$per"); fi
    done
done
python3 - "$flag" "${without[*]}" "${with[*]}" <<'PY'
import statistics, sys
flag, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ma, mb = statistics.mean(a), statistics.mean(b)
print(f"mean instructions per move: without {flag} {ma:.0f}, with {mb:.0f}: with / without = {mb / ma:.4f}"
      f" (without {min(a):.0f}-{max(a):.0f}, with {min(b):.0f}-{max(b):.0f})")
PY
