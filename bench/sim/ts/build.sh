#!/usr/bin/env bash
# Builds the simulator's TypeScript side (bench/sim/README.md): generates gen/sim.ts from
# ../sim.bw (BITWIRE, default target/debug/bitwire; not committed, like examples/net/ts),
# compiles the clients, the page's sources, the tests and the Node test server under
# tsc --strict into build/, and bundles the live view with esbuild into dist/ (index.html +
# page.js: what `simserver --static bench/sim/ts/dist` serves).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bitwire=${BITWIRE:-$root/target/debug/bitwire}
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
"$bitwire" gen --lang ts --out gen ../sim.bw >/dev/null
rm -rf build dist
./node_modules/.bin/tsc -p tsconfig.json
mkdir -p dist
cp src/page/index.html dist/
./node_modules/.bin/esbuild src/page/main.ts --bundle --format=esm --target=es2022 --log-level=warning --outfile=dist/page.js
