#!/usr/bin/env bash
# Starts or stops a real streaming replica of the local test PostgreSQL for CI's read-replica step
# (.ci/run): a hot standby on 127.0.0.1:${REPLICA_PORT:-5433}, made with pg_basebackup -R from the
# primary on 127.0.0.1:${PRIMARY_PORT:-5432}, its data, socket and log in
# ${REPLICA_DIR:-/tmp/playmoney-replica}. While it runs, the primary's commits wait until the
# replica has applied them (synchronous_standby_names='*', synchronous_commit=remote_apply), so a
# test that reads the replica right after a write sees it. `stop` resets both settings BEFORE it
# stops the replica (otherwise every commit on the primary would wait for it forever), then removes
# the data directory and the pg_hba.conf line `start` added, if it added one.
# The server binaries run as the postgres user (runuser when we are root).
set -euo pipefail
dir="${REPLICA_DIR:-/tmp/playmoney-replica}"
port="${REPLICA_PORT:-5433}"
primary_port="${PRIMARY_PORT:-5432}"
bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}"
data="$dir/data"
tag="# playmoney-replica"

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
primary() { psql -h 127.0.0.1 -p "$primary_port" -U postgres -d postgres -Atqc "$1"; }
replica() { psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc "$1"; }

# The primary waits for no standby any more (safe to call whether or not start set it).
unsync() {
  primary "alter system reset synchronous_standby_names" >/dev/null
  primary "alter system reset synchronous_commit" >/dev/null
  primary "select pg_reload_conf()" >/dev/null
}

stop() {
  local status=0
  unsync || status=1
  if [ -f "$data/postmaster.pid" ]; then
    as_pg "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null || status=1
  fi
  rm -rf "$dir"
  local hba
  hba="$(primary 'show hba_file' 2>/dev/null || true)"
  if [ -n "$hba" ] && grep -qF "$tag" "$hba"; then
    sed -i "\|$tag\$|d" "$hba"
    primary "select pg_reload_conf()" >/dev/null || status=1
  fi
  return $status
}

start() {
  [ -x "$bin/pg_basebackup" ] || { echo "no PostgreSQL binaries in $bin" >&2; return 1; }
  stop || true
  # Replication connections from 127.0.0.1 (a database of `all` in pg_hba.conf does not cover them).
  if ! psql "host=127.0.0.1 port=$primary_port user=postgres replication=true" -Atqc 'IDENTIFY_SYSTEM' >/dev/null 2>&1; then
    local hba
    hba="$(primary 'show hba_file')"
    echo "host replication all 127.0.0.1/32 trust $tag" >>"$hba"
    primary "select pg_reload_conf()" >/dev/null
    sleep 0.2
  fi
  mkdir -p "$dir"
  chown postgres "$dir" 2>/dev/null || true
  chmod 700 "$dir"
  as_pg "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$data" -R -X stream -c fast
  # Debian keeps postgresql.conf and pg_hba.conf outside the data directory: the replica gets its
  # own. A hot standby needs these limits at least as high as its primary's.
  local limits=""
  for name in max_connections max_worker_processes max_wal_senders max_prepared_transactions max_locks_per_transaction; do
    limits+="$name = $(primary "show $name")"$'\n'
  done
  as_pg tee "$data/postgresql.conf" >/dev/null <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
hot_standby = on
hot_standby_feedback = on
shared_buffers = 32MB
$limits
EOF
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' | as_pg tee "$data/pg_hba.conf" >/dev/null
  : | as_pg tee "$data/pg_ident.conf" >/dev/null
  as_pg "$bin/pg_ctl" -D "$data" -l "$dir/replica.log" -w -t 60 start >/dev/null
  for _ in $(seq 100); do
    if [ "$(replica 'select pg_is_in_recovery()' 2>/dev/null)" = t ] &&
      [ "$(primary "select count(*) from pg_stat_replication where state = 'streaming'")" != 0 ]; then
      primary "alter system set synchronous_standby_names = '*'" >/dev/null
      primary "alter system set synchronous_commit = 'remote_apply'" >/dev/null
      primary "select pg_reload_conf()" >/dev/null
      echo "replica $(replica 'show server_version') on 127.0.0.1:$port streaming from :$primary_port (synchronous, remote_apply), data in $data"
      return 0
    fi
    sleep 0.2
  done
  echo "the replica on $port did not start streaming; its log:" >&2
  tail -n 20 "$dir/replica.log" >&2 || true
  stop || true
  return 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
