#!/usr/bin/env bash
# Debian's Chromium and its driver, for the tests that drive a real browser.
# Kept apart from setup.sh: it is the only step that needs apt and root, and
# only the browser suites need it.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "setup-browser: chromium present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup-browser: installing chromium and chromium-driver from apt"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends chromium chromium-driver
