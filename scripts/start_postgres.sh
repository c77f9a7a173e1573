#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on loopback for the tests, and create a database.
# Prints the DATABASE_URL to use. Needs Debian's postgresql package and root (it runs the
# server as the postgres user). Usage: export DATABASE_URL=$(bash scripts/start_postgres.sh)
set -euo pipefail
PORT=${PGPORT:-55432}
DIR=${PGDATA_DIR:-/tmp/scorekeeper-pg}
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if ! as_postgres "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
  as_postgres "$BIN/initdb" -D "$DIR" -U postgres --auth=trust >/dev/null
  as_postgres "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" \
    -o "-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" -w start >/dev/null
fi
as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -tAc \
  "SELECT 1 FROM pg_database WHERE datname = 'scorekeeper_test'" | grep -q 1 ||
  as_postgres "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres scorekeeper_test
echo "postgresql+psycopg://postgres@127.0.0.1:$PORT/scorekeeper_test"
