# Sourced by tests/pg/run.sh (the API suite) and tests/pg/serve.sh (the bench): a throwaway PostgreSQL
# cluster in a temp dir, on a free port of 127.0.0.1, stopped and deleted on any exit of the sourcing
# shell (success, failure, Ctrl-C). Installs Debian's PostgreSQL when its binaries are missing, as
# tests/e2e/ensure-chromium.sh does for Chromium.
# Usage: pg_cluster_start <who is asking>; then PG_URL (superuser postgres, database postgres),
# PG_LABEL ("PostgreSQL 15 (127.0.0.1:port)") and PG_TMP (the cluster's temp dir) are set.
# shellcheck source=../support/apt-install.sh
source "$(dirname "${BASH_SOURCE[0]}")/../support/apt-install.sh"

# Debian keeps each major version's server binaries here; 15 is what the project runs on, any other works.
pg_find_bindir() {
  local dir
  if [ -x /usr/lib/postgresql/15/bin/initdb ]; then echo /usr/lib/postgresql/15/bin; return; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  done
}

PG_PID=""
PG_TMP=""
PG_AS_OWNER=()

pg_cluster_cleanup() {
  trap - EXIT INT TERM
  if [ -n "$PG_PID" ]; then
    # Immediate: the data is thrown away, so there is nothing to flush. `wait` reaps the server (it is this
    # shell's child, not a daemon), so not even a zombie is left.
    "${PG_AS_OWNER[@]}" "$PG_BINDIR/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1 || kill -KILL "$PG_PID" 2>/dev/null || true
    wait "$PG_PID" 2>/dev/null || true
  fi
  if [ -n "$PG_TMP" ]; then rm -rf "$PG_TMP"; fi
}

pg_free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# 0 when it answers on its socket; 1 when it exited first (another process took the port); 2 after a minute.
pg_wait_ready() {
  local _
  for _ in $(seq 1 600); do
    if "$PG_BINDIR/pg_isready" -q -h "$PG_TMP" -p "$PG_PORT"; then return 0; fi
    if ! kill -0 "$PG_PID" 2>/dev/null; then wait "$PG_PID" 2>/dev/null || true; PG_PID=""; return 1; fi
    sleep 0.1
  done
  return 2
}

pg_cluster_start() {
  local who="$1"
  PG_BINDIR="$(pg_find_bindir)"
  if [ -z "$PG_BINDIR" ]; then
    echo "$who: PostgreSQL's server binaries not found, installing Debian's postgresql package…" >&2
    apt_install "$who" postgresql || return 1
    PG_BINDIR="$(pg_find_bindir)"
    if [ -z "$PG_BINDIR" ]; then
      echo "$who: postgresql was installed but no /usr/lib/postgresql/*/bin/initdb appeared." >&2
      return 1
    fi
  fi

  # initdb and postgres refuse to run as root: as root, the cluster belongs to the `postgres` user the
  # package created; as anyone else, to that user. Either way its superuser is called postgres.
  if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      echo "$who: running as root but there is no 'postgres' user to own the cluster." >&2
      return 1
    fi
    PG_AS_OWNER=(runuser -u postgres --)
  fi

  PG_TMP="$(mktemp -d "${TMPDIR:-/tmp}/hermes-pg-XXXXXX")"
  trap pg_cluster_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  local log="$PG_TMP/postgres.log" ready=0 _
  if [ "${#PG_AS_OWNER[@]}" -gt 0 ]; then chown postgres: "$PG_TMP"; fi
  "${PG_AS_OWNER[@]}" "$PG_BINDIR/initdb" -D "$PG_TMP/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null

  # Another process may take the free port between asking and listening: try a few.
  for _ in 1 2 3 4 5; do
    PG_PORT="$(pg_free_port)"
    # Speed over durability (the cluster lives for one run); enough connections for every test file's
    # pool, pg-boss's pool and sibling servers.
    "${PG_AS_OWNER[@]}" "$PG_BINDIR/postgres" -D "$PG_TMP/data" \
      -c listen_addresses=127.0.0.1 -c port="$PG_PORT" -c unix_socket_directories="$PG_TMP" \
      -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
      -c max_connections=300 >>"$log" 2>&1 &
    PG_PID=$!
    ready=0
    pg_wait_ready || ready=$?
    if [ "$ready" -ne 1 ]; then break; fi
  done
  if [ -z "$PG_PID" ] || [ "$ready" -ne 0 ]; then
    echo "$who: PostgreSQL did not start; its log:" >&2
    cat "$log" >&2 || true
    return 1
  fi

  local version
  version="$("$PG_BINDIR/postgres" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)?.*/\1/')"
  PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  PG_LABEL="PostgreSQL $version (127.0.0.1:$PG_PORT)"
}
