#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for the tests: `source scripts/pg.sh` starts one in a temporary
# directory on 127.0.0.1 and a free port (as the `postgres` user: initdb and the server refuse
# root), exports what the tests need, and stops and removes it when the sourcing shell exits.
#   CARDTABLE_TEST_PG   the URL (database `cardtable`, user `postgres`, no password)
#   CARDTABLE_PG_CTL    a script: `$CARDTABLE_PG_CTL stop|start` (the outage test restarts it)
# Installs Debian's postgresql when /usr/lib/postgresql/15/bin/initdb is missing.
pg_bin=/usr/lib/postgresql/15/bin
if [ ! -x "$pg_bin/initdb" ]; then
    echo "pg.sh: installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
fi
run_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_dir=$(mktemp -d /tmp/cardtable-pg.XXXXXX)
chmod 755 "$pg_dir"
[ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
# A free port: one nothing answers on (bash's /dev/tcp), picked at random below the kernel's
# ephemeral range (outgoing connections, say a test's to a server, take ports from that range
# and could hold the one picked before PostgreSQL binds it), as scripts/cluster.sh does.
read -r pg_ephemeral_lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || pg_ephemeral_lo=32768
[ "$pg_ephemeral_lo" -gt 21024 ] || pg_ephemeral_lo=32768
while :; do
    pg_port=$((20000 + RANDOM % (pg_ephemeral_lo - 20000)))
    (exec 3<>"/dev/tcp/127.0.0.1/$pg_port") 2>/dev/null || break
done
run_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust -E UTF8 >"$pg_dir/initdb.log" 2>&1 || {
    cat "$pg_dir/initdb.log" >&2; exit 1; }
# Test settings: a small server; fsync stays on (the tests measure nothing of durability, but
# it costs little and keeps them honest).
cat >>"$pg_dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$pg_dir'
max_connections = 200
shared_buffers = 64MB
CONF
cat >"$pg_dir/ctl" <<CTL
#!/usr/bin/env bash
# stop|start the tests' PostgreSQL
if [ "\$(id -u)" = 0 ]; then exec runuser -u postgres -- $pg_bin/pg_ctl -D $pg_dir/data -l $pg_dir/log -w -t 30 "\$1" -m fast
else exec $pg_bin/pg_ctl -D $pg_dir/data -l $pg_dir/log -w -t 30 "\$1" -m fast; fi
CTL
chmod 755 "$pg_dir/ctl"
"$pg_dir/ctl" start >/dev/null
run_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres cardtable
pg_stop() {
    "$pg_dir/ctl" stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
}
trap pg_stop EXIT
export CARDTABLE_TEST_PG="postgres://postgres@127.0.0.1:$pg_port/cardtable"
export CARDTABLE_PG_CTL="$pg_dir/ctl"
export CARDTABLE_PG_DIR="$pg_dir"
echo "pg.sh: PostgreSQL 15 at $CARDTABLE_TEST_PG (data in $pg_dir)" >&2
