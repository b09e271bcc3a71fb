#!/usr/bin/env bash
# A local cardtable cluster on loopback: PostgreSQL 15 in a temporary directory, N nodes
# (`cardtable serve --node-id nK --advertise /n/nK --metrics-addr ...`) and HAProxy in front,
# configured from deploy/haproxy.cfg; and Prometheus scraping the nodes' metrics (a loopback
# variant of deploy/prometheus.yml) when `prometheus` is installed. Everything listens on
# 127.0.0.1 only.
#
#   scripts/cluster.sh up [N] [-- SERVE-ARGS...]   start (N=3); prints the address to open
#   scripts/cluster.sh down                        stop everything, remove its directories
#   scripts/cluster.sh status                      what runs, where, and each node's health
#   scripts/cluster.sh env                         the cluster as shell variables (for tests)
#   scripts/cluster.sh kill K | stop K | cont K    SIGKILL / SIGSTOP / SIGCONT node K
#   scripts/cluster.sh term K                      SIGTERM node K (drain) and wait for its exit
#   scripts/cluster.sh start K | restart K         start node K again (restart: kill -9 first),
#                                                  same port, same arguments
#   scripts/cluster.sh pg stop|start|restart       the cluster's PostgreSQL
#   scripts/cluster.sh log K | log proxy | log pg  print a log's path
#   scripts/cluster.sh proxy-cfg PORT n1=IP:PORT ...  only print the loopback HAProxy config
#                                                  (HAProxy connecting from 127.0.0.2)
#   scripts/cluster.sh prometheus-cfg              print the running cluster's Prometheus config
#
# State (pids, ports, logs) lives in $CARDTABLE_CLUSTER_DIR (default /tmp/cardtable-cluster),
# the database's files in a temporary directory /tmp/cardtable-cluster-pg.*; several clusters
# can run at once with different state directories.
# SERVE-ARGS are passed to every node (e.g. `-- --allow-seeded-rooms --heartbeat-ms 500`) and
# kept for `start`/`restart`. The server binary is $CARDTABLE_BIN, default
# target/debug/cardtable ($CARGO_TARGET_DIR honoured), built if missing.
#
# HAProxy connects to the nodes from 127.0.0.2 (loopback is all of 127/8 on Linux) and the
# nodes trust only that address (`--trusted-proxy 127.0.0.2`): a client on 127.0.0.1 talking to
# a node directly is not taken for the proxy, and through the proxy the per-address limits
# count the client's own address (X-Forwarded-For).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${CARDTABLE_CLUSTER_DIR:-/tmp/cardtable-cluster}"
pg_bin=/usr/lib/postgresql/15/bin
proxy_src=127.0.0.2
# $CARDTABLE_HAPROXY: another haproxy binary (a test points it at one that is missing).
haproxy=${CARDTABLE_HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}
# Optional: without it the cluster runs unwatched (nothing said).
prometheus=$(command -v prometheus || true)

die() { echo "cluster.sh: $*" >&2; exit 1; }
say() { echo "cluster.sh: $*" >&2; }

apt_install() { # package
    say "installing Debian's $1"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "$1" >/dev/null || die "apt-get install $1 failed"
}

run_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# A port nothing answers on (bash's /dev/tcp), picked at random below the kernel's ephemeral
# range (outgoing connections, say a node's to PostgreSQL, take ports from that range and
# could hold the one picked before its listener binds it), not one handed out already.
# Sets $port.
taken=" "
read -r ephemeral_lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || ephemeral_lo=32768
[ "$ephemeral_lo" -gt 11024 ] || ephemeral_lo=32768
free_port() {
    while :; do
        port=$((10000 + RANDOM % (ephemeral_lo - 10000)))
        case "$taken" in *" $port "*) continue ;; esac
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
        taken="$taken$port "
        return
    done
}

load_state() {
    [ -f "$state/env" ] || die "no cluster in $state (scripts/cluster.sh up)"
    # shellcheck disable=SC1091
    . "$state/env"
}

# Whether pid $1 is alive and its command line contains $2 (so a recycled pid is never
# signalled).
ours() {
    local pid="$1" mark="$2"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$mark"
}

node_pid() { cat "$state/n$1.pid" 2>/dev/null || true; }
# A node's command line holds its cluster's database URL (a port of its own) and its id.
node_mark() { echo "$PG_URL --node-id n$1 "; }
node_alive() { ours "$(node_pid "$1")" "$(node_mark "$1")"; }

