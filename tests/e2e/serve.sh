#!/usr/bin/env bash
# Starts the real Hermes server (server/main.ts) on the built app for the Playwright run, with a fresh
# PGlite data dir and attachments dir that are removed when the server stops. Playwright starts this as `webServer` and stops it
# with SIGTERM (config `gracefulShutdown`); the trap forwards the signal, waits for the server to close
# its database, then deletes the directory. Never touches ./data.
set -uo pipefail

cd "$(dirname "$0")/../.."

DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/hermes-e2e.XXXXXX")" || { echo "serve.sh: mktemp failed" >&2; exit 1; }
export HERMES_DATA_DIR="$DATA_DIR/pglite"
export HERMES_ATTACHMENTS_DIR="$DATA_DIR/attachments"
export HERMES_OUTBOX_DIR="$DATA_DIR/outbox"
# Playwright passes its whole environment on: a developer's database or providers must never be used here.
unset DATABASE_URL SMTP_URL SMS_PROVIDER_URL WHATSAPP_PROVIDER_URL
# The built-in SMS simulator fails half of its messages, quickly, so the reception screen has failures to
# retry; a retried message has the same odds again, so a retry of many recipients always recovers some.
export HERMES_SIM_FAILURE_RATE="${HERMES_SIM_FAILURE_RATE:-0.5}"
export HERMES_SIM_DELAY_MS="${HERMES_SIM_DELAY_MS:-300}"
export HERMES_DELIVERY_RETRY_DELAY=1
export PORT="${PORT:-3210}"
export HOST="${HOST:-127.0.0.1}"
# The address the browser uses: links in e-mails and the single sign-on callback come back to it.
export HERMES_PUBLIC_URL="${HERMES_PUBLIC_URL:-http://$HOST:$PORT}"
# Where specs find this server's data dir (its .eml outbox): tests/e2e/support/server.ts `serverDataDir`.
POINTER="${TMPDIR:-/tmp}/hermes-e2e-$PORT.datadir"
printf '%s' "$DATA_DIR" > "$POINTER"

SERVER_PID=""

cleanup() {
  trap - EXIT INT TERM HUP
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    # Give PGlite time to close; then make sure nothing is left.
    for _ in $(seq 1 50); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  rm -rf -- "$DATA_DIR"
  rm -f -- "$POINTER"
}
trap cleanup EXIT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 129' HUP

echo "serve.sh: data under $DATA_DIR PORT=$PORT HOST=$HOST" >&2
node --import tsx server/main.ts &
SERVER_PID=$!
wait "$SERVER_PID"
STATUS=$?
SERVER_PID=""
exit "$STATUS"
