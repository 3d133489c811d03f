#!/usr/bin/env bash
# A throwaway PostgreSQL cluster (tests/pg/cluster.sh) for a program that is not a shell script (the
# bench): prints `PG_URL=<admin url>` once it answers, then keeps it until its stdin closes or it gets
# SIGTERM / SIGINT, and removes it. The caller holds stdin open as a pipe, so even a caller killed with
# kill -9 closes it and the cluster goes with it.
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=./cluster.sh
source tests/pg/cluster.sh
pg_cluster_start "${1:-tests/pg/serve.sh}" || exit 1
echo "PG_URL=$PG_URL"
echo "PG_LABEL=$PG_LABEL"
# `read` returns at end of input; the traps set by pg_cluster_start remove the cluster on the way out.
while read -r _; do :; done
