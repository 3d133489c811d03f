#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium before `playwright test` runs.
# Playwright's own browser download needs internet; the e2e config launches this binary instead.
# Idempotent and quiet: does nothing when the browser is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

echo "ensure-chromium: $CHROMIUM not found, installing Debian's chromium package…" >&2

# shellcheck source=../support/apt-install.sh
source "$(dirname "$0")/../support/apt-install.sh"
apt_install ensure-chromium chromium || exit 1

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: chromium was installed but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)" >&2
