#!/usr/bin/env bash
# A throw-away PostgreSQL 15 cluster for tests and benchmarks: trust auth, loopback only, its own socket directory,
# run as an unprivileged user (initdb refuses root: under root it runs as $PGTEST_USER, default nobody).
#
#   eval "$(scripts/pg-test-cluster.sh start [port])"   # exports DATABASE_URL and PGTEST_DIR; database "mytess"
#   scripts/pg-test-cluster.sh stop "$PGTEST_DIR"       # stops it and removes its files
set -euo pipefail

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u "${PGTEST_USER:-nobody}" --); fi

case "${1:-}" in
start)
  port=${2:-54329}
  dir=$(mktemp -d "${TMPDIR:-/tmp}/mytess-pg.XXXXXX")
  chmod 755 "$dir"
  if [ "$(id -u)" = 0 ]; then chown "${PGTEST_USER:-nobody}" "$dir"; fi
  "${as[@]}" "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
  "${as[@]}" "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/data/postgres.log" -w -s \
    -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >&2
  "${as[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U postgres mytess
  echo "export PGTEST_DIR=$dir"
  echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$port/mytess"
  ;;
stop)
  dir=${2:?usage: $0 stop <dir printed by start>}
  case "$dir" in */mytess-pg.*) ;; *) echo "not a test cluster: $dir" >&2; exit 2 ;; esac
  "${as[@]}" "$PGBIN/pg_ctl" -D "$dir/data" -m immediate -s stop >&2 || true
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start [port] | stop <dir>" >&2
  exit 2
  ;;
esac
