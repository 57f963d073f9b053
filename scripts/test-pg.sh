#!/usr/bin/env bash
# `bun test` on PostgreSQL: against DATABASE_URL when it is already a postgres:// URL, otherwise against a throw-away
# cluster started here (Debian's postgresql package: `apt-get install -y postgresql`) and removed afterwards. Every
# test database is created (and dropped) inside it; nothing else on the server is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${DATABASE_URL:-}" in
postgres://* | postgresql://*) exec bun test "$@" ;;
esac

if [ -z "${PGBIN:-}" ]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
fi
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL is not installed: the tests run on it as well as on SQLite." >&2
  echo "Install Debian's package (apt-get install -y postgresql) or set DATABASE_URL to a postgres:// server." >&2
  exit 1
fi
export PGBIN

port=${PGTEST_PORT:-$((20000 + RANDOM % 20000))}
eval "$(bash scripts/pg-test-cluster.sh start "$port")"
trap 'bash scripts/pg-test-cluster.sh stop "$PGTEST_DIR"' EXIT
echo "--- bun test on PostgreSQL ($DATABASE_URL)"
bun test "$@"
