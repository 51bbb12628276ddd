#!/usr/bin/env bash
# Opens the simulator's live view in headless Chromium while a server runs, checks that
# entities move and the charts update with no console or page errors, and saves a
# screenshot (check-live.mjs):
#
#   bench/sim/ts/check-live.sh http://127.0.0.1:PORT/ OUT.png [TIMEOUT_S]
#
# The server must serve bench/sim/ts/dist (`simserver --static bench/sim/ts/dist`, after
# build.sh). The browser is the project's headless driver (puppeteer-core 25 +
# @sparticuz/chromium 153, conformance/projects/browser-driver/install.sh: installed from
# npm once, into target/browser-driver).
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 SERVER_URL OUT.png [TIMEOUT_S]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
driver=$(bash "$here/../../../conformance/projects/browser-driver/install.sh")
exec node "$here/check-live.mjs" --driver "$driver" --url "$1" --out "$2" --timeout "${3:-60}"
