#!/usr/bin/env bash
# Runs the API suite (vitest's `api` project, every test) against a real PostgreSQL server: a throwaway
# cluster in a temp dir, on a free port of 127.0.0.1, stopped and deleted on any exit (success, failure,
# Ctrl-C). The tests see it through HERMES_TEST_PG_URL (tests/api/global-setup.ts). Extra arguments go to
# vitest, e.g. `npm run test:api:pg -- tests/api/compose.test.ts`.
# Installs Debian's PostgreSQL when its binaries are missing, as ensure-chromium.sh does for Chromium.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=../support/apt-install.sh
source tests/support/apt-install.sh

# Debian keeps each major version's server binaries here; 15 is what the project runs on, any other works.
find_bindir() {
  local dir
  if [ -x /usr/lib/postgresql/15/bin/initdb ]; then echo /usr/lib/postgresql/15/bin; return; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  done
}

BINDIR="$(find_bindir)"
if [ -z "$BINDIR" ]; then
  echo "test:api:pg: PostgreSQL's server binaries not found, installing Debian's postgresql package…" >&2
  apt_install test:api:pg postgresql || exit 1
  BINDIR="$(find_bindir)"
  if [ -z "$BINDIR" ]; then
    echo "test:api:pg: postgresql was installed but no /usr/lib/postgresql/*/bin/initdb appeared." >&2
    exit 1
  fi
fi

# initdb and postgres refuse to run as root: as root, the cluster belongs to the `postgres` user the
# package created; as anyone else, to that user. Either way its superuser is called postgres.
AS_OWNER=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "test:api:pg: running as root but there is no 'postgres' user to own the cluster." >&2
    exit 1
  fi
  AS_OWNER=(runuser -u postgres --)
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/hermes-pg-XXXXXX")"
DATA="$TMP/data"
LOG="$TMP/postgres.log"
PG_PID=""

cleanup() {
  trap - EXIT INT TERM
  if [ -n "$PG_PID" ]; then
    # Immediate: the data is thrown away, so there is nothing to flush. `wait` reaps the server (it is this
    # script's child, not a daemon), so not even a zombie is left.
    "${AS_OWNER[@]}" "$BINDIR/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || kill -KILL "$PG_PID" 2>/dev/null || true
    wait "$PG_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "${#AS_OWNER[@]}" -gt 0 ]; then chown postgres: "$TMP"; fi
"${AS_OWNER[@]}" "$BINDIR/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# 0 when it answers on its socket; 1 when it exited first (another process took the port); 2 after a minute.
wait_ready() {
  local _
  for _ in $(seq 1 600); do
    if "$BINDIR/pg_isready" -q -h "$TMP" -p "$PORT"; then return 0; fi
    if ! kill -0 "$PG_PID" 2>/dev/null; then wait "$PG_PID" 2>/dev/null || true; PG_PID=""; return 1; fi
    sleep 0.1
  done
  return 2
}

# Another process may take the free port between asking and listening: try a few.
for _ in 1 2 3 4 5; do
  PORT="$(free_port)"
  # Speed over durability (the cluster lives for one run); enough connections for every test file's
  # pool, pg-boss's pool and sibling servers.
  "${AS_OWNER[@]}" "$BINDIR/postgres" -D "$DATA" \
    -c listen_addresses=127.0.0.1 -c port="$PORT" -c unix_socket_directories="$TMP" \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
    -c max_connections=300 >>"$LOG" 2>&1 &
  PG_PID=$!
  ready=0
  wait_ready || ready=$?
  if [ "$ready" -ne 1 ]; then break; fi
done
if [ -z "$PG_PID" ] || [ "$ready" -ne 0 ]; then
  echo "test:api:pg: PostgreSQL did not start; its log:" >&2
  cat "$LOG" >&2 || true
  exit 1
fi

VERSION="$("$BINDIR/postgres" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)?.*/\1/')"
# The tests' temp dirs (attachments, outboxes) go inside the cluster's, so even a run cut short by Ctrl-C,
# which skips vitest's teardown, leaves none behind.
if [ -z "${HERMES_TEST_TMPDIR:-}" ]; then
  mkdir "$TMP/files"
  export HERMES_TEST_TMPDIR="$TMP/files"
fi
export HERMES_TEST_PG_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
export HERMES_TEST_PG_LABEL="PostgreSQL $VERSION (127.0.0.1:$PORT)"
npx vitest run --project api "$@"
