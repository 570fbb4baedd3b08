#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the test suite, on 127.0.0.1 and a free port, in a directory of its own.
#
#   scripts/pg_test_cluster.sh start DIR   initdb + start in DIR, create database princes_test, print its URL
#   scripts/pg_test_cluster.sh stop DIR    stop the cluster and delete DIR
#
# Uses the server binaries of the Debian packages (/usr/lib/postgresql/<version>/bin, `apt-get install postgresql`).
# Run as root, the server runs as the `postgres` user (PostgreSQL refuses to run as root). The cluster trusts
# every local connection and does not fsync: it holds test data only and is deleted afterwards.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

bindir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then
    echo "PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
    exit 3
  fi
  echo "$found"
}

# run a server command as the cluster's owner
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local bin port attempt
  bin=$(bindir)
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  # another program may take the chosen port between the check and the start: try a few ports
  for attempt in 1 2 3; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null; then
      as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres princes_test
      echo "$port" >"$dir/port"
      echo "postgresql://postgres@127.0.0.1:$port/princes_test"
      return 0
    fi
    echo "PostgreSQL did not start on port $port (attempt $attempt):" >&2
    tail -n 5 "$dir/server.log" >&2 || true
  done
  exit 1
}

stop() {
  local bin
  bin=$(bindir)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$dir"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
