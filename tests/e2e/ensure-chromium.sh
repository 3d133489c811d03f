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

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: apt-get is not available; install Chromium so that $CHROMIUM exists and retry." >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
  else
    echo "ensure-chromium: not root and no sudo; run 'apt-get install -y chromium' as root and retry." >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium; } >/dev/null; then
  echo "ensure-chromium: 'apt-get install chromium' failed; install it by hand so that $CHROMIUM exists." >&2
  exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: chromium was installed but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)" >&2
