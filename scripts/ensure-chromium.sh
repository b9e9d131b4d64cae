#!/usr/bin/env bash
# Makes sure Debian's chromium is installed for the editor UI test (test/e2e/editor.test.ts), which
# drives n8n's editor in headless Chromium through playwright-core. Installs it with apt-get when
# missing (as root, or through sudo when available); one install at a time. Prints the browser's
# path on its last line (stdout); everything else goes to stderr.
set -euo pipefail
BROWSER="${CHROMIUM_PATH:-/usr/bin/chromium}"
say() { echo "[ensure-chromium] $*" >&2; }

works() { [ -x "$BROWSER" ] && "$BROWSER" --headless --no-sandbox --version >/dev/null 2>&1; }

if ! works; then
  if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); else
    say "chromium is missing at $BROWSER and this user cannot install it: run 'apt-get install -y chromium' as root"
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "chromium is missing at $BROWSER and there is no apt-get: install Chromium and set CHROMIUM_PATH"
    exit 1
  fi
  exec 9>/tmp/n8n-nodes-grist-chromium.lock
  flock 9
  if ! works; then
    say "installing Debian's chromium (once, about a minute)"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get install -y --no-install-recommends chromium >&2 \
      || { "${SUDO[@]}" apt-get update >&2 && "${SUDO[@]}" apt-get install -y --no-install-recommends chromium >&2; }
  fi
  works || { say "chromium at $BROWSER does not start after the install"; exit 1; }
fi
echo "$BROWSER"
