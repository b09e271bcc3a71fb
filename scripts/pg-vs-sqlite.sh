#!/usr/bin/env bash
# The server's cost per move on PostgreSQL against SQLite (issue 24), same driver, same run:
# `cardtable loadtest --matches M --sockets 0`, once with a fresh SQLite file and once with a
# fresh database on a throwaway PostgreSQL (scripts/pg.sh), back to back, ROUNDS times, so both
# see the same load on a shared machine. Each binary given is measured in every round (SQLite,
# then PostgreSQL), so a before/after pair is alternated too.
#
#   scripts/pg-vs-sqlite.sh [-r ROUNDS] [-m MATCHES] [-s SECONDS] [BINARY...]
#     (default: 3 rounds, 32 matches, 10 s, target/release/cardtable; build it first with
#      `cargo build --release -p cli`)
#
# Prints a table per round, a line per binary:
#   sqlite mv/cpu-s   moves per server CPU-second on SQLite (the loadtest's own figure)
#   pg mv/cpu-s       the same on PostgreSQL
#   ratio             the server's CPU per move on PostgreSQL / on SQLite (goal: <= 1.3)
#   pg us/mv          PostgreSQL's own CPU (postmaster and every child, those that exited
#                     included) per move, in microseconds
#   commits/mv        pg_stat_database.xact_commit of the run's database per move (goal < 0.2)
#   p99 sq / pg       the loadtest's move-to-update latency p99, ms
# PostgreSQL's figures cover the loadtest's measured window exactly (its --window-hook samples
# them as the window starts and ends). xact_commit is PostgreSQL's cumulative statistics,
# which backends flush at most once a second: a window's count can be off by a second's worth
# at each end (about equal at both on a steady load).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3 matches=32 seconds=10
while getopts "r:m:s:" o; do
    case $o in
        r) rounds=$OPTARG ;;
        m) matches=$OPTARG ;;
        s) seconds=$OPTARG ;;
        *) sed -n '2,23p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("${CARGO_TARGET_DIR:-$PWD/target}/release/cardtable")
for b in "${bins[@]}"; do
    [ -x "$b" ] || { echo "no binary at $b (cargo build --release -p cli)" >&2; exit 1; }
done
command -v jq >/dev/null || { echo "pg-vs-sqlite.sh needs jq" >&2; exit 1; }

# shellcheck source=scripts/pg.sh
source scripts/pg.sh
work=$(mktemp -d /tmp/pg-vs-sqlite.XXXXXX)
trap 'rm -rf "$work"; pg_stop' EXIT
pg_port=${CARDTABLE_TEST_PG##*:}
pg_port=${pg_port%%/*}
psql_at() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -Atq "$@"; }

# The window hook: appends "MARK PG-CPU-TICKS XACT-COMMIT" for the database named in $LT_DB.
cat >"$work/hook" <<HOOK
#!/usr/bin/env bash
set -euo pipefail
pm=\$(head -1 "$CARDTABLE_PG_DIR/data/postmaster.pid")
ticks=0
for st in /proc/[0-9]*/stat; do
    { read -r line <"\$st"; } 2>/dev/null || continue
    rest=\${line##*) }
    read -r -a f <<<"\$rest"
    # f[0] is the state, f[1] the parent; utime stime cutime cstime are f[11..14]. The
    # postmaster's cutime/cstime hold its children that exited (backends of closed sessions).
    pid=\${st#/proc/}; pid=\${pid%/stat}
    if [ "\$pid" = "\$pm" ] || [ "\${f[1]}" = "\$pm" ]; then
        ticks=\$((ticks + f[11] + f[12] + f[13] + f[14]))
    fi
done
commits=\$(psql -h 127.0.0.1 -p $pg_port -U postgres -Atq -d postgres \\
    -c "SELECT xact_commit FROM pg_stat_database WHERE datname = '\$LT_DB'")
echo "\$LOADTEST_MARK \$ticks \$commits" >>"$work/marks"
HOOK
chmod 755 "$work/hook"
hz=$(getconf CLK_TCK)

run() { # BINARY DB -> the loadtest's JSON
    "$1" loadtest --matches "$matches" --seconds "$seconds" --sockets 0 --json ${2:+--db "$2"} \
        ${2:+--window-hook "$work/hook"}
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $matches matches, ${seconds} s a run"
n=0
for round in $(seq 1 "$rounds"); do
    echo
    echo "round $round ($(date -u +%H:%M:%S) UTC)"
    printf '%-40s %12s %12s %6s %9s %10s %14s\n' binary "sqlite mv/cpu-s" "pg mv/cpu-s" ratio "pg us/mv" commits/mv "p99 sq / pg ms"
    for bin in "${bins[@]}"; do
        n=$((n + 1))
        sq=$(run "$bin" "")
        db="lt_$n"
        psql_at -d postgres -c "CREATE DATABASE $db"
        : >"$work/marks"
        pg=$(LT_DB=$db run "$bin" "postgres://postgres@127.0.0.1:$pg_port/$db")
        read -r _ t0 c0 < <(grep '^start ' "$work/marks")
        read -r _ t1 c1 < <(grep '^end ' "$work/marks")
        for r in "$sq" "$pg"; do
            e=$(jq -r '.errors' <<<"$r")
            [ "$e" = 0 ] || echo "  (a run had $e errors)"
        done
        pg_moves=$(jq -r '.moves' <<<"$pg")
        if [ "$pg_moves" = 0 ] || [ "$(jq -r '.moves' <<<"$sq")" = 0 ]; then
            # The loadtest's window ends at a fixed time after setup began: a setup slower
            # than its slack (a loaded machine) leaves no window.
            echo "$bin: a run measured no moves (its setup overran the window); round skipped"
            psql_at -d postgres -c "DROP DATABASE $db WITH (FORCE)"
            continue
        fi
        awk -v bin="$bin" -v sq="$(jq -r '.movesPerCpuSec' <<<"$sq")" -v pg="$(jq -r '.movesPerCpuSec' <<<"$pg")" \
            -v ticks=$((t1 - t0)) -v hz="$hz" -v commits=$((c1 - c0)) -v moves="$pg_moves" \
            -v p99s="$(jq -r '.p99Ms' <<<"$sq")" -v p99p="$(jq -r '.p99Ms' <<<"$pg")" 'BEGIN {
                printf "%-40s %12.0f %12.0f %6.2f %9.1f %10.3f %6.2f / %5.2f\n", bin, sq, pg, sq / pg,
                    ticks / hz / moves * 1e6, commits / moves, p99s, p99p }'
        psql_at -d postgres -c "DROP DATABASE $db WITH (FORCE)"
    done
done
