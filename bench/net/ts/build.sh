#!/usr/bin/env bash
# Builds the network benchmark's TypeScript servers: generates gen/netbench.ts from
# ../netbench.bw (BITWIRE, default target/debug/bitwire) and compiles src/ under
# tsc --strict into build/ (build/src/node.js, bun.js, deno.js, mcproto.js).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bitwire=${BITWIRE:-$root/target/debug/bitwire}
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
"$bitwire" gen --lang ts --out gen ../netbench.bw >/dev/null
./node_modules/.bin/tsc -p tsconfig.json