check_k() {
    [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$N" ] || die "no node $1 (nodes 1..$N)"
}

health() { # url -> the HTTP status of GET url/api/health (000 when nothing answers)
    curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1/api/health" || true
}

wait_health() { # url seconds what
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        [ "$(health "$1")" = 200 ] && return 0
        sleep 0.1
    done
    return 1
}

# The binary: $CARDTABLE_BIN, or the debug build (built if missing).
binary() {
    local bin="${CARDTABLE_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/cardtable}"
    if [ ! -x "$bin" ]; then
        [ -z "${CARDTABLE_BIN:-}" ] || die "CARDTABLE_BIN=$bin is not an executable"
        say "building the server (cargo build -p cli)"
        (cd "$repo" && cargo build -q -p cli) || die "cargo build failed"
    fi
    (cd "$repo" && realpath "$bin")
}

start_node() {
    local k="$1" port
    port=$(cat "$state/n$k.port")
    node_alive "$k" && die "node $k is running already (pid $(node_pid "$k"))"
    local -a extra=() metrics=()
    [ -f "$state/serve-args" ] && mapfile -t extra <"$state/serve-args"
    # The metrics page on a port of its own, as in production (deploy/prometheus.yml): not
    # through the proxy. Unless the nodes record none.
    if ! printf '%s\n' "${extra[@]}" | grep -qx -- --no-metrics; then
        metrics=(--metrics-addr "127.0.0.1:$(cat "$state/n$k.metrics-port")")
    fi
    # setsid: the node outlives this script and a Ctrl-C in its terminal; its own session.
    setsid "$BIN" serve --db "$PG_URL" --node-id "n$k" --advertise "/n/n$k" \
        --addr "127.0.0.1:$port" --trusted-proxy "$proxy_src" "${metrics[@]}" "${extra[@]}" \
        </dev/null >>"$state/n$k.log" 2>&1 &
    echo $! >"$state/n$k.pid"
    if ! wait_health "http://127.0.0.1:$port" 30; then
        tail -n 20 "$state/n$k.log" >&2
        die "node $k did not answer 200 on /api/health within 30 s (log: $state/n$k.log)"
    fi
}

signal_node() { # k signal
    local pid
    pid=$(node_pid "$1")
    node_alive "$1" || die "node $1 is not running"
    kill "-$2" "$pid"
}

wait_exit() { # pid seconds -> 0 once gone
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        [ -d "/proc/$1" ] || return 0
        # a zombie child of nobody we know: gone for our purpose
        [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ] && return 0
        sleep 0.1
    done
    return 1
}

# deploy/haproxy.cfg, made local: lines marked "cluster: drop" go, the "cluster: bind" line
# binds 127.0.0.1:PORT, "cluster: replace LINE" puts LINE instead, the paragraph `backend node_n1` and the line `server n1 ...` are
# repeated for every node (n2, n3 of the example dropped), servers get their loopback address
# and `source 127.0.0.2`.
render_proxy_cfg() { # port "n1=ADDR n2=ADDR ..." -> the config on stdout
    awk -v port="$1" -v src="$proxy_src" -v nodes="$2" '
        function node_line(line, id, addr,   l) {
            l = line
            gsub(/node_n1/, "node_" id, l)
            gsub(/nodes\/n1/, "nodes/" id, l)
            sub(/server n1 [^ ]+/, "server " id " " addr, l)
            if (l ~ /^ *server /) l = l " source " src
            return l
        }
        function flush(   i, j, k, l, is_node_backend, other_backend) {
            if (np == 0) return
            is_node_backend = 0; other_backend = 0
            for (i = 1; i <= np; i++) {
                if (para[i] ~ /^backend node_n1$/) is_node_backend = 1
                else if (para[i] ~ /^backend node_n[0-9]+$/) other_backend = 1
            }
            if (other_backend) { np = 0; return }
            for (j = 1; j <= (is_node_backend ? nn : 1); j++) {
                for (i = 1; i <= np; i++) {
                    if (para[i] ~ /# cluster: drop/) continue
                    if (para[i] ~ /# cluster: bind/) { print "    bind 127.0.0.1:" port; continue }
                    if (para[i] ~ /# cluster: replace /) { l = para[i]; sub(/.*# cluster: replace /, "    ", l); print l; continue }
                    if (is_node_backend) { print node_line(para[i], ids[j], addrs[j]); continue }
                    if (para[i] ~ /^ *server n1 /) {
                        for (k = 1; k <= nn; k++) print node_line(para[i], ids[k], addrs[k])
                        continue
                    }
                    if (para[i] ~ /^ *server n[0-9]+ /) continue
                    print para[i]
                }
                print ""
            }
            np = 0
        }
        BEGIN {
            nn = split(nodes, pairs, " ")
            for (k = 1; k <= nn; k++) { split(pairs[k], kv, "="); ids[k] = kv[1]; addrs[k] = kv[2] }
            print "# Written by scripts/cluster.sh from deploy/haproxy.cfg: do not edit."
        }
        /^[ \t]*$/ { flush(); next }
        { para[++np] = $0 }
        END { flush() }
    ' "$repo/deploy/haproxy.cfg"
}

write_proxy_cfg() {
    local nodes="" k
    for ((k = 1; k <= N; k++)); do nodes="$nodes n$k=127.0.0.1:$(cat "$state/n$k.port")"; done
    render_proxy_cfg "$PROXY_PORT" "$nodes" >"$state/haproxy.cfg"
    "$haproxy" -c -q -f "$state/haproxy.cfg" >&2 || die "haproxy rejects its configuration"
}

start_proxy() {
    # -D: daemon, the pid in haproxy.pid.
    "$haproxy" -D -p "$state/haproxy.pid" -f "$state/haproxy.cfg" >>"$state/haproxy.log" 2>&1 ||
        { cat "$state/haproxy.log" >&2; die "haproxy did not start"; }
}

proxy_alive() { ours "$(cat "$state/haproxy.pid" 2>/dev/null || true)" "$state/haproxy.cfg"; }

# deploy/prometheus.yml, made local: the same job and `node` labels (the dashboard's), a
# shorter interval, and this cluster's nodes' metrics ports as targets.
render_prometheus_cfg() {
    local k
    echo "# Written by scripts/cluster.sh after deploy/prometheus.yml: do not edit."
    echo "global:"
    echo "  scrape_interval: 5s"
    echo "  evaluation_interval: 5s"
    echo "scrape_configs:"
    echo "  - job_name: cardtable"
    echo "    metrics_path: /metrics"
    echo "    static_configs:"
    for ((k = 1; k <= N; k++)); do
        echo "      - targets: [\"127.0.0.1:$(cat "$state/n$k.metrics-port")\"]"
        echo "        labels:"
        echo "          node: n$k"
    done
}

prometheus_alive() { ours "$(cat "$state/prometheus.pid" 2>/dev/null || true)" "$state/prometheus.yml"; }

# Prometheus on loopback, if installed; its data in the state directory (gone at `down`).
start_prometheus() {
    [ -n "$prometheus" ] || return 0
    local port
    free_port
    PROM_PORT=$port
    render_prometheus_cfg >"$state/prometheus.yml"
    setsid "$prometheus" --config.file="$state/prometheus.yml" --storage.tsdb.path="$state/prometheus-data" \
        --web.listen-address="127.0.0.1:$port" </dev/null >>"$state/prometheus.log" 2>&1 &
    echo $! >"$state/prometheus.pid"
    echo "PROM_PORT=$port" >>"$state/env"
    local i
    for ((i = 0; i < 100; i++)); do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/-/ready" && return 0
        sleep 0.1
    done
    say "Prometheus did not answer within 10 s (log: $state/prometheus.log); the cluster runs without it"
}

pg_ctl() { # start|stop
    run_pg "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 30 "$1" -m fast >/dev/null
}

cmd_up() {
    local n=3
    if [ $# -gt 0 ] && [ "$1" != -- ]; then n="$1"; shift; fi
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 20 ] || die "N must be 1..20"
    [ $# -gt 0 ] && { [ "$1" = -- ] || die "usage: up [N] [-- SERVE-ARGS...]"; shift; }
    if [ -f "$state/env" ]; then
        die "a cluster is already in $state (scripts/cluster.sh down, or set CARDTABLE_CLUSTER_DIR)"
    fi
    # What a cluster needs, installed from Debian when missing (both alike).
    if [ ! -x "$haproxy" ]; then
        apt_install haproxy
        [ -n "${CARDTABLE_HAPROXY:-}" ] || haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
        [ -x "$haproxy" ] || die "haproxy is still missing after apt-get install haproxy"
    fi
    if [ ! -x "$pg_bin/initdb" ]; then
        apt_install postgresql
        [ -x "$pg_bin/initdb" ] || die "PostgreSQL 15 is still missing after apt-get install postgresql"
    fi
    BIN=$(binary)
    mkdir -p "$state"
    chmod 755 "$state"
    # From here on: stop it all again if anything below fails.
    trap 'say "start failed; stopping what started"; cmd_down >/dev/null 2>&1 || true' EXIT
    printf '%s\n' "$@" >"$state/serve-args"
    [ $# -gt 0 ] || : >"$state/serve-args"

    N=$n
    # The database in a directory of its own under /tmp: the postgres user (when root) must
    # reach it, whatever the state directory's parents allow.
    PG_DIR=$(mktemp -d /tmp/cardtable-cluster-pg.XXXXXX)
    printf 'N=0\nPG_DIR=%s\n' "$PG_DIR" >"$state/env"   # enough for down, should the rest fail
    chmod 755 "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
    local port
    free_port
    PG_PORT=$port
    run_pg "$pg_bin/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 >"$state/initdb.log" 2>&1 ||
        { cat "$state/initdb.log" >&2; die "initdb failed"; }
    cat >>"$PG_DIR/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
max_connections = 200
shared_buffers = 64MB
CONF
    PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/cardtable"
    free_port
    PROXY_PORT=$port
    local k
    for ((k = 1; k <= N; k++)); do
        free_port
        echo "$port" >"$state/n$k.port"
        free_port
        echo "$port" >"$state/n$k.metrics-port"
    done
    cat >"$state/env" <<ENV
N=$N
BIN='$BIN'
PG_DIR='$PG_DIR'
PG_PORT=$PG_PORT
PG_URL='$PG_URL'
PROXY_PORT=$PROXY_PORT
ENV
    pg_ctl start
    run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres cardtable
    for ((k = 1; k <= N; k++)); do start_node "$k"; done
    write_proxy_cfg
    start_proxy
    wait_health "http://127.0.0.1:$PROXY_PORT" 10 || die "no healthy node behind HAProxy after 10 s"
    start_prometheus
    trap - EXIT
    local watched=""
    [ -n "${PROM_PORT:-}" ] && prometheus_alive && watched="; Prometheus at http://127.0.0.1:$PROM_PORT/"
    say "PostgreSQL 15 at $PG_URL; $N nodes; HAProxy at 127.0.0.1:$PROXY_PORT$watched (state in $state)"
    echo "http://127.0.0.1:$PROXY_PORT/"
}

cmd_down() {
    [ -f "$state/env" ] || { say "no cluster in $state"; return 0; }
    load_state
    local k pids=()
    for ((k = 1; k <= N; k++)); do
        if node_alive "$k"; then
            kill -CONT "$(node_pid "$k")" 2>/dev/null || true
            kill -TERM "$(node_pid "$k")" 2>/dev/null || true
            pids+=("$(node_pid "$k")")
        fi
    done
    local pid
    for pid in "${pids[@]}"; do
        wait_exit "$pid" 10 || kill -KILL "$pid" 2>/dev/null || true
    done
    if proxy_alive; then
        pid=$(cat "$state/haproxy.pid")
        kill -TERM "$pid" 2>/dev/null || true
        wait_exit "$pid" 5 || kill -KILL "$pid" 2>/dev/null || true
    fi
    if prometheus_alive; then
        pid=$(cat "$state/prometheus.pid")
        kill -TERM "$pid" 2>/dev/null || true
        wait_exit "$pid" 10 || kill -KILL "$pid" 2>/dev/null || true
    fi
    if [ -f "$PG_DIR/data/postmaster.pid" ]; then pg_ctl stop 2>/dev/null || true; fi
    case "$PG_DIR" in /tmp/cardtable-cluster-pg.*) rm -rf "$PG_DIR" ;; esac
    rm -rf "$state"
    say "stopped; removed $state"
}

cmd_status() {
    load_state
    echo "proxy  http://127.0.0.1:$PROXY_PORT/  $(proxy_alive && echo "pid $(cat "$state/haproxy.pid")" || echo down)  health $(health "http://127.0.0.1:$PROXY_PORT")"
    local pg=down
    [ -f "$PG_DIR/data/postmaster.pid" ] && pg="pid $(head -n1 "$PG_DIR/data/postmaster.pid")"
    echo "pg     $PG_URL  $pg"
    local k pid st
    for ((k = 1; k <= N; k++)); do
        pid=$(node_pid "$k")
        if node_alive "$k"; then
            st="pid $pid"
            [ "$(awk '{print $3}' "/proc/$pid/stat")" = T ] && st="$st (stopped)"
        else
            st=down
        fi
        echo "n$k     http://127.0.0.1:$(cat "$state/n$k.port")/  $st  health $(health "http://127.0.0.1:$(cat "$state/n$k.port")")"
    done
    if [ -n "${PROM_PORT:-}" ]; then
        echo "prometheus  http://127.0.0.1:$PROM_PORT/  $(prometheus_alive && echo "pid $(cat "$state/prometheus.pid")" || echo down)"
    fi
}

cmd_env() {
    load_state
    echo "CLUSTER_DIR='$state'"
    echo "CLUSTER_URL='http://127.0.0.1:$PROXY_PORT'"
    echo "CLUSTER_N=$N"
    echo "CLUSTER_PG_URL='$PG_URL'"
    echo "CLUSTER_PROXY_SOURCE=$proxy_src"
    local k
    for ((k = 1; k <= N; k++)); do
        echo "CLUSTER_NODE_$k='http://127.0.0.1:$(cat "$state/n$k.port")'"
        echo "CLUSTER_PID_$k=$(node_pid "$k")"
        echo "CLUSTER_METRICS_$k='http://127.0.0.1:$(cat "$state/n$k.metrics-port")/metrics'"
    done
    [ -z "${PROM_PORT:-}" ] || echo "CLUSTER_PROMETHEUS_URL='http://127.0.0.1:$PROM_PORT'"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    status) cmd_status ;;
    env) cmd_env ;;
    proxy-cfg)
        # Only print the loopback config (no state, no process): for harnesses that run the
        # nodes themselves.
        [[ "${1:-}" =~ ^[0-9]+$ ]] && [ $# -ge 2 ] || die "usage: proxy-cfg LISTEN_PORT n1=127.0.0.1:PORT ..."
        port=$1
        shift
        for kv in "$@"; do
            [[ "$kv" =~ ^[A-Za-z0-9_-]+=[0-9.]+:[0-9]+$ ]] || die "proxy-cfg: '$kv' is not ID=IP:PORT"
        done
        render_proxy_cfg "$port" "$*"
        ;;
    prometheus-cfg)
        load_state
        render_prometheus_cfg
        ;;
    kill | stop | cont)
        load_state
        check_k "${1:-}"
        case "$cmd" in kill) signal_node "$1" KILL ;; stop) signal_node "$1" STOP ;; cont) signal_node "$1" CONT ;; esac
        if [ "$cmd" = kill ]; then wait_exit "$(node_pid "$1")" 5 || true; fi
        ;;
    term)
        load_state
        check_k "${1:-}"
        pid=$(node_pid "$1")
        signal_node "$1" TERM
        wait_exit "$pid" 30 || die "node $1 (pid $pid) still runs 30 s after SIGTERM"
        ;;
    start | restart)
        load_state
        check_k "${1:-}"
        if [ "$cmd" = restart ] && node_alive "$1"; then
            pid=$(node_pid "$1")
            kill -KILL "$pid"
            wait_exit "$pid" 5 || die "node $1 (pid $pid) survived SIGKILL"
        fi
        start_node "$1"
        ;;
    pg)
        load_state
        case "${1:-}" in
            stop | start) pg_ctl "$1" ;;
            restart) pg_ctl stop && pg_ctl start ;;
            *) die "usage: pg stop|start|restart" ;;
        esac
        ;;
    log)
        load_state
        case "${1:-}" in
            proxy) echo "$state/haproxy.log" ;;
            pg) echo "$PG_DIR/log" ;;
            *) check_k "${1:-}" && echo "$state/n$1.log" ;;
        esac
        ;;
    *)
        sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
        [ -z "$cmd" ] || [ "$cmd" = help ] || [ "$cmd" = -h ] || exit 2
        ;;
esac
