#!/usr/bin/env bash
# Starts or stops the PgBouncer of CI's pooler step (.ci/run): transaction mode on
# 127.0.0.1:${PGBOUNCER_PORT:-6432} in front of the local PostgreSQL, config, pid and log in
# ${PGBOUNCER_DIR:-/tmp/playmoney-pgbouncer}. Installs Debian's package when it is missing.
# PgBouncer refuses to run as root: as root it runs as the postgres user (-u postgres).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${PGBOUNCER_DIR:-/tmp/playmoney-pgbouncer}"
port="${PGBOUNCER_PORT:-6432}"
pidfile="$dir/pgbouncer.pid"

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

stop() {
  running || return 0
  local pid
  pid="$(cat "$pidfile")"
  kill -TERM "$pid"
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "pgbouncer $pid did not stop" >&2
  return 1
}

start() {
  if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
    # Debian's package starts its own service where systemd runs; ours is separate.
  fi
  local bin
  bin="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
  stop
  mkdir -p "$dir"
  sed -e "s|@DIR@|$dir|g" -e "s|@PORT@|$port|g" "$here/pgbouncer.ini" >"$dir/pgbouncer.ini"
  cp "$here/pgbouncer.userlist.txt" "$dir/userlist.txt"
  rm -f "$dir/pgbouncer.log"
  local as=()
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres "$dir"
    as=(-u postgres)
  fi
  "$bin" -d "${as[@]}" "$dir/pgbouncer.ini"
  for _ in $(seq 100); do
    if psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -Atqc 'select 1' >/dev/null 2>&1; then
      echo "pgbouncer $("$bin" --version | head -n1 | cut -d' ' -f2) on 127.0.0.1:$port (transaction mode), pid $(cat "$pidfile")"
      return 0
    fi
    sleep 0.1
  done
  echo "pgbouncer did not accept connections on $port; its log:" >&2
  tail -n 20 "$dir/pgbouncer.log" >&2 || true
  return 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
