#!/usr/bin/env bash
# Builds the arena example's TypeScript: generates gen/arena.ts from ../arena.bw (BITWIRE,
# default target/debug/bitwire), compiles the clients, the Node test server and the
# browser page under tsc --strict into build/, and bundles the page with esbuild into
# ../browser/dist/ (index.html + page.js: what a server's --static serves).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bitwire=${BITWIRE:-$root/target/debug/bitwire}
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
# The page's sources import the same packages.
ln -sfn ../ts/node_modules ../browser/node_modules
"$bitwire" gen --lang ts --out gen ../arena.bw >/dev/null
./node_modules/.bin/tsc -p tsconfig.json
mkdir -p ../browser/dist
cp ../browser/index.html ../browser/dist/
./node_modules/.bin/esbuild ../browser/src/page.ts --bundle --format=esm --log-level=warning --outfile=../browser/dist/page.js
