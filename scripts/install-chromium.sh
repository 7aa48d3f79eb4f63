#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (no browser download:
# Playwright drives this binary through executable_path).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "chromium is missing; install Debian's chromium package (apt-get install chromium) as root" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
chromium --version
