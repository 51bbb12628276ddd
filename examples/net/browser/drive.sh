#!/usr/bin/env bash
# Runs the arena's browser client in headless Chromium against a running arena server that
# serves this directory's dist/ (`server ... --static examples/net/browser/dist`, after
# examples/net/ts/build.sh), and prints the page's verdict; exits non-zero unless it played
# a whole round.
#
#   bash examples/net/browser/drive.sh http://127.0.0.1:PORT/ [?threshold=T&name=NAME]
#
# The page connects to ws://<the page's host>/ws. Chromium comes from npm
# (@sparticuz/chromium + puppeteer-core: conformance/projects/browser-driver).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
url=${1:?usage: drive.sh SERVER_URL [QUERY]}
query=${2:-}
driver=$(bash "$here/../../../conformance/projects/browser-driver/install.sh")
node "$driver/drive.mjs" --url "${url%/}/${query}"
