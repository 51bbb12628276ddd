#!/usr/bin/env bash
# Opens a benchmark report (the network benchmark's, the simulator's) in headless Chromium
# and checks it (check-report.mjs): every chart drawn, every embedded image decoded, no
# console or page errors, no request but the file itself.
#
#   bench/net/check-report.sh DIR/report.html
#
# The browser is the project's headless driver (puppeteer-core + @sparticuz/chromium,
# conformance/projects/browser-driver/install.sh: installed from npm once, into
# target/browser-driver).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 REPORT.html" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
driver=$(bash "$here/../../conformance/projects/browser-driver/install.sh")
exec node "$here/check-report.mjs" --driver "$driver" --report "$1"
