#!/usr/bin/env bash
# Runs the API suite (vitest's `api` project, every test) against a real PostgreSQL server: a throwaway
# cluster (tests/pg/cluster.sh), stopped and deleted on any exit. The tests see it through
# HERMES_TEST_PG_URL (tests/api/global-setup.ts). Extra arguments go to vitest, e.g.
# `npm run test:api:pg -- tests/api/compose.test.ts`.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=./cluster.sh
source tests/pg/cluster.sh
pg_cluster_start test:api:pg || exit 1

# The tests' temp dirs (attachments, outboxes) go inside the cluster's, so even a run cut short by Ctrl-C,
# which skips vitest's teardown, leaves none behind.
if [ -z "${HERMES_TEST_TMPDIR:-}" ]; then
  mkdir "$PG_TMP/files"
  export HERMES_TEST_TMPDIR="$PG_TMP/files"
fi
export HERMES_TEST_PG_URL="$PG_URL"
export HERMES_TEST_PG_LABEL="$PG_LABEL"
npx vitest run --project api "$@"
